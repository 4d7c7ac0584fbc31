// The speedscope export (`hotlines convert IN OUT.speedscope.json`) loaded into the real
// speedscope app (npm package `speedscope`, its built files) in headless chromium: the
// profile it opens, and every function row its Sandwich table shows (name, total, self), must
// equal the query engine's numbers for that thread (`hotlines hot -t TID --json`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fixture, hotlines, hotlinesJson, launch, newPage, screenshot, tempDir } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const app = pathToFileURL(path.join(here, 'node_modules/speedscope/dist/release/index.html')).href;
let browser, dir;

before(async () => {
  dir = tempDir('speedscope');
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// Loads a file into speedscope through its file input; returns the page.
async function load(file) {
  const { page, errors } = await newPage(browser);
  await page.goto(app);
  await page.setInputFiles('input[type=file]', file);
  await page.getByText('Sandwich').click();
  // The Sandwich table's rows start with "total (percent)" cells.
  await page.waitForFunction(() => [...document.querySelectorAll('tr td')].some((td) => /^[\d,.]+( [KMG]?B)? \(/.test(td.textContent)));
  assert.deepEqual(errors.filter((e) => !/GL Driver|WebGL/.test(e)), []);
  return page;
}

// The Sandwich table's visible rows: [name, total, self] (speedscope prints plain numbers for
// unit "none", "1.23 MB" for bytes).
function sandwichRows(page) {
  return page.$$eval('tr', (rows) =>
    rows
      .map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent.trim()))
      .filter((c) => c.length === 3 && /^[\d,.]+ \(/.test(c[0]))
      .map(([total, self, name]) => [name, Number(total.split(' ')[0].replace(/,/g, '')), Number(self.split(' ')[0].replace(/,/g, ''))]),
  );
}

test('speedscope opens the cpu export on its heaviest thread with the engine numbers', async () => {
  const profile = fixture('ap-cpu.jfr');
  const out = path.join(dir, 'cpu.speedscope.json');
  hotlines('convert', profile, out);
  const file = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(file.$schema, 'https://www.speedscope.app/file-format-schema.json');
  // One sampled profile per thread; their weights add up to the event's total.
  const engine = hotlinesJson('hot', profile);
  assert.equal(file.profiles.reduce((s, p) => s + p.endValue, 0), engine.view.total);
  for (const p of file.profiles) assert.equal(p.weights.reduce((a, b) => a + b, 0), p.endValue);

  const page = await load(out);
  const title = file.profiles[file.activeProfileIndex].name;
  assert.ok(await page.getByText(title, { exact: false }).first().isVisible(), `speedscope shows ${title}`);
  const tid = /\(tid (\d+)\)/.exec(title)[1];
  const thread = hotlinesJson('hot', profile, '-t', tid, '--top', '100000');
  assert.equal(file.profiles[file.activeProfileIndex].endValue, thread.view.total);
  const byName = new Map(thread.functions.map((f) => [f.name, f]));
  const rows = await sandwichRows(page);
  assert.ok(rows.length >= 10, `speedscope shows ${rows.length} rows`);
  for (const [name, total, self] of rows) {
    const f = byName.get(name);
    assert.ok(f, `speedscope shows ${name}, which the engine does not have on thread ${tid}`);
    assert.deepEqual([total, self], [f.total, f.self], name);
  }
  // The top row is the engine's hottest function by self.
  assert.equal(rows[0][0], thread.functions[0].name);
  await screenshot(page, 'speedscope-cpu-sandwich');
  await page.context().close();
});

test('speedscope shows allocation bytes of the alloc event as the engine sums them', async () => {
  const profile = fixture('ap-multi.jfr');
  const out = path.join(dir, 'alloc.speedscope.json');
  hotlines('convert', profile, out, '--event', 'alloc');
  const file = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.ok(file.profiles.every((p) => p.unit === 'bytes' && p.name.startsWith('alloc: ')));
  const engine = hotlinesJson('hot', profile, '-e', 'alloc');
  assert.equal(file.profiles.reduce((s, p) => s + p.endValue, 0), engine.view.total);
  const page = await load(out);
  const title = file.profiles[file.activeProfileIndex].name;
  const tid = /\(tid (\d+)\)/.exec(title)[1];
  const thread = hotlinesJson('hot', profile, '-e', 'alloc', '-t', tid, '--top', '100000');
  // speedscope formats bytes ("1.23 GB"); compare the names and the order by self.
  const names = await page.$$eval('tr', (rows) =>
    rows.map((r) => [...r.querySelectorAll('td')]).filter((c) => c.length === 3 && / B \(|[KMG]B \(/.test(c[1].textContent)).map((c) => c[2].textContent.trim()));
  assert.ok(names.length >= 3);
  assert.deepEqual(names.slice(0, 3), thread.functions.slice(0, 3).map((f) => f.name));
  await screenshot(page, 'speedscope-alloc');
  await page.context().close();
});
