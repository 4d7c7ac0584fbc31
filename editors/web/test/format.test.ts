// formatWeight against the server's rule (README "Units"): concrete values, and every case of
// tests/data/units.json, which the server's and Neovim's tests read too.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { formatWeight } from '../src/format';

test('bytes: binary units, 2 decimals, integers below 1 KiB', () => {
  assert.equal(formatWeight(2177226384, 'bytes'), '2.03 GiB');
  assert.equal(formatWeight(1536, 'bytes'), '1.50 KiB');
  assert.equal(formatWeight(999, 'bytes'), '999 B');
  assert.equal(formatWeight(1023, 'bytes'), '1023 B');
  assert.equal(formatWeight(3 * 2 ** 40, 'bytes'), '3.00 TiB');
  assert.equal(formatWeight(-1536, 'bytes'), '-1.50 KiB');
});

test('durations: ns, µs, ms, s with 2 decimals', () => {
  assert.equal(formatWeight(1500, 'nanoseconds'), '1.50 µs');
  assert.equal(formatWeight(1500, 'ns'), '1.50 µs');
  assert.equal(formatWeight(999, 'nanoseconds'), '999 ns');
  assert.equal(formatWeight(12500000, 'nanoseconds'), '12.50 ms');
  assert.equal(formatWeight(2180000000, 'nanoseconds'), '2.18 s');
});

test("ties round half away from zero like the server, not toFixed's way", () => {
  assert.equal(formatWeight(1152, 'bytes'), '1.13 KiB'); // 1.125 KiB exactly
  assert.equal(formatWeight(1005, 'nanoseconds'), '1.01 µs'); // (1.005).toFixed(2) is "1.00"
  assert.equal(formatWeight(1048575, 'bytes'), '1.00 MiB'); // not "1024.00 KiB"
});

test('samples keep thousands separators', () => {
  assert.equal(formatWeight(2530, 'samples'), '2,530 samples');
});

test('every case of tests/data/units.json', () => {
  const file = path.join(__dirname, '..', '..', '..', '..', 'tests', 'data', 'units.json');
  const cases = JSON.parse(fs.readFileSync(file, 'utf8')).cases as [string, number, string][];
  assert.ok(cases.length >= 20);
  for (const [unit, value, text] of cases) assert.equal(formatWeight(value, unit), text, `${value} ${unit}`);
});
