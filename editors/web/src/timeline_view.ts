// TimelineView: the samples over time as heat strips — one for all selected threads, one per
// thread (heaviest first) — drawn on a canvas; dragging across it brushes a window of whole
// buckets, a click without a drag clears it. Reports the window through onWindow.
// Main-thread only.
import type { Theme } from './colors';
import type { ThreadInfo } from './document';
import type { TimelineData } from './source';

const LABEL_WIDTH = 170;
const ALL_ROW = 20;
const ROW = 12;
const AXIS = 14;

export class TimelineView {
  readonly element: HTMLDivElement;
  readonly canvas: HTMLCanvasElement;
  onWindow: ((window: [number, number] | null) => void) | null = null;
  maxThreads = 16;

  private data: TimelineData | null = null;
  private threadInfo: ThreadInfo[] = [];
  private window: [number, number] | null = null;
  private drag: { start: number; end: number } | null = null;
  private theme: Theme;

  constructor(theme: Theme) {
    this.theme = theme;
    this.element = document.createElement('div');
    this.element.className = 'hl-timeline';
    this.canvas = document.createElement('canvas');
    this.element.appendChild(this.canvas);
    this.canvas.addEventListener('mousedown', (e) => {
      const b = this.bucketAt(e);
      if (b === null) return;
      this.drag = { start: b, end: b };
      e.preventDefault();
    });
    window.addEventListener('mousemove', (e) => {
      if (!this.drag) return;
      const b = this.bucketAt(e, true);
      if (b !== null) this.drag.end = b;
      this.draw();
    });
    window.addEventListener('mouseup', (e) => {
      if (!this.drag) return;
      const b = this.bucketAt(e, true);
      if (b !== null) this.drag.end = b;
      const { start, end } = this.drag;
      this.drag = null;
      this.setWindow(start === end ? null : [Math.min(start, end), Math.max(start, end) + 1], true);
    });
    new ResizeObserver(() => this.draw()).observe(this.element);
  }

  setData(data: TimelineData | null, threads: ThreadInfo[]): void {
    this.data = data;
    this.threadInfo = threads;
    this.element.hidden = data === null;
    this.draw();
  }
  setTheme(theme: Theme): void {
    this.theme = theme;
    this.draw();
  }
  get selection(): [number, number] | null {
    return this.window;
  }
  setWindow(w: [number, number] | null, notify = false): void {
    this.window = w;
    if (w && this.data) {
      this.element.dataset.fromNs = String(w[0] * this.data.bucket_ns);
      this.element.dataset.toNs = String(w[1] * this.data.bucket_ns);
    } else {
      delete this.element.dataset.fromNs;
      delete this.element.dataset.toNs;
    }
    this.draw();
    if (notify && this.onWindow) this.onWindow(w);
  }
  // The x of a bucket's left edge in viewport CSS pixels (for tests and hosts).
  bucketX(bucket: number): number {
    const r = this.canvas.getBoundingClientRect();
    return r.left + LABEL_WIDTH + (bucket / (this.data?.buckets ?? 1)) * this.plotWidth();
  }

  private plotWidth(): number {
    return Math.max(1, this.element.clientWidth - LABEL_WIDTH - 4);
  }

  private bucketAt(e: MouseEvent, clamp = false): number | null {
    if (!this.data) return null;
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left - LABEL_WIDTH;
    const n = this.data.buckets;
    let b = Math.floor((x / this.plotWidth()) * n);
    if (!clamp && (b < 0 || b >= n)) return null;
    b = Math.max(0, Math.min(n - 1, b));
    return b;
  }

  draw(): void {
    const d = this.data;
    if (!d) return;
    const rows = d.threads.slice(0, this.maxThreads);
    const width = Math.max(1, this.element.clientWidth);
    const height = AXIS + ALL_ROW + rows.length * ROW + (d.threads.length > rows.length ? ROW : 0) + 2;
    const dpr = window.devicePixelRatio || 1, c = this.canvas;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const th = this.theme, pw = this.plotWidth(), n = d.buckets, bw = pw / n;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = th.background;
    ctx.fillRect(0, 0, width, height);
    ctx.font = `11px ${th.font}`;
    ctx.textBaseline = 'middle';
    ctx.fillStyle = th.foreground;
    // Axis: seconds at up to 10 ticks.
    const seconds = (n * d.bucket_ns) / 1e9;
    const step = niceStep(seconds / 8);
    for (let s = 0; s <= seconds; s += step) {
      const x = LABEL_WIDTH + (s / seconds) * pw;
      ctx.fillText(`${+s.toFixed(3)}s`, x + 2, AXIS / 2);
      ctx.fillRect(x, 2, 1, AXIS - 4);
    }
    const strip = (y: number, h: number, weights: Float64Array, max: number, label: string) => {
      ctx.fillStyle = th.foreground;
      ctx.fillText(label.length > 24 ? label.slice(0, 23) + '…' : label, 4, y + h / 2);
      for (let b = 0; b < n; b++) {
        const v = weights[b];
        if (v <= 0) continue;
        const t = Math.sqrt(v / max);
        ctx.fillStyle = `hsla(${30 - 30 * t}, 90%, ${th.dark ? 30 + 30 * t : 75 - 30 * t}%, ${0.35 + 0.65 * t})`;
        ctx.fillRect(LABEL_WIDTH + b * bw, y, Math.max(1, bw - 0.5), h - 1);
      }
    };
    strip(AXIS, ALL_ROW, d.all, Math.max(1, ...d.all), 'all threads');
    let max = 1;
    for (const r of rows) for (const v of r.weights) if (v > max) max = v;
    rows.forEach((r, i) =>
      strip(AXIS + ALL_ROW + i * ROW, ROW, r.weights, max, this.threadInfo[r.thread]?.name || `thread ${r.thread}`));
    if (d.threads.length > rows.length) {
      ctx.fillStyle = th.foreground;
      ctx.fillText(`+${d.threads.length - rows.length} more threads`, 4, AXIS + ALL_ROW + rows.length * ROW + ROW / 2);
    }
    const sel = this.drag
      ? [Math.min(this.drag.start, this.drag.end), Math.max(this.drag.start, this.drag.end) + 1]
      : this.window;
    if (sel) {
      ctx.fillStyle = th.dark ? 'rgba(0,0,0,0.55)' : 'rgba(255,255,255,0.65)';
      ctx.fillRect(LABEL_WIDTH, AXIS, sel[0] * bw, height - AXIS);
      ctx.fillRect(LABEL_WIDTH + sel[1] * bw, AXIS, (n - sel[1]) * bw, height - AXIS);
      ctx.strokeStyle = th.highlight;
      ctx.lineWidth = 1;
      ctx.strokeRect(LABEL_WIDTH + sel[0] * bw + 0.5, AXIS + 0.5, (sel[1] - sel[0]) * bw - 1, height - AXIS - 1);
    }
  }
}

function niceStep(x: number): number {
  if (!(x > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}
