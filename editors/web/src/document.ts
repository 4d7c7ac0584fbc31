// The data document the C++ side produces (server/web/flame_document.cc; format in README.md):
// the profile's merged callee tree, functions, threads, events and aggregated sample rows.
// Plain data; checkDocument() validates the shape once at load.

export type Measure = 'count' | 'value';
export type LinkScheme = 'vscode' | 'file' | 'none';

export interface EventInfo {
  name: string;
  unit: string; // unit of value: samples, nanoseconds, bytes
  total_count: number;
  total_value: number;
  timed: boolean; // samples carry timestamps (JFR)
}

export interface ThreadInfo {
  name: string;
  tid?: number;
  java_tid?: number;
}

export type SourceStatus = 'resolved' | 'external' | 'unresolved';

export interface FunctionInfo {
  name: string;
  file?: string; // as recorded, or the JVM class's file (`org/acme/shop/Pricing.java`)
  status?: SourceStatus; // how the workspace resolution went
  path?: string; // absolute path on disk when resolved
  why?: string; // why there is no path (external code, or the unresolved reason)
}

export interface Baseline {
  title: string;
  event: string;
  measure: Measure;
  total: number;
  nodes: { id: number[]; self: number[]; total: number[] };
}

export interface FlameDocument {
  format: 'hotlines-flame';
  version: 1;
  title: string;
  profile: { format: string; producer: string; start_time_ns: number; duration_ns: number };
  events: EventInfo[];
  threads: ThreadInfo[];
  initial: { event: number; measure: Measure; threads: number[] };
  kinds: string[];
  functions: FunctionInfo[];
  nodes: { parent: number[]; fn: number[]; kind: number[]; line: number[]; id: number[] };
  rows: {
    event: number[];
    node: number[];
    thread: number[];
    bucket: number[];
    count: number[];
    value?: number[];
  };
  timeline: { bucket_ns: number; buckets: number } | null;
  link: { scheme: LinkScheme; roots: string[] };
  baseline?: Baseline;
}

function fail(what: string): never {
  throw new Error(`not a hotlines flame document: ${what}`);
}

function arrayOf(x: unknown, what: string, length?: number): number[] {
  if (!Array.isArray(x)) fail(`${what} is not an array`);
  if (length !== undefined && x.length !== length) fail(`${what} has ${x.length} entries, want ${length}`);
  return x as number[];
}

// Checks the parts every module relies on: column lengths and references in range.
export function checkDocument(x: unknown): FlameDocument {
  if (typeof x !== 'object' || x === null) fail('not an object');
  const d = x as FlameDocument;
  if (d.format !== 'hotlines-flame') fail(`format is ${String(d.format)}`);
  if (d.version !== 1) fail(`version ${String(d.version)} (this view reads 1)`);
  if (!Array.isArray(d.events) || d.events.length === 0) fail('no events');
  const n = arrayOf(d.nodes?.parent, 'nodes.parent').length;
  for (const c of ['fn', 'kind', 'line', 'id'] as const) arrayOf(d.nodes[c], `nodes.${c}`, n);
  d.nodes.parent.forEach((p, i) => {
    if (p >= i || p < -1) fail(`node ${i} has parent ${p}`);
  });
  const rows = arrayOf(d.rows?.event, 'rows.event').length;
  for (const c of ['node', 'thread', 'bucket', 'count'] as const) arrayOf(d.rows[c], `rows.${c}`, rows);
  if (d.rows.value !== undefined) arrayOf(d.rows.value, 'rows.value', rows);
  for (let i = 0; i < rows; i++) {
    if (d.rows.node[i] >= n || d.rows.node[i] < -1) fail(`row ${i} names node ${d.rows.node[i]}`);
    if (d.rows.event[i] >= d.events.length) fail(`row ${i} names event ${d.rows.event[i]}`);
    if (d.rows.thread[i] >= d.threads.length) fail(`row ${i} names thread ${d.rows.thread[i]}`);
    if (i > 0 && d.rows.event[i] < d.rows.event[i - 1]) fail('rows are not grouped by event');
  }
  for (let i = 0; i < n; i++)
    if (d.nodes.fn[i] >= d.functions.length) fail(`node ${i} names function ${d.nodes.fn[i]}`);
  return d;
}
