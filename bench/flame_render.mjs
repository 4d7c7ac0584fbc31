// First render of a large flame graph in the web view: generates collapsed stacks whose
// merged tree has about N nodes (default 100,000), exports them with `hotlines flamegraph`,
// loads the page in Debian's chromium (headless) and prints the times — export, page load to
// first drawn frame, redraw (hover) and zoom — plus the page size. Printed, never asserted.
// Needs `npm ci` in tests/browser (playwright-core).
// Usage: node bench/flame_render.mjs [--nodes N] [--binary build/hotlines] [--keep DIR]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../tests/browser/package.json'));
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
const arg = (name, def) => (args.includes(name) ? args[args.indexOf(name) + 1] : def);
const target = Number(arg('--nodes', '100000'));
const binary = arg('--binary', path.join(here, '../build/hotlines'));
const dir = arg('--keep', fs.mkdtempSync(path.join(os.tmpdir(), 'hotlines-flame-bench-')));
fs.mkdirSync(dir, { recursive: true });

// A deterministic random tree: each node gets 0-6 children named from a pool of JVM-like
// frames (distinct among siblings), depth up to 40; every leaf is one collapsed line.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pool = [];
for (let i = 0; i < 4000; i++) pool.push(`org/bench/p${i % 37}/Class${i % 211}.method${i}`);
const lines = [];
let nodes = 0;
function grow(prefix, depth) {
  const kids = depth >= 40 || nodes >= target ? 0 : Math.floor(rand() * (depth < 3 ? 6 : 4.2));
  if (kids === 0) {
    lines.push(`${prefix.join(';')} ${1 + Math.floor(rand() * 50)}`);
    return;
  }
  const used = new Set();
  for (let k = 0; k < kids && nodes < target; k++) {
    let name;
    do name = pool[Math.floor(rand() * pool.length)];
    while (used.has(name));
    used.add(name);
    nodes++;
    prefix.push(name);
    grow(prefix, depth + 1);
    prefix.pop();
  }
}
while (nodes < target) grow([], 0);
const collapsed = path.join(dir, 'synthetic.collapsed');
fs.writeFileSync(collapsed, lines.join('\n') + '\n');

const html = path.join(dir, 'synthetic.html');
let t0 = performance.now();
execFileSync(binary, ['flamegraph', collapsed, '-o', html, '--link', 'none'], { stdio: 'ignore' });
const exportMs = performance.now() - t0;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu-vsync'],
});
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
await page.goto(pathToFileURL(html).href);
await page.waitForFunction(() => window.hotlines?.app?.firstDraw, null, { timeout: 120000 });
const r = await page.evaluate(async () => {
  const app = window.hotlines.app, t = app.currentTree();
  const nav = performance.getEntriesByType('navigation')[0];
  const draws = [];
  for (let i = 0; i < 60; i++) draws.push(app.drawNow());
  draws.sort((a, b) => a - b);
  // Zoom into the widest top-level frame and back: layout + draw.
  const kids = t.children(0);
  let z0 = performance.now();
  app.zoomTo(kids[0]);
  app.drawNow();
  const zoomMs = performance.now() - z0;
  z0 = performance.now();
  app.zoomTo(0);
  app.drawNow();
  const unzoomMs = performance.now() - z0;
  return {
    nodes: t.size - 1,
    drawn: app.frames().length,
    domContentLoaded: nav.domContentLoadedEventEnd,
    firstDrawAt: app.firstDraw.at,
    firstDrawMs: app.firstDraw.ms,
    redrawMedian: draws[30],
    redrawP95: draws[57],
    zoomMs,
    unzoomMs,
  };
});
await browser.close();

const size = fs.statSync(html).size;
const f = (x) => x.toFixed(1).padStart(8);
console.log(`flame graph render bench (${dir})`);
console.log(`  tree nodes          ${String(r.nodes).padStart(8)}   (frames drawn at 1600 px: ${r.drawn})`);
console.log(`  page size           ${f(size / 1048576)} MB`);
console.log(`  export (hotlines)   ${f(exportMs)} ms`);
console.log(`  load → first frame  ${f(r.firstDrawAt)} ms   (DOMContentLoaded ${r.domContentLoaded.toFixed(1)} ms, first draw itself ${r.firstDrawMs.toFixed(1)} ms)`);
console.log(`  redraw (hover)      ${f(r.redrawMedian)} ms median, ${r.redrawP95.toFixed(1)} ms p95 (60 fps budget: 16.7 ms)`);
console.log(`  zoom in / out       ${f(r.zoomMs)} ms / ${r.unzoomMs.toFixed(1)} ms (layout + draw)`);
