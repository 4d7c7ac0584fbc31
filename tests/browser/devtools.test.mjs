// A profile as Chrome DevTools saves it: the web-shop page (tests/fixtures/web-shop, copied to a
// temporary folder) opened in headless chromium, its script profiled through the DevTools
// protocol (Profiler.start / Profiler.stop: the object DevTools' JavaScript Profiler writes to
// a .cpuprofile file), then read by hotlines and by the independent oracle
// (tests/oracles/cpuprofile_lines.py, through tests/node/check_cpuprofile.py): every line of
// shop.js equal in samples and time, and the hottest line is discount's loop body, line 7.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { binary, fixtures, hotlines, launch, newPage, tempDir } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let browser, dir;

before(async () => {
  dir = tempDir('devtools');
  for (const f of ['index.html', 'shop.js']) fs.copyFileSync(path.join(fixtures, 'web-shop', f), path.join(dir, f));
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a DevTools CPU profile of a page reads as the oracle reads it, hot on the loop line', async () => {
  const { page, errors } = await newPage(browser);
  await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); // µs
  await cdp.send('Profiler.start');
  await page.evaluate(() => window.runShop(4000));
  const { profile } = await cdp.send('Profiler.stop');
  assert.deepEqual(errors, []);
  const file = path.join(dir, 'page.cpuprofile');
  fs.writeFileSync(file, JSON.stringify(profile));
  const shop = path.join(dir, 'shop.js');
  assert.ok(profile.nodes.some((n) => n.callFrame.url === pathToFileURL(shop).href), 'frames name shop.js by its file:// URL');
  assert.ok(profile.nodes.some((n) => (n.positionTicks || []).length > 0), 'DevTools records per-line ticks');

  assert.match(hotlines('info', file), /^format\s+cpuprofile/m);
  const check = path.join(here, '../node/check_cpuprofile.py');
  const out = execFileSync('python3', [check, binary, file, `${shop}:7`, shop], { encoding: 'utf8' });
  process.stdout.write(out);
  assert.match(out, /^1 passed, 0 failed$/m);
  const samples = Number(/^(\d+) samples/m.exec(out)?.[1]);
  assert.ok(samples >= 100, `the profile has samples (${samples})`);
});
