// FlameCanvas: draws a FlameTree on a <canvas> — as a flame graph (root at the bottom) or an
// icicle (root on top) — zoomed on one node, with search dimming, hover and selection
// outlines; reports hover, click and double-click by node. Redraws are batched per animation
// frame and draw only the frames the layout kept (wider than half a pixel), so large trees
// stay interactive. Main-thread only.
import type { Theme } from './colors';
import type { FlameTree } from './flame_tree';
import { hitTest, type Layout, layoutTree } from './layout';

export type Orientation = 'flame' | 'icicle';

export interface FrameBox {
  node: number;
  name: string;
  x: number; // CSS pixels, relative to the viewport
  y: number;
  width: number;
  height: number;
}

export class FlameCanvas {
  readonly element: HTMLDivElement;
  readonly canvas: HTMLCanvasElement;
  orientation: Orientation;
  onHover: ((node: number, event: MouseEvent) => void) | null = null;
  onClick: ((node: number, event: MouseEvent) => void) | null = null;
  onDoubleClick: ((node: number, event: MouseEvent) => void) | null = null;
  onRendered: ((ms: number) => void) | null = null;

  private tree: FlameTree | null = null;
  private zoomNode = 0;
  private layout: Layout | null = null;
  private layoutWidth = 0;
  private colors: string[] = [];
  private match: Uint8Array | null = null;
  private hovered = -1;
  private selected = -1;
  private theme: Theme;
  private readonly rowHeight: number;
  private frameRequested = false;
  private charWidth = 7;
  private height = 0; // CSS pixels: the tree's rows, at least the scroll container's height
  private scrollToRoot = true;

  constructor(orientation: Orientation, theme: Theme, rowHeight = 18) {
    this.orientation = orientation;
    this.theme = theme;
    this.rowHeight = rowHeight;
    this.element = document.createElement('div');
    this.element.className = 'hl-flame';
    this.canvas = document.createElement('canvas');
    this.element.appendChild(this.canvas);
    this.canvas.addEventListener('mousemove', (e) => this.move(e));
    this.canvas.addEventListener('mouseleave', (e) => {
      this.setHovered(-1);
      if (this.onHover) this.onHover(-1, e);
    });
    this.canvas.addEventListener('click', (e) => {
      const n = this.nodeAt(e);
      if (n >= 0 && this.onClick) this.onClick(n, e);
    });
    this.canvas.addEventListener('dblclick', (e) => {
      const n = this.nodeAt(e);
      if (n >= 0 && this.onDoubleClick) this.onDoubleClick(n, e);
    });
    new ResizeObserver(() => this.invalidate()).observe(this.element);
  }

  get zoom(): number {
    return this.zoomNode;
  }
  get current(): FlameTree | null {
    return this.tree;
  }
  get selection(): number {
    return this.selected;
  }

  // A new tree; the zoom stays on the node with the same stable id when it still has weight.
  setTree(tree: FlameTree, colors: string[]): void {
    const zoomId = this.tree && this.zoomNode > 0 ? this.tree.id[this.zoomNode] : 0;
    const selectedId = this.tree && this.selected > 0 ? this.tree.id[this.selected] : 0;
    this.tree = tree;
    this.colors = colors;
    this.zoomNode = Math.max(0, tree.findId(zoomId));
    this.selected = selectedId ? tree.findId(selectedId) : -1;
    this.hovered = -1;
    this.scrollToRoot = true;
    this.invalidate();
  }
  setColors(colors: string[]): void {
    this.colors = colors;
    this.request();
  }
  setTheme(theme: Theme): void {
    this.theme = theme;
    this.request();
  }
  setMatch(match: Uint8Array | null): void {
    this.match = match;
    this.request();
  }
  setSelected(node: number): void {
    this.selected = node;
    this.request();
  }
  zoomTo(node: number): void {
    this.zoomNode = node;
    this.invalidate();
  }
  setOrientation(o: Orientation): void {
    this.orientation = o;
    this.scrollToRoot = true;
    this.invalidate();
  }

  // The drawn frames (for tests and hosts): boxes in viewport CSS pixels.
  frames(): FrameBox[] {
    const t = this.tree;
    if (!t) return [];
    const l = this.ensureLayout();
    const r = this.canvas.getBoundingClientRect(), width = this.layoutWidth;
    const out: FrameBox[] = [];
    for (let i = 0; i < l.count; i++)
      out.push({
        node: l.node[i],
        name: t.name(l.node[i]),
        x: r.left + l.x[i] * width,
        y: r.top + this.rowY(l.depth[i]),
        width: l.w[i] * width,
        height: this.rowHeight - 1,
      });
    return out;
  }

  // Draws now (also used by the benchmark); returns the time it took in ms.
  draw(): number {
    const t0 = performance.now();
    this.frameRequested = false;
    const tree = this.tree;
    if (!tree) return 0;
    const l = this.ensureLayout(), rh = this.rowHeight;
    const width = this.layoutWidth;
    const scroller = this.element.parentElement;
    // A flame graph sits on the bottom of the visible area; the sandwich's panes size to fit.
    const fill = this.orientation === 'flame' && scroller && this.element.dataset.fit !== 'true' ? scroller.clientHeight : 0;
    const height = Math.max((tree.maxDepth + 1) * rh, fill);
    this.height = height;
    const dpr = window.devicePixelRatio || 1;
    const c = this.canvas;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    const ctx = c.getContext('2d');
    if (!ctx) return 0;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = this.theme.background;
    ctx.fillRect(0, 0, width, height);
    ctx.font = `12px ${this.theme.font}`;
    ctx.textBaseline = 'middle';
    this.charWidth = ctx.measureText('MMMMMMMMMM').width / 10 || 7;
    const dim = this.match;
    const textDark = this.theme.dark ? '#f0f0f0' : '#111111';
    for (let i = 0; i < l.count; i++) {
      const n = l.node[i];
      const px = l.x[i] * width, pw = l.w[i] * width;
      const y = this.rowY(l.depth[i]);
      const muted = dim !== null && n > 0 && !dim[n];
      ctx.fillStyle = muted ? this.theme.muted : this.colors[n];
      ctx.fillRect(px, y, Math.max(pw - 1, 0.5), rh - 1);
      if (pw > this.charWidth * 3 + 6) {
        const label = this.fit(tree.name(n), pw - 6);
        if (label) {
          ctx.fillStyle = muted ? this.theme.foreground : textDark;
          ctx.globalAlpha = muted ? 0.5 : 1;
          ctx.fillText(label, px + 3, y + rh / 2);
          ctx.globalAlpha = 1;
        }
      }
    }
    this.outline(ctx, this.selected, 2);
    this.outline(ctx, this.hovered, 1);
    if (this.scrollToRoot && scroller) {
      this.scrollToRoot = false;
      if (this.orientation === 'flame' && this.element.dataset.fit !== 'true') scroller.scrollTop = scroller.scrollHeight;
      else if (this.element.dataset.fit !== 'true') scroller.scrollTop = 0;
    }
    const ms = performance.now() - t0;
    if (this.onRendered) this.onRendered(ms);
    return ms;
  }

  private outline(ctx: CanvasRenderingContext2D, node: number, lw: number): void {
    const l = this.layout;
    if (node < 0 || !l) return;
    for (let i = 0; i < l.count; i++)
      if (l.node[i] === node) {
        ctx.strokeStyle = this.theme.highlight;
        ctx.lineWidth = lw;
        ctx.strokeRect(l.x[i] * this.layoutWidth + 0.5, this.rowY(l.depth[i]) + 0.5,
          Math.max(l.w[i] * this.layoutWidth - 2, 1), this.rowHeight - 2);
        return;
      }
  }

  private fit(name: string, px: number): string {
    const max = Math.floor(px / this.charWidth);
    if (name.length <= max) return name;
    if (max < 3) return '';
    return name.slice(0, max - 1) + '…';
  }

  private rowY(depth: number): number {
    return this.orientation === 'flame' ? this.height - (depth + 1) * this.rowHeight : depth * this.rowHeight;
  }

  // The layout for the current zoom and width (computed on demand: events may arrive between
  // a zoom and the next frame).
  private ensureLayout(): Layout {
    const width = Math.max(1, this.element.clientWidth);
    if (!this.layout || this.layoutWidth !== width) {
      this.layout = layoutTree(this.tree!, this.zoomNode, 0.5 / width);
      this.layoutWidth = width;
    }
    return this.layout;
  }

  private nodeAt(e: MouseEvent): number {
    if (!this.tree) return -1;
    const l = this.ensureLayout();
    const r = this.canvas.getBoundingClientRect();
    const fx = (e.clientX - r.left) / Math.max(1, this.layoutWidth);
    const y = e.clientY - r.top;
    const depth = Math.floor(this.orientation === 'flame' ? (this.height - y) / this.rowHeight : y / this.rowHeight);
    const i = hitTest(l, fx, depth);
    return i < 0 ? -1 : l.node[i];
  }

  private move(e: MouseEvent): void {
    const n = this.nodeAt(e);
    this.setHovered(n);
    if (this.onHover) this.onHover(n, e);
  }

  private setHovered(n: number): void {
    if (n === this.hovered) return;
    this.hovered = n;
    this.request();
  }

  private invalidate(): void {
    this.layout = null;
    this.request();
  }

  private request(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => this.draw());
  }
}
