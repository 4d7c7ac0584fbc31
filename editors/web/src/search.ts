// Search: which functions a user's text names, which nodes to keep bright, and the matched
// share — the weight of samples with a matching frame anywhere in the stack, counted once
// per sample, i.e. the sum of the totals of the outermost matching nodes (the engine's
// total for a function). Text is a case-insensitive substring, or a regex between slashes.
// Pure functions.
import type { FlameTree } from './flame_tree';

export interface SearchResult {
  text: string;
  functions: Uint8Array; // per function: the name matches
  bright: Uint8Array; // per node: matches, or lies under / above a match (its path matches)
  matched: number; // weight in the tree's measure
  matchedCount: number;
  matchedValue: number;
  percent: number; // of the tree's total
}

export function compileSearch(text: string): ((name: string) => boolean) | null {
  const t = text.trim();
  if (!t) return null;
  const re = /^\/(.+)\/([a-z]*)$/.exec(t);
  if (re) {
    try {
      const r = new RegExp(re[1], re[2].includes('i') ? re[2] : re[2] + 'i');
      return (name) => r.test(name);
    } catch {
      return () => false;
    }
  }
  const lower = t.toLowerCase();
  return (name) => name.toLowerCase().includes(lower);
}

export function search(tree: FlameTree, text: string): SearchResult | null {
  const test = compileSearch(text);
  if (!test) return null;
  const functions = new Uint8Array(tree.functions.length);
  tree.functions.forEach((f, i) => (functions[i] = test(f.name) ? 1 : 0));
  const n = tree.size;
  const onPath = new Uint8Array(n); // some node from the root to here matches
  const bright = new Uint8Array(n);
  const w = tree.weights();
  let matchedCount = 0, matchedValue = 0;
  for (let i = 1; i < n; i++) {
    const self = functions[tree.fn[i]] === 1;
    const above = onPath[tree.parent[i]] === 1;
    onPath[i] = self || above ? 1 : 0;
    if (self && !above) {
      matchedCount += tree.totalCount[i];
      matchedValue += tree.totalValue[i];
    }
  }
  // Bright: on a matching path, or an ancestor of a match (so the way to it stays visible).
  for (let i = n - 1; i > 0; i--) {
    if (onPath[i] && w[i] > 0) {
      bright[i] = 1;
      if (functions[tree.fn[i]]) for (let p = tree.parent[i]; p > 0 && !bright[p]; p = tree.parent[p]) bright[p] = 2;
    }
  }
  const matched = tree.measure === 'count' ? matchedCount : matchedValue;
  return {
    text,
    functions,
    bright,
    matched,
    matchedCount,
    matchedValue,
    percent: tree.total > 0 ? (100 * matched) / tree.total : 0,
  };
}
