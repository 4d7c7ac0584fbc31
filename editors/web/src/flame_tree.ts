// FlameTree: one query's flame graph — a synthetic root (node 0, "all") above the merged
// callee tree, with self/total counts and values per node and children sorted by weight
// (then name). Whatever computes it (the embedded document, or a host answering queries),
// the view draws only this. Immutable after construction.
import type { FunctionInfo, Measure } from './document';

export interface FlameTreeInit {
  functions: FunctionInfo[];
  kinds: string[];
  unit: string; // unit of value
  measure: Measure;
  parent: Int32Array; // parent[0] = -1; parent[i] < i
  fn: Int32Array; // fn[0] = -1 ("all"), or the function the tree is about
  kind: Uint8Array;
  line: Int32Array;
  id: Float64Array; // stable ids (the engine's), 0 for the root
  selfCount: Float64Array;
  totalCount: Float64Array; // totalCount[0] = the view's total count (empty stacks included)
  selfValue: Float64Array;
  totalValue: Float64Array;
}

export class FlameTree {
  readonly functions: FunctionInfo[];
  readonly kinds: string[];
  readonly unit: string;
  readonly measure: Measure;
  readonly parent: Int32Array;
  readonly fn: Int32Array;
  readonly kind: Uint8Array;
  readonly line: Int32Array;
  readonly id: Float64Array;
  readonly selfCount: Float64Array;
  readonly totalCount: Float64Array;
  readonly selfValue: Float64Array;
  readonly totalValue: Float64Array;
  readonly depth: Int32Array;
  maxDepth = 0; // of nodes with weight
  // Children with weight, heaviest first: childList[childStart[i] .. childStart[i + 1]).
  readonly childStart: Int32Array;
  readonly childList: Int32Array;

  constructor(init: FlameTreeInit) {
    this.functions = init.functions;
    this.kinds = init.kinds;
    this.unit = init.unit;
    this.measure = init.measure;
    this.parent = init.parent;
    this.fn = init.fn;
    this.kind = init.kind;
    this.line = init.line;
    this.id = init.id;
    this.selfCount = init.selfCount;
    this.totalCount = init.totalCount;
    this.selfValue = init.selfValue;
    this.totalValue = init.totalValue;
    const n = this.parent.length;
    this.depth = new Int32Array(n);
    const w = this.weights();
    const count = new Int32Array(n + 1);
    for (let i = 1; i < n; i++) {
      this.depth[i] = this.depth[this.parent[i]] + 1;
      if (w[i] > 0) {
        count[this.parent[i] + 1]++;
        if (this.depth[i] > this.maxDepth) this.maxDepth = this.depth[i];
      }
    }
    this.childStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.childStart[i + 1] = this.childStart[i] + count[i + 1];
    this.childList = new Int32Array(this.childStart[n]);
    const fill = this.childStart.slice(0, n);
    for (let i = 1; i < n; i++) if (w[i] > 0) this.childList[fill[this.parent[i]]++] = i;
    const rank = nameRanks(this.functions);
    const byWeight = (a: number, b: number) => w[b] - w[a] || rank[this.fn[a]] - rank[this.fn[b]];
    for (let i = 0; i < n; i++) {
      const s = this.childStart[i], e = this.childStart[i + 1];
      if (e - s > 1) this.childList.subarray(s, e).sort(byWeight);
    }
  }

  get size(): number {
    return this.parent.length;
  }
  // Widths: the measure's totals.
  weights(): Float64Array {
    return this.measure === 'count' ? this.totalCount : this.totalValue;
  }
  selfWeights(): Float64Array {
    return this.measure === 'count' ? this.selfCount : this.selfValue;
  }
  get total(): number {
    return this.weights()[0];
  }
  weightUnit(): string {
    return this.measure === 'count' ? 'samples' : this.unit;
  }
  // The root is "all", unless it stands for a function (the sandwich's trees).
  name(node: number): string {
    const f = this.fn[node];
    return f < 0 ? 'all' : this.functions[f].name;
  }
  kindName(node: number): string {
    return this.fn[node] < 0 ? '' : this.kinds[this.kind[node]] ?? 'unknown';
  }
  children(node: number): Int32Array {
    return this.childList.subarray(this.childStart[node], this.childStart[node + 1]);
  }
  // Root first.
  path(node: number): number[] {
    const out: number[] = [];
    for (let x = node; x >= 0; x = this.parent[x]) out.push(x);
    return out.reverse();
  }
  // The node with this stable id, or -1.
  findId(id: number): number {
    if (id === 0) return 0;
    for (let i = 1; i < this.size; i++) if (this.id[i] === id && this.weights()[i] > 0) return i;
    return -1;
  }
}

// Rank of every function's name in sorted order (ties order by weight, then name).
function nameRanks(functions: FunctionInfo[]): Int32Array {
  const order = functions.map((_, i) => i);
  order.sort((a, b) => (functions[a].name < functions[b].name ? -1 : functions[a].name > functions[b].name ? 1 : a - b));
  const rank = new Int32Array(functions.length + 1);
  order.forEach((f, r) => (rank[f] = r));
  return rank;
}
