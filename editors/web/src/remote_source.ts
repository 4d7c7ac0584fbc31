// RemoteSource: a ProfileSource whose host answers the queries — over HTTP (a page served by
// the hotlines server: POST {method, params} to one URL) or postMessage (a webview: messages
// {type: 'query', id, method, params} answered by {type: 'answer', id, result | error}).
// Methods and answers are the ones in README.md ("Host interface"). Main-thread only.
import type { Baseline } from './document';
import { FlameTree } from './flame_tree';
import { parentChannel } from './host';
import type { Query } from './query';
import type { ProfileSource, SourceInfo, TimelineData } from './source';

export type Send = (method: string, params: unknown) => Promise<unknown>;

export function httpSend(url: string): Send {
  return async (method, params) => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method, params }),
    });
    if (!r.ok) throw new Error(`${method}: the server answered ${r.status}`);
    return r.json();
  };
}

export function messageSend(): Send {
  let next = 1;
  const pending = new Map<number, { resolve: (x: unknown) => void; reject: (e: Error) => void }>();
  window.addEventListener('message', (e: MessageEvent) => {
    const m = e.data as { type?: string; id?: number; result?: unknown; error?: string };
    if (m?.type !== 'answer' || typeof m.id !== 'number') return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error));
    else p.resolve(m.result);
  });
  return (method, params) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      parentChannel().postMessage({ type: 'query', id, method, params });
    });
}

// A flame tree as JSON: node 0 is the root; columns as in FlameTreeInit, snake_case.
export interface FlameTreeJson {
  unit: string;
  measure: 'count' | 'value';
  kinds: string[];
  functions: { name: string; file?: string; path?: string; why?: string }[];
  nodes: {
    parent: number[];
    fn: number[];
    kind: number[];
    line: number[];
    id: number[];
    self_count: number[];
    total_count: number[];
    self_value: number[];
    total_value: number[];
  };
}

export function flameTreeFromJson(j: FlameTreeJson): FlameTree {
  const n = j.nodes;
  return new FlameTree({
    functions: j.functions,
    kinds: j.kinds,
    unit: j.unit,
    measure: j.measure,
    parent: Int32Array.from(n.parent),
    fn: Int32Array.from(n.fn),
    kind: Uint8Array.from(n.kind),
    line: Int32Array.from(n.line),
    id: Float64Array.from(n.id),
    selfCount: Float64Array.from(n.self_count),
    totalCount: Float64Array.from(n.total_count),
    selfValue: Float64Array.from(n.self_value),
    totalValue: Float64Array.from(n.total_value),
  });
}

interface TimelineJson {
  buckets: number;
  bucket_ns: number;
  all: number[];
  threads: { thread: number; total: number; weights: number[] }[];
}

export class RemoteSource implements ProfileSource {
  constructor(private readonly send: Send) {}

  async info(): Promise<SourceInfo> {
    return (await this.send('info', {})) as SourceInfo;
  }
  async flame(query: Query): Promise<FlameTree> {
    return flameTreeFromJson((await this.send('flame', query)) as FlameTreeJson);
  }
  async timeline(query: Query): Promise<TimelineData | null> {
    const t = (await this.send('timeline', query)) as TimelineJson | null;
    if (!t) return null;
    return {
      buckets: t.buckets,
      bucket_ns: t.bucket_ns,
      all: Float64Array.from(t.all),
      threads: t.threads.map((x) => ({ thread: x.thread, total: x.total, weights: Float64Array.from(x.weights) })),
    };
  }
  async baseline(): Promise<Baseline | null> {
    return (await this.send('baseline', {})) as Baseline | null;
  }
}
