// Sandwich: the callers and the callees of one function as two trees rooted at it. Both start
// from the function's outermost occurrences on each path (so recursion counts once, and the
// root's total equals the function's total); callees merge those subtrees by function path,
// callers merge the paths above them. Pure functions of a FlameTree.
import { FlameTree } from './flame_tree';

class Builder {
  parent: number[] = [-1];
  fn: number[];
  kind: number[] = [0];
  line: number[] = [0];
  best: number[] = [0];
  selfCount: number[] = [0];
  totalCount: number[] = [0];
  selfValue: number[] = [0];
  totalValue: number[] = [0];
  private index = new Map<string, number>();

  constructor(rootFn: number) {
    this.fn = [rootFn];
  }
  child(parent: number, fn: number): number {
    const key = parent + ':' + fn;
    let c = this.index.get(key);
    if (c === undefined) {
      c = this.parent.length;
      this.index.set(key, c);
      this.parent.push(parent);
      this.fn.push(fn);
      for (const a of [this.kind, this.line, this.best, this.selfCount, this.totalCount, this.selfValue, this.totalValue]) a.push(0);
    }
    return c;
  }
  // The frame kind and line of the heaviest source node merged into r.
  offer(r: number, tree: FlameTree, node: number, weight: number): void {
    if (weight > this.best[r]) {
      this.best[r] = weight;
      this.kind[r] = tree.kind[node];
      this.line[r] = tree.line[node];
    }
  }
  build(tree: FlameTree): FlameTree {
    return new FlameTree({
      functions: tree.functions,
      kinds: tree.kinds,
      unit: tree.unit,
      measure: tree.measure,
      parent: Int32Array.from(this.parent),
      fn: Int32Array.from(this.fn),
      kind: Uint8Array.from(this.kind),
      line: Int32Array.from(this.line),
      id: new Float64Array(this.parent.length),
      selfCount: Float64Array.from(this.selfCount),
      totalCount: Float64Array.from(this.totalCount),
      selfValue: Float64Array.from(this.selfValue),
      totalValue: Float64Array.from(this.totalValue),
    });
  }
}

// Outermost occurrences of fn (nodes with weight whose ancestors are not fn).
export function outermost(tree: FlameTree, fn: number): number[] {
  const onPath = new Uint8Array(tree.size), out: number[] = [];
  const w = tree.weights();
  for (let i = 1; i < tree.size; i++) {
    const self = tree.fn[i] === fn, above = onPath[tree.parent[i]] === 1;
    onPath[i] = self || above ? 1 : 0;
    if (self && !above && w[i] > 0) out.push(i);
  }
  return out;
}

export function calleesOf(tree: FlameTree, fn: number): FlameTree {
  const b = new Builder(fn);
  const w = tree.weights();
  for (const top of outermost(tree, fn)) {
    const stack: [number, number][] = [[top, 0]];
    while (stack.length > 0) {
      const [node, r] = stack.pop()!;
      b.selfCount[r] += tree.selfCount[node];
      b.totalCount[r] += tree.totalCount[node];
      b.selfValue[r] += tree.selfValue[node];
      b.totalValue[r] += tree.totalValue[node];
      b.offer(r, tree, node, w[node]);
      for (const c of tree.children(node)) stack.push([c, b.child(r, tree.fn[c])]);
    }
  }
  return b.build(tree);
}

export function callersOf(tree: FlameTree, fn: number): FlameTree {
  const b = new Builder(fn);
  const w = tree.weights();
  for (let i = 1; i < tree.size; i++)
    if (tree.fn[i] === fn) {
      b.selfCount[0] += tree.selfCount[i];
      b.selfValue[0] += tree.selfValue[i];
    }
  for (const top of outermost(tree, fn)) {
    const c = tree.totalCount[top], v = tree.totalValue[top];
    b.totalCount[0] += c;
    b.totalValue[0] += v;
    b.offer(0, tree, top, w[top]);
    let r = 0;
    for (let a = tree.parent[top]; a > 0; a = tree.parent[a]) {
      r = b.child(r, tree.fn[a]);
      b.totalCount[r] += c;
      b.totalValue[r] += v;
      b.offer(r, tree, a, w[top]);
    }
  }
  return b.build(tree);
}
