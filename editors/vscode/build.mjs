// Bundles src/extension.ts into dist/extension.js (CommonJS for the extension host, `vscode`
// external) and copies the web view's committed bundle to media/view.js for the flame graph
// webview; `--vsix OUT` then packages the extension with vsce. `--tests` instead bundles
// test/*.test.ts into out/test/ for `node --test`.
import { execFileSync } from 'child_process';
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as path from 'path';

const common = { bundle: true, platform: 'node', format: 'cjs', target: ['node20'], logLevel: 'warning' };
if (process.argv.includes('--tests')) {
  const tests = fs.readdirSync('test').filter((f) => f.endsWith('.test.ts')).map((f) => `test/${f}`);
  await esbuild.build({ ...common, entryPoints: tests, outdir: 'out/test', external: ['vscode'] });
} else {
  await esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], minify: true, sourcemap: false });
  fs.copyFileSync('../web/dist/view.js', 'media/view.js');
  const vsix = process.argv.indexOf('--vsix');
  if (vsix >= 0) {
    fs.mkdirSync(path.dirname(path.resolve(process.argv[vsix + 1])), { recursive: true });
    execFileSync(process.execPath, ['node_modules/@vscode/vsce/vsce', 'package', '--allow-missing-repository', '--skip-license', '-o', process.argv[vsix + 1]], { stdio: 'inherit' });
  }
}
