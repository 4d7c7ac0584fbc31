// Diff against a baseline: per node, the change of its total share of the view (this tree's
// percent minus the baseline's, matched by stable node id), scaled to [-1, 1] by the largest
// change; nodes absent from the baseline count as grown from zero. Pure functions.
import type { Baseline } from './document';
import type { FlameTree } from './flame_tree';

export interface DiffResult {
  scaled: Float64Array; // per node, -1..1
  deltaPct: Float64Array; // per node, percentage points
  basePct: Float64Array; // per node, -1 when absent from the baseline
}

export function diffAgainst(tree: FlameTree, base: Baseline): DiffResult {
  const share = new Map<number, number>();
  base.nodes.id.forEach((id, i) => share.set(id, base.total > 0 ? (100 * base.nodes.total[i]) / base.total : 0));
  const n = tree.size, w = tree.weights(), total = tree.total;
  const scaled = new Float64Array(n), deltaPct = new Float64Array(n), basePct = new Float64Array(n);
  let max = 0;
  for (let i = 1; i < n; i++) {
    const now = total > 0 ? (100 * w[i]) / total : 0;
    const before = share.get(tree.id[i]);
    basePct[i] = before ?? -1;
    deltaPct[i] = now - (before ?? 0);
    if (w[i] > 0 && Math.abs(deltaPct[i]) > max) max = Math.abs(deltaPct[i]);
  }
  for (let i = 1; i < n; i++) scaled[i] = max > 0 ? deltaPct[i] / max : 0;
  return { scaled, deltaPct, basePct };
}
