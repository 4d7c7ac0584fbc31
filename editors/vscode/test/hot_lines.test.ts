// The Hot Lines view's aggregation over a line-level tree.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hotLines } from '../src/hot_lines';
import type { TreeNode, TreeResult } from '../src/protocol';

const node = (name: string, file: string | undefined, line: number, self: number, uri?: string): TreeNode => ({
  id: 0, parent: null, depth: 0, name, kind: 'jit', frame: 0, file, line, uri,
  self: { count: self, value: self * 2 }, total: { count: self, value: self * 2 },
});

test('sums a line over call paths, skips lines without file or self, hottest first', () => {
  const tree: TreeResult = {
    event: 'cpu', unit: 'samples', total: { count: 100, value: 200 },
    nodes: [
      node('Pricing.discount', 'org/acme/shop/Pricing.java', 15, 4, 'file:///w/Pricing.java'),
      node('Pricing.cached', 'org/acme/shop/Pricing.java', 32, 7),
      node('Pricing.discount', 'org/acme/shop/Pricing.java', 15, 5),
      node('libmSin', undefined, 0, 30),
      node('Main.main', 'org/acme/shop/Main.java', 23, 0),
    ],
  };
  const r = hotLines(tree, 'count', 10);
  assert.deepEqual(r.map((h) => [h.file, h.line, h.self]), [
    ['org/acme/shop/Pricing.java', 15, 9],
    ['org/acme/shop/Pricing.java', 32, 7],
  ]);
  assert.equal(r[0].uri, 'file:///w/Pricing.java');
  assert.equal(hotLines(tree, 'value', 1)[0].self, 18);
});
