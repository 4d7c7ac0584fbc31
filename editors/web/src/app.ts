// App: the whole view — toolbar (event, weight, threads, mode, colours, search, reset, theme),
// timeline with brush, breadcrumbs, status line, the flame graph / icicle or the sandwich,
// the tooltip and the details bar with "open source". It asks a ProfileSource for trees and
// timelines and a ViewHost to open sources; it never looks at where the data comes from.
// Main-thread only.
import { type ColorMode, currentTheme, KIND_LEGEND, kindColor, nodeColors, type Theme } from './colors';
import { diffAgainst, type DiffResult } from './diff';
import { h, option } from './dom';
import type { Baseline, Measure } from './document';
import { FlameCanvas, type FrameBox } from './flame_canvas';
import type { FlameTree } from './flame_tree';
import { formatCount, formatPercent, formatSeconds, formatWeight } from './format';
import type { FrameRef, ViewHost } from './host';
import type { Query } from './query';
import { callersOf, calleesOf } from './sandwich';
import { search, type SearchResult } from './search';
import type { ProfileSource, SourceInfo, TimelineData } from './source';
import { TimelineView } from './timeline_view';

type Mode = 'flame' | 'icicle' | 'sandwich';

export class App {
  readonly root: HTMLDivElement;
  private info!: SourceInfo;
  private query!: Query;
  private tree: FlameTree | null = null;
  private timelineData: TimelineData | null = null;
  private baselineData: Baseline | null = null;
  private diff: DiffResult | null = null;
  private match: SearchResult | null = null;
  private mode: Mode = 'flame';
  private colorMode: ColorMode = 'kind';
  private theme: Theme;
  private selected = -1; // node of the main tree
  private sandwichFn = -1;
  private seq = 0;
  renders = 0;
  // When the first frame was drawn (ms since navigation) and how long that draw took.
  firstDraw: { at: number; ms: number } | null = null;

  private readonly flame: FlameCanvas;
  private readonly callers: FlameCanvas;
  private readonly callees: FlameCanvas;
  private readonly timeline: TimelineView;
  private readonly ui = {
    title: h('span', { class: 'hl-title' }),
    event: h('select', { 'data-role': 'event', title: 'event' }),
    measure: h('select', { 'data-role': 'measure', title: 'weigh frames by' }),
    threads: h('details', { class: 'hl-threads', 'data-role': 'threads' }),
    threadSummary: h('summary', {}, 'threads: all'),
    threadList: h('div', { class: 'hl-thread-list' }),
    mode: h('select', { 'data-role': 'mode', title: 'view' }),
    color: h('select', { 'data-role': 'color', title: 'colour by' }),
    search: h('input', { type: 'search', placeholder: 'search: text or /regex/', 'data-role': 'search' }),
    match: h('span', { class: 'hl-match', 'data-role': 'match' }),
    reset: h('button', { 'data-role': 'reset', title: 'reset zoom (Esc)' }, 'reset zoom'),
    themeButton: h('button', { 'data-role': 'theme', title: 'theme: auto, light, dark' }, 'theme: auto'),
    windowLabel: h('span', { class: 'hl-window', 'data-role': 'window' }),
    clearWindow: h('button', { 'data-role': 'clear-window' }, 'whole profile'),
    timelineBox: h('div', { class: 'hl-timeline-box' }),
    crumbs: h('nav', { class: 'hl-crumbs', 'data-role': 'crumbs' }),
    status: h('div', { class: 'hl-status', 'data-role': 'status' }),
    main: h('main', { class: 'hl-main' }),
    sandwich: h('div', { class: 'hl-sandwich', hidden: true }),
    sandwichTitle: h('div', { class: 'hl-sandwich-title', 'data-role': 'sandwich-title' }),
    details: h('footer', { class: 'hl-details', 'data-role': 'details' }),
    tooltip: h('div', { class: 'hl-tooltip', 'data-role': 'tooltip', hidden: true }),
    legend: h('div', { class: 'hl-legend', 'data-role': 'legend' }),
    error: h('div', { class: 'hl-error', hidden: true }),
  };

  constructor(
    private readonly source: ProfileSource,
    private readonly host: ViewHost,
    parent: HTMLElement,
  ) {
    this.theme = currentTheme();
    this.flame = new FlameCanvas('flame', this.theme);
    this.callers = new FlameCanvas('flame', this.theme);
    this.callees = new FlameCanvas('icicle', this.theme);
    this.timeline = new TimelineView(this.theme);
    const u = this.ui;
    u.threads.append(u.threadSummary, u.threadList);
    this.root = h(
      'div',
      { class: 'hl-app' },
      h(
        'header',
        { class: 'hl-toolbar' },
        u.title,
        u.event,
        u.measure,
        u.threads,
        u.mode,
        u.color,
        u.search,
        u.match,
        u.reset,
        u.themeButton,
      ),
      u.timelineBox,
      u.crumbs,
      u.status,
      u.main,
      u.details,
      u.legend,
      u.tooltip,
      u.error,
    );
    u.timelineBox.append(this.timeline.element, h('div', { class: 'hl-window-bar' }, u.windowLabel, u.clearWindow));
    u.sandwich.append(
      h('div', { class: 'hl-pane-label' }, 'callers ↑'),
      this.callers.element,
      u.sandwichTitle,
      this.callees.element,
      h('div', { class: 'hl-pane-label' }, 'callees ↓'),
    );
    this.flame.onRendered = (ms) => {
      if (!this.firstDraw) this.firstDraw = { at: performance.now(), ms };
    };
    this.callers.element.dataset.fit = 'true';
    this.callees.element.dataset.fit = 'true';
    u.main.append(this.flame.element, u.sandwich);
    parent.append(this.root);
    this.wire();
  }

  async start(): Promise<void> {
    try {
      this.info = await this.source.info();
      const i = this.info;
      this.query = {
        event: i.initial.event,
        measure: i.initial.measure,
        threads: i.initial.threads.length > 0 ? i.initial.threads : null,
        window: null,
      };
      this.baselineData = await this.source.baseline();
      this.fillPickers();
      await this.refresh(true);
    } catch (e) {
      this.showError(e);
    }
  }

  // --- for tests and hosts -------------------------------------------------------------
  frames(): FrameBox[] {
    return this.flame.frames();
  }
  sandwichFrames(): { callers: FrameBox[]; callees: FrameBox[] } {
    return { callers: this.callers.frames(), callees: this.callees.frames() };
  }
  bucketX(bucket: number): number {
    return this.timeline.bucketX(bucket);
  }
  currentTree(): FlameTree | null {
    return this.tree;
  }
  // Draws the flame graph now; returns the milliseconds it took (benchmarks).
  drawNow(): number {
    return this.flame.draw();
  }
  // Zooms on a node of the current tree (hosts, benchmarks).
  zoomTo(node: number): void {
    this.zoom(node);
  }
  async setWindow(w: [number, number] | null): Promise<void> {
    this.timeline.setWindow(w);
    this.query = { ...this.query, window: w };
    await this.refresh(false);
  }

  // --- data ------------------------------------------------------------------------------
  private async refresh(timelineToo: boolean): Promise<void> {
    const seq = ++this.seq;
    document.body.dataset.state = 'loading';
    const q = this.query;
    const tree = await this.source.flame(q);
    const tl = timelineToo ? await this.source.timeline(q) : this.timelineData;
    if (seq !== this.seq) return;
    this.tree = tree;
    this.timelineData = tl;
    if (timelineToo) this.timeline.setData(tl, this.info.threads);
    this.ui.timelineBox.hidden = tl === null;
    const event = this.info.events[q.event];
    this.diff =
      this.baselineData && this.baselineData.event === event.name && this.baselineData.measure === q.measure
        ? diffAgainst(tree, this.baselineData)
        : null;
    if (this.colorMode === 'diff' && !this.diff) this.colorMode = 'kind';
    this.ui.color.value = this.colorMode;
    this.flame.setTree(tree, this.colors(tree));
    this.selected = this.flame.selection;
    this.applySearch();
    this.updateStatus();
    this.updateCrumbs();
    this.updateSandwich();
    this.updateDetails();
    this.renders++;
    document.body.dataset.renders = String(this.renders);
    document.body.dataset.state = 'ready';
  }

  private colors(tree: FlameTree): string[] {
    return nodeColors(tree, this.colorMode, this.theme, this.diff ? this.diff.scaled : null);
  }

  // --- UI --------------------------------------------------------------------------------
  private fillPickers(): void {
    const i = this.info, u = this.ui;
    u.title.textContent = i.title;
    u.title.title = `${i.format}${i.producer ? ' · ' + i.producer : ''}`;
    document.title = `${i.title} · hotlines`;
    u.event.replaceChildren(
      ...i.events.map((e, k) => option(String(k), `${e.name} (${formatWeight(e.total_value, e.unit)})`, k === this.query.event)),
    );
    this.fillMeasure();
    u.mode.replaceChildren(option('flame', 'flame graph'), option('icicle', 'icicle'), option('sandwich', 'sandwich'));
    u.color.replaceChildren(option('kind', 'colour: frame kind'), option('package', 'colour: package'));
    if (this.baselineData) u.color.append(option('diff', `colour: diff vs ${this.baselineData.title}`));
    u.threadList.replaceChildren(
      h('label', {}, h('input', { type: 'checkbox', 'data-thread': 'all', checked: this.query.threads === null }), 'all threads'),
      ...i.threads.map((t, k) =>
        h(
          'label',
          {},
          h('input', { type: 'checkbox', 'data-thread': String(k), checked: this.query.threads?.includes(k) ?? false }),
          `${t.name || 'thread ' + k}${t.tid !== undefined ? ` (${t.tid})` : ''}`,
        ),
      ),
    );
    this.updateThreadSummary();
    u.legend.replaceChildren(
      ...KIND_LEGEND.map(([k, label]) => {
        const sw = h('span', { class: 'hl-swatch' });
        sw.style.background = kindColor(k, '', this.theme);
        return h('span', { class: 'hl-legend-item' }, sw, label);
      }),
      h('span', { class: 'hl-hint' }, 'click: zoom · double-click or Ctrl+click: open source · Esc: reset'),
    );
  }

  private fillMeasure(): void {
    const e = this.info.events[this.query.event];
    const differs = e.total_count !== e.total_value || (e.unit !== 'samples' && e.unit !== '');
    this.ui.measure.replaceChildren(option('value', `weight: ${e.unit}`), option('count', 'weight: count'));
    this.ui.measure.hidden = !differs;
    if (!differs) this.query = { ...this.query, measure: 'value' };
    this.ui.measure.value = this.query.measure;
  }

  private wire(): void {
    const u = this.ui;
    u.event.addEventListener('change', () => {
      this.query = { ...this.query, event: Number(u.event.value), window: null };
      this.timeline.setWindow(null);
      this.fillMeasure();
      void this.refresh(true);
    });
    u.measure.addEventListener('change', () => {
      this.query = { ...this.query, measure: u.measure.value as Measure };
      void this.refresh(true);
    });
    u.threadList.addEventListener('change', (e) => {
      const box = e.target as HTMLInputElement;
      const boxes = [...u.threadList.querySelectorAll<HTMLInputElement>('input[data-thread]')];
      if (box.dataset.thread === 'all') {
        for (const b of boxes) b.checked = b === box;
        this.query = { ...this.query, threads: null };
      } else {
        const picked = boxes.filter((b) => b.checked && b.dataset.thread !== 'all').map((b) => Number(b.dataset.thread));
        boxes[0].checked = picked.length === 0;
        this.query = { ...this.query, threads: picked.length > 0 ? picked : null };
      }
      this.updateThreadSummary();
      void this.refresh(true);
    });
    u.mode.addEventListener('change', () => this.setMode(u.mode.value as Mode));
    u.color.addEventListener('change', () => {
      this.colorMode = u.color.value as ColorMode;
      if (this.tree) this.flame.setColors(this.colors(this.tree));
      this.updateSandwich();
    });
    u.search.addEventListener('input', () => this.applySearch());
    u.reset.addEventListener('click', () => this.zoom(0));
    u.themeButton.addEventListener('click', () => {
      const next = { auto: 'light', light: 'dark', dark: 'auto' } as const;
      const cur = (document.body.dataset.theme ?? 'auto') as keyof typeof next;
      const t = next[cur] ?? 'auto';
      if (t === 'auto') delete document.body.dataset.theme;
      else document.body.dataset.theme = t;
      u.themeButton.textContent = `theme: ${t}`;
      this.retheme();
    });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.retheme());
    // VS Code swaps body classes (vscode-light / vscode-dark) when the editor theme changes.
    new MutationObserver(() => this.retheme()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
    u.clearWindow.addEventListener('click', () => void this.setWindow(null));
    this.timeline.onWindow = (w) => {
      this.query = { ...this.query, window: w };
      void this.refresh(false);
    };
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && document.activeElement !== u.search) this.zoom(0);
      if ((e.key === '/' || (e.key === 'f' && (e.ctrlKey || e.metaKey))) && document.activeElement !== u.search) {
        e.preventDefault();
        u.search.focus();
      }
    });

    this.flame.onHover = (n, e) => this.tooltip(this.flame.current, n, e);
    this.flame.onClick = (n, e) => {
      if (e.ctrlKey || e.metaKey) {
        void this.open(this.flame.current, n);
        return;
      }
      this.selected = n;
      this.flame.setSelected(n);
      this.zoom(n);
    };
    this.flame.onDoubleClick = (n) => void this.open(this.flame.current, n);
    for (const c of [this.callers, this.callees]) {
      c.onHover = (n, e) => this.tooltip(c.current, n, e);
      c.onClick = (n, e) => {
        const t = c.current;
        if (!t) return;
        if (e.ctrlKey || e.metaKey) void this.open(t, n);
        else if (n > 0) {
          this.sandwichFn = t.fn[n];
          this.updateSandwich();
        }
      };
      c.onDoubleClick = (n) => void this.open(c.current, n);
    }
  }

  private retheme(): void {
    this.theme = currentTheme();
    for (const c of [this.flame, this.callers, this.callees]) c.setTheme(this.theme);
    this.timeline.setTheme(this.theme);
    if (this.tree) this.flame.setColors(this.colors(this.tree));
    this.updateSandwich();
    this.fillLegendColors();
  }

  private fillLegendColors(): void {
    const items = this.ui.legend.querySelectorAll<HTMLSpanElement>('.hl-swatch');
    items.forEach((sw, k) => (sw.style.background = kindColor(KIND_LEGEND[k][0], '', this.theme)));
  }

  private setMode(m: Mode): void {
    this.mode = m;
    this.ui.mode.value = m;
    const sandwich = m === 'sandwich';
    this.flame.element.hidden = sandwich;
    this.ui.sandwich.hidden = !sandwich;
    this.ui.crumbs.hidden = sandwich;
    if (!sandwich) this.flame.setOrientation(m);
    if (sandwich && this.sandwichFn < 0 && this.tree && this.selected > 0) this.sandwichFn = this.tree.fn[this.selected];
    this.updateSandwich();
  }

  private zoom(node: number): void {
    this.flame.zoomTo(node);
    if (node === 0) {
      this.selected = -1;
      this.flame.setSelected(-1);
    }
    this.updateCrumbs();
    this.updateDetails();
  }

  private updateThreadSummary(): void {
    const t = this.query.threads;
    this.ui.threadSummary.textContent =
      t === null ? 'threads: all' : t.length === 1 ? `thread: ${this.info.threads[t[0]].name}` : `threads: ${t.length}`;
  }

  private applySearch(): void {
    const t = this.tree;
    if (!t) return;
    this.match = search(t, this.ui.search.value);
    const m = this.match, el = this.ui.match;
    this.flame.setMatch(m ? m.bright : null);
    if (!m) {
      el.textContent = '';
      delete el.dataset.pct;
      delete el.dataset.matched;
      return;
    }
    el.dataset.pct = String(m.percent);
    el.dataset.matched = String(m.matched);
    el.textContent = `matched ${formatPercent(m.percent)} (${formatWeight(m.matched, t.weightUnit())})`;
  }

  private updateStatus(): void {
    const t = this.tree;
    if (!t) return;
    const q = this.query, e = this.info.events[q.event], el = this.ui.status;
    const parts = [`${e.name}: ${formatWeight(t.total, t.weightUnit())}`];
    if (q.measure === 'value' && e.unit !== 'samples') parts.push(`${formatCount(t.totalCount[0])} samples`);
    if (q.threads) parts.push(`${q.threads.length} thread${q.threads.length === 1 ? '' : 's'}`);
    if (q.window && this.timelineData) {
      const b = this.timelineData.bucket_ns;
      const text = `window ${formatSeconds(q.window[0] * b)} – ${formatSeconds(q.window[1] * b)}`;
      parts.push(text);
      this.ui.windowLabel.textContent = text;
    } else this.ui.windowLabel.textContent = 'drag across the timeline to pick a window';
    if (this.diff && this.baselineData) parts.push(`baseline ${this.baselineData.title}`);
    el.textContent = parts.join(' · ');
    el.dataset.total = String(t.total);
    el.dataset.count = String(t.totalCount[0]);
    el.dataset.value = String(t.totalValue[0]);
    this.ui.clearWindow.hidden = !q.window;
  }

  private updateCrumbs(): void {
    const t = this.flame.current;
    if (!t) return;
    const path = t.path(this.flame.zoom);
    this.ui.crumbs.replaceChildren(
      ...path.map((n, k) => {
        const b = h('button', { class: 'hl-crumb', 'data-node': n, title: t.name(n) }, shortName(t.name(n)));
        b.addEventListener('click', () => this.zoom(n));
        return k === 0 ? b : h('span', {}, ' › ', b);
      }),
    );
  }

  private updateSandwich(): void {
    if (this.mode !== 'sandwich' || !this.tree) return;
    const t = this.tree, f = this.sandwichFn;
    if (f < 0) {
      this.ui.sandwichTitle.textContent = 'Select a frame (click it in the flame graph), then pick sandwich.';
      return;
    }
    const up = callersOf(t, f), down = calleesOf(t, f);
    this.ui.sandwichTitle.textContent = `${t.functions[f].name} — total ${formatWeight(up.total, t.weightUnit())} (${formatPercent(
      t.total > 0 ? (100 * up.total) / t.total : 0,
    )}), self ${formatWeight(up.selfWeights()[0], t.weightUnit())}`;
    this.ui.sandwichTitle.dataset.total = String(up.total);
    this.callers.setTree(up, nodeColors(up, this.colorMode === 'diff' ? 'kind' : this.colorMode, this.theme, null));
    this.callees.setTree(down, nodeColors(down, this.colorMode === 'diff' ? 'kind' : this.colorMode, this.theme, null));
    this.callers.zoomTo(0);
    this.callees.zoomTo(0);
  }

  private frameRef(t: FlameTree, n: number): FrameRef {
    const f = t.fn[n] >= 0 ? t.functions[t.fn[n]] : { name: 'all' };
    const ref: FrameRef = { id: t.id[n], fn: t.fn[n], name: f.name, kind: t.kindName(n), line: t.line[n] };
    if ('file' in f && f.file) ref.file = f.file;
    if ('status' in f && f.status) ref.status = f.status;
    if ('path' in f && f.path) ref.path = f.path;
    if ('why' in f && f.why) ref.why = f.why;
    if (t.fn[n] < 0) ref.why = 'the root stands for all samples';
    return ref;
  }

  private updateDetails(): void {
    const t = this.tree, n = this.selected, el = this.ui.details;
    if (!t || n <= 0 || n >= t.size) {
      el.replaceChildren(h('span', { class: 'hl-hint' }, 'Click a frame to zoom and select it.'));
      return;
    }
    const ref = this.frameRef(t, n);
    const where = ref.path ? `${ref.file ?? ref.path}${ref.line > 0 ? ':' + ref.line : ''}` : noSource(ref);
    const open = h('button', { 'data-role': 'open-source', disabled: !ref.path }, 'open source');
    open.addEventListener('click', () => void this.open(t, n));
    const sandwich = h('button', { 'data-role': 'sandwich' }, 'sandwich');
    sandwich.addEventListener('click', () => {
      this.sandwichFn = t.fn[n];
      this.setMode('sandwich');
    });
    el.replaceChildren(
      h('strong', {}, ref.name),
      h('span', { class: ref.path ? 'hl-where' : 'hl-where hl-unresolved', 'data-role': 'where' }, where),
      open,
      sandwich,
      h('span', { class: 'hl-message', 'data-role': 'message' }),
    );
  }

  private async open(t: FlameTree | null, n: number): Promise<void> {
    if (!t || n < 0) return;
    const ref = this.frameRef(t, n);
    const r = await this.host.openSource(ref);
    const msg = this.ui.details.querySelector<HTMLSpanElement>('[data-role=message]');
    const text = r.ok ? `opening ${r.message}` : `cannot open ${ref.name}: ${r.message}`;
    if (msg) msg.textContent = text;
    else this.ui.details.replaceChildren(h('span', { class: 'hl-message', 'data-role': 'message' }, text));
  }

  private tooltip(t: FlameTree | null, n: number, e: MouseEvent): void {
    const tip = this.ui.tooltip, main = this.tree;
    if (!t || !main || n < 0) {
      tip.hidden = true;
      return;
    }
    const total = main.total, unit = t.weightUnit();
    const pct = (v: number) => formatPercent(total > 0 ? (100 * v) / total : 0);
    const w = t.weights()[n], s = t.selfWeights()[n];
    const ref = this.frameRef(t, n);
    const rows: (string | Node)[][] = [
      ['total', `${formatWeight(w, unit)} (${pct(w)})`],
      ['self', `${formatWeight(s, unit)} (${pct(s)})`],
    ];
    if (t.measure === 'value' && t.unit !== 'samples')
      rows.push(['samples', `${formatCount(t.totalCount[n])} total, ${formatCount(t.selfCount[n])} self`]);
    if (ref.kind) rows.push(['kind', ref.kind]);
    rows.push(['source', ref.path ? `${ref.file ?? ref.path}${ref.line > 0 ? ':' + ref.line : ''}` : noSource(ref)]);
    if (this.diff && t === main && n > 0) {
      const b = this.diff.basePct[n];
      rows.push(['baseline', b < 0 ? 'absent (new)' : `${formatPercent(b)} → ${formatPercent(b + this.diff.deltaPct[n])}`]);
    }
    tip.replaceChildren(
      h('div', { class: 'hl-tip-name' }, ref.name),
      h('table', {}, ...rows.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v)))),
    );
    tip.hidden = false;
    const pad = 14, r = tip.getBoundingClientRect();
    let x = e.clientX + pad, y = e.clientY + pad;
    if (x + r.width > window.innerWidth) x = Math.max(0, e.clientX - r.width - pad);
    if (y + r.height > window.innerHeight) y = Math.max(0, e.clientY - r.height - pad);
    tip.style.left = `${x}px`;
    tip.style.top = `${y}px`;
  }

  private showError(e: unknown): void {
    this.ui.error.hidden = false;
    this.ui.error.textContent = `hotlines view: ${e instanceof Error ? e.message : String(e)}`;
    document.body.dataset.state = 'error';
  }
}

// Why a frame has no source: "external: JDK class …", "unresolved: no file … under …".
function noSource(ref: FrameRef): string {
  return `${ref.status === 'external' ? 'external' : 'unresolved'}: ${ref.why ?? 'no source file'}`;
}

function shortName(name: string): string {
  const paren = name.indexOf('(');
  const base = paren > 0 ? name.slice(0, paren) : name;
  const parts = base.split('.');
  return parts.length > 2 ? parts.slice(-2).join('.') : base;
}
