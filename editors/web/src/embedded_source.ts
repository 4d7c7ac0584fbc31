// EmbeddedSource: answers every query from the data document in the page (the HTML export):
// one pass over the event's aggregated sample rows sums self weights per node, one reverse
// pass adds totals up the tree. Single-threaded (the page's main thread).
import type { Baseline, FlameDocument } from './document';
import { FlameTree } from './flame_tree';
import type { Query } from './query';
import type { ProfileSource, SourceInfo, TimelineData } from './source';

export class EmbeddedSource implements ProfileSource {
  private readonly doc: FlameDocument;
  private readonly eventStart: Int32Array; // rows of event e: [eventStart[e], eventStart[e + 1])
  private readonly parent: Int32Array; // with the root: node i of the document is i + 1
  private readonly fn: Int32Array;
  private readonly kind: Uint8Array;
  private readonly line: Int32Array;
  private readonly id: Float64Array;

  constructor(doc: FlameDocument) {
    this.doc = doc;
    const e = doc.events.length;
    this.eventStart = new Int32Array(e + 1);
    const rowEvent = doc.rows.event;
    for (let i = 0; i < rowEvent.length; i++) this.eventStart[rowEvent[i] + 1]++;
    for (let i = 0; i < e; i++) this.eventStart[i + 1] += this.eventStart[i];
    const n = doc.nodes.parent.length + 1;
    this.parent = new Int32Array(n);
    this.fn = new Int32Array(n);
    this.kind = new Uint8Array(n);
    this.line = new Int32Array(n);
    this.id = new Float64Array(n);
    this.parent[0] = -1;
    this.fn[0] = -1;
    for (let i = 1; i < n; i++) {
      this.parent[i] = doc.nodes.parent[i - 1] + 1;
      this.fn[i] = doc.nodes.fn[i - 1];
      this.kind[i] = doc.nodes.kind[i - 1];
      this.line[i] = doc.nodes.line[i - 1];
      this.id[i] = doc.nodes.id[i - 1];
    }
  }

  async info(): Promise<SourceInfo> {
    const d = this.doc;
    return {
      title: d.title,
      format: d.profile.format,
      producer: d.profile.producer,
      events: d.events,
      threads: d.threads,
      initial: d.initial,
      timeline: d.timeline,
      link: d.link,
      baseline: d.baseline ? { title: d.baseline.title, event: d.baseline.event } : null,
    };
  }

  async flame(q: Query): Promise<FlameTree> {
    return this.flameSync(q);
  }

  flameSync(q: Query): FlameTree {
    const d = this.doc, rows = d.rows, n = this.parent.length;
    const selfCount = new Float64Array(n), selfValue = new Float64Array(n);
    const threadOk = this.threadFilter(q);
    const values = rows.value ?? rows.count;
    let allCount = 0, allValue = 0;
    const [b0, b1] = q.window ?? [-Infinity, Infinity];
    for (let r = this.eventStart[q.event], end = this.eventStart[q.event + 1]; r < end; r++) {
      if (threadOk && !threadOk[rows.thread[r]]) continue;
      const b = rows.bucket[r];
      if (b < b0 || b >= b1) continue;
      const c = rows.count[r], v = values[r];
      allCount += c;
      allValue += v;
      const node = rows.node[r] + 1; // 0: an empty stack, counted at the root
      selfCount[node] += c;
      selfValue[node] += v;
    }
    const totalCount = selfCount.slice(), totalValue = selfValue.slice();
    for (let i = n - 1; i > 0; i--) {
      totalCount[this.parent[i]] += totalCount[i];
      totalValue[this.parent[i]] += totalValue[i];
    }
    totalCount[0] = allCount;
    totalValue[0] = allValue;
    return new FlameTree({
      functions: d.functions,
      kinds: d.kinds,
      unit: d.events[q.event].unit,
      measure: q.measure,
      parent: this.parent,
      fn: this.fn,
      kind: this.kind,
      line: this.line,
      id: this.id,
      selfCount,
      totalCount,
      selfValue,
      totalValue,
    });
  }

  async timeline(q: Query): Promise<TimelineData | null> {
    const d = this.doc, rows = d.rows;
    if (!d.timeline || !d.events[q.event].timed) return null;
    const nb = d.timeline.buckets, nt = d.threads.length;
    const threadOk = this.threadFilter(q);
    const values = q.measure === 'count' ? rows.count : rows.value ?? rows.count;
    const per = new Map<number, Float64Array>();
    const all = new Float64Array(nb);
    for (let r = this.eventStart[q.event], end = this.eventStart[q.event + 1]; r < end; r++) {
      const t = rows.thread[r];
      if (threadOk && !threadOk[t]) continue;
      let w = per.get(t);
      if (!w) per.set(t, (w = new Float64Array(nb)));
      w[rows.bucket[r]] += values[r];
      all[rows.bucket[r]] += values[r];
    }
    const threads = [...per.entries()]
      .filter(([t]) => t < nt)
      .map(([thread, weights]) => ({ thread, weights, total: weights.reduce((a, b) => a + b, 0) }))
      .sort((a, b) => b.total - a.total || a.thread - b.thread);
    return { buckets: nb, bucket_ns: d.timeline.bucket_ns, all, threads };
  }

  async baseline(): Promise<Baseline | null> {
    return this.doc.baseline ?? null;
  }

  private threadFilter(q: Query): Uint8Array | null {
    if (!q.threads) return null;
    const ok = new Uint8Array(this.doc.threads.length);
    for (const t of q.threads) ok[t] = 1;
    return ok;
  }
}
