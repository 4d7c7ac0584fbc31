// The Hot Lines view's data: self weight summed per recorded (file, line) over the nodes of a
// line-level hotlines/flameGraph (a line appears once per call path), hottest first. Pure.
import { measureOf } from './heat';
import type * as P from './protocol';

export interface HotLine {
  name: string;
  file: string;
  line: number;
  uri?: string;
  self: number;
}

// Self weight summed per (file, line) over a line-level tree; hottest first.
export function hotLines(tree: P.TreeResult, measure: 'count' | 'value', limit: number): HotLine[] {
  const by = new Map<string, HotLine>();
  for (const n of tree.nodes) {
    const self = measureOf(n.self, measure);
    if (!self || !n.file || !n.line) continue;
    const key = `${n.file}:${n.line}`;
    const h = by.get(key) ?? { name: n.name, file: n.file, line: n.line, uri: n.uri, self: 0 };
    h.self += self;
    by.set(key, h);
  }
  return [...by.values()].sort((a, b) => b.self - a.self || a.file.localeCompare(b.file) || a.line - b.line).slice(0, limit);
}
