// Heat levels, the committed icons, and the after-line text.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { diffIconSvg, diffKind, formatDelta, formatPercent, hasHeat, heatIconSvg, heatLevel, lineLabel } from '../src/heat';
import type { LineAnnotation } from '../src/protocol';

const line = (self: number, total: number, heat: number, extra: Partial<LineAnnotation> = {}): LineAnnotation => ({
  line: 15, profiledLine: 15, stale: false, heat,
  self: { count: self, value: self * 10 }, total: { count: total, value: total * 10 }, ...extra,
});

test('heat levels: five, the hottest line (1.0) on the top one', () => {
  assert.equal(heatLevel(1), 4);
  assert.equal(heatLevel(0.8), 4);
  assert.equal(heatLevel(0.79), 3);
  assert.equal(heatLevel(0.58), 2);
  assert.equal(heatLevel(0.2), 1);
  assert.equal(heatLevel(0.19), 0);
  assert.equal(heatLevel(0), 0);
  assert.equal(heatLevel(Number.NaN), 0);
});

test('committed media/heat-N.svg are what heatIconSvg draws', () => {
  for (let level = 0; level < 5; level++) {
    const file = path.join(__dirname, '..', '..', 'media', `heat-${level}.svg`);
    assert.equal(fs.readFileSync(file, 'utf8'), heatIconSvg(level), `heat-${level}.svg is stale: run node out/test/heat.test.js --write`);
  }
  assert.notEqual(heatIconSvg(0), heatIconSvg(4));
});

test('diff mode: red up for slower, green down for faster, nothing under 0.05 points', () => {
  assert.equal(diffKind(line(1, 1, 0.1)), undefined, 'no baseline');
  assert.equal(diffKind(line(1, 1, 0.1, { delta: 0.05 })), 'slower');
  assert.equal(diffKind(line(1, 1, 0.1, { delta: 12.4 })), 'slower');
  assert.equal(diffKind(line(1, 1, 0.1, { delta: -0.05 })), 'faster');
  assert.equal(diffKind(line(1, 1, 0.1, { delta: 0.04 })), undefined);
  for (const kind of ['slower', 'faster'] as const) {
    const file = path.join(__dirname, '..', '..', 'media', `diff-${kind}.svg`);
    assert.equal(fs.readFileSync(file, 'utf8'), diffIconSvg(kind), `diff-${kind}.svg is stale: run node out/test/heat.test.js --write`);
  }
  assert.match(diffIconSvg('slower'), /#e15759/);
  assert.match(diffIconSvg('faster'), /#59a14f/);
});

test('percent formatting as the server prints it', () => {
  assert.equal(formatPercent(105, 2530), '4.2%');
  assert.equal(formatPercent(182, 2530), '7.2%');
  assert.equal(formatPercent(1, 10000), '<0.1%');
  assert.equal(formatPercent(0, 10), '0.0%');
  assert.equal(formatPercent(3, 0), '0%');
  assert.equal(formatDelta(0.5), '+0.5%');
  assert.equal(formatDelta(-12.44), '-12.4%');
});

test('after-line text: self, total-only, threshold, measure, baseline', () => {
  const total = { count: 2530, value: 25300 };
  assert.equal(lineLabel(line(105, 650, 0.58), total, 'cpu', 'value', 1), '4.2% cpu');
  assert.equal(lineLabel(line(105, 650, 0.58), total, 'cpu', 'count', 1), '4.2% cpu');
  assert.equal(lineLabel(line(2, 521, 0.01), total, 'cpu', 'value', 1), '↳ 20.6% cpu total');
  assert.equal(lineLabel(line(2, 3, 0.01), total, 'cpu', 'value', 1), '');
  assert.equal(lineLabel(line(2, 3, 0.01), total, 'cpu', 'value', 0), '0.1% cpu');
  assert.equal(lineLabel(line(105, 650, 0.5, { delta: 0.5 }), total, 'cpu', 'value', 1), '+0.5% cpu vs baseline');
  assert.equal(lineLabel(line(105, 650, 0.5), { count: 0, value: 0 }, 'cpu', 'value', 1), '');
});

test('lines with heat', () => {
  assert.equal(hasHeat(line(1, 1, 0.1)), true);
  assert.equal(hasHeat(line(0, 5, 0)), false);
  assert.equal(hasHeat(line(0, 5, 0, { delta: -1 })), true);
});

if (process.argv.includes('--write')) {
  for (let level = 0; level < 5; level++) fs.writeFileSync(path.join(__dirname, '..', '..', 'media', `heat-${level}.svg`), heatIconSvg(level));
  for (const kind of ['slower', 'faster'] as const) fs.writeFileSync(path.join(__dirname, '..', '..', 'media', `diff-${kind}.svg`), diffIconSvg(kind));
}
