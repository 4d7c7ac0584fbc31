// Where the hotlines binary is: the `hotlines.serverPath` setting, else `hotlines` on PATH,
// else the one built in the repository this extension sits in (editors/vscode → build/hotlines).
// Pure (the file test is passed in), covered by test/server_path.test.ts.
import * as path from 'path';

export function findServer(
  setting: string,
  pathEnv: string,
  extensionPath: string,
  isExecutable: (p: string) => boolean,
): string | undefined {
  if (setting) return setting;
  for (const dir of pathEnv.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'hotlines');
    if (isExecutable(candidate)) return candidate;
  }
  const repoBuild = path.resolve(extensionPath, '..', '..', 'build', 'hotlines');
  return isExecutable(repoBuild) ? repoBuild : undefined;
}
