// "Profile Java Main Class…": the main methods of the active Java file, else of every Java
// file in the workspace that declares one (hotlines/testsInFile `mains`), a quick pick when
// there are several, the program arguments (remembered per class), then a java-main run —
// the server compiles Maven and Gradle projects first — through the Runs view.
import * as vscode from 'vscode';
import type * as P from './protocol';
import { splitArgs, withBuildArgs } from './run_params';
import { buildArgs, type Runs, testsIn } from './runs';
import type { Session } from './session';

const ARGS_KEY = 'hotlines.mainArgs';

async function workspaceMains(session: Session): Promise<P.TestInFile[]> {
  const ed = vscode.window.activeTextEditor;
  if (ed && ed.document.uri.scheme === 'file' && ed.document.fileName.endsWith('.java')) {
    const own = (await testsIn(session, ed.document.uri)).mains ?? [];
    if (own.length) return own;
  }
  const files = await vscode.workspace.findFiles('**/*.java', '**/{node_modules,target,build,out,.git,.hotlines}/**', 5000);
  const found: P.TestInFile[] = [];
  for (const f of files) {
    const text = Buffer.from(await vscode.workspace.fs.readFile(f)).toString('utf8');
    if (!/\bstatic\b[^;{]*\bvoid\s+main\s*\(/.test(text)) continue; // the server decides; this only skips files
    found.push(...((await testsIn(session, f).catch(() => undefined))?.mains ?? []));
  }
  return found;
}

export async function profileMain(session: Session, runs: Runs, main?: P.TestInFile): Promise<void> {
  if (!main) {
    const mains = await workspaceMains(session);
    if (!mains.length) {
      void vscode.window.showInformationMessage('hotlines: no Java class with a main method in the workspace');
      return;
    }
    const pick =
      mains.length === 1
        ? { main: mains[0] }
        : await vscode.window.showQuickPick(
            mains.map((m) => ({ label: m.name, description: vscode.workspace.asRelativePath(String(m.run.cwd ?? '')), main: m })),
            { placeHolder: 'Main class to profile' },
          );
    if (!pick) return;
    main = pick.main;
  }
  const state = session.context.workspaceState;
  const remembered = state.get<Record<string, string>>(ARGS_KEY, {});
  let args: string[] | undefined;
  const line = await vscode.window.showInputBox({
    title: `Profile ${main.name}`,
    prompt: 'Program arguments (quote with \' or ")',
    value: remembered[main.name] ?? '',
    validateInput: (v) => (splitArgs(v) ? undefined : 'a quote is not closed'),
  });
  if (line === undefined || !(args = splitArgs(line))) return;
  await state.update(ARGS_KEY, { ...remembered, [main.name]: line });
  const label = main.name.slice(main.name.lastIndexOf('.') + 1);
  await runs.start(label + (args.length ? ` ${args.join(' ')}` : ''), withBuildArgs({ ...main.run, args }, buildArgs()));
}

export function activate(context: vscode.ExtensionContext, session: Session, runs: Runs): void {
  context.subscriptions.push(vscode.commands.registerCommand('hotlines.profileMainClass', () => profileMain(session, runs)));
}

