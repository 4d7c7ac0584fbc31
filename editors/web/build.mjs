// Bundles src/main.ts (and its CSS, as text) into dist/view.js: one IIFE for every host (the
// CLI's HTML export inlines it, VS Code's webview and the served page load it).
// Usage: node build.mjs [--out FILE] [--watch]; `--tests` instead bundles test/*.test.ts into
// out/test/ for `node --test`.
import * as esbuild from 'esbuild';
import * as fs from 'fs';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const outfile = outIndex >= 0 ? args[outIndex + 1] : 'dist/view.js';
const options = {
  entryPoints: ['src/main.ts'],
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  minify: true,
  legalComments: 'none',
  loader: { '.css': 'text' },
  charset: 'utf8',
  outfile,
  logLevel: 'warning',
};
if (args.includes('--tests')) {
  const tests = fs.readdirSync('test').filter((f) => f.endsWith('.test.ts')).map((f) => `test/${f}`);
  await esbuild.build({ entryPoints: tests, bundle: true, platform: 'node', format: 'cjs', target: ['node20'], outdir: 'out/test', logLevel: 'warning' });
} else if (args.includes('--watch')) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
