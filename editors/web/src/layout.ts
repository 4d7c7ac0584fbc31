// Layout of a flame tree zoomed on one node: the zoomed node spans the full width, its
// ancestors too (drawn as the breadcrumb rows below it), its subtree in proportion to weight;
// frames narrower than `minFraction` of the width are culled with their subtrees (they would
// be under half a pixel). Rows list each depth's frames in x order for hit testing.
// Pure function.
import type { FlameTree } from './flame_tree';

export interface Layout {
  count: number;
  node: Int32Array;
  x: Float64Array; // 0..1
  w: Float64Array; // 0..1
  depth: Int32Array;
  maxDepth: number;
  rows: number[][]; // per depth: layout indices, x ascending
}

export function layoutTree(tree: FlameTree, zoom: number, minFraction: number): Layout {
  const weights = tree.weights();
  const cap = Math.max(16, tree.size);
  const node = new Int32Array(cap), depth = new Int32Array(cap);
  const x = new Float64Array(cap), w = new Float64Array(cap);
  let count = 0, maxDepth = 0;
  const emit = (n: number, nx: number, nw: number) => {
    node[count] = n;
    x[count] = nx;
    w[count] = nw;
    depth[count] = tree.depth[n];
    if (tree.depth[n] > maxDepth) maxDepth = tree.depth[n];
    count++;
  };
  const path = tree.path(zoom);
  for (let i = 0; i < path.length - 1; i++) emit(path[i], 0, 1);
  const scale = weights[zoom] > 0 ? 1 / weights[zoom] : 0;
  const stackNode: number[] = [zoom], stackX: number[] = [0];
  while (stackNode.length > 0) {
    const n = stackNode.pop()!, nx = stackX.pop()!;
    const nw = n === zoom ? 1 : weights[n] * scale;
    emit(n, nx, nw);
    const kids = tree.children(n);
    // Push right to left so that the leftmost child is visited first (preorder, x ascending).
    let cx = nx;
    const xs: number[] = [];
    let last = 0;
    for (let k = 0; k < kids.length; k++) {
      const kw = weights[kids[k]] * scale;
      if (kw < minFraction) break; // sorted by weight: the rest are narrower
      xs.push(cx);
      cx += kw;
      last = k + 1;
    }
    for (let k = last - 1; k >= 0; k--) {
      stackNode.push(kids[k]);
      stackX.push(xs[k]);
    }
  }
  const rows: number[][] = [];
  for (let d = 0; d <= maxDepth; d++) rows.push([]);
  for (let i = 0; i < count; i++) rows[depth[i]].push(i);
  return { count, node, x, w, depth, maxDepth, rows };
}

// The layout index at (fraction of width, depth), or -1.
export function hitTest(l: Layout, fx: number, d: number): number {
  if (d < 0 || d >= l.rows.length) return -1;
  const row = l.rows[d];
  let lo = 0, hi = row.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1, i = row[mid];
    if (fx < l.x[i]) hi = mid - 1;
    else if (fx >= l.x[i] + l.w[i]) lo = mid + 1;
    else return i;
  }
  return -1;
}
