// Pure helpers for drawing heat: levels of the 5 gutter icons, their SVGs and colours, and the
// after-line text. No vscode import, so node's test runner covers them (test/heat.test.ts).
import type { LineAnnotation, Weight } from './protocol';

export const HEAT_LEVELS = 5;

// 0..4 from the server's heat (self relative to the view's hottest line); 1.0 is level 4.
export function heatLevel(heat: number): number {
  if (!(heat > 0)) return 0;
  return Math.min(HEAT_LEVELS - 1, Math.floor(heat * HEAT_LEVELS));
}

// Coolest to hottest; the icons and the line backgrounds use them.
export const HEAT_COLORS = ['#4e79a7', '#59a14f', '#edc948', '#f28e2b', '#e15759'];

// A 16x16 SVG: a rounded bar whose height and colour grow with the level.
export function heatIconSvg(level: number): string {
  const h = 4 + level * 3; // 4..16
  const y = 16 - h;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">` +
    `<rect x="4" y="${y}" width="8" height="${h}" rx="2" fill="${HEAT_COLORS[level]}"/></svg>\n`
  );
}

// Diff mode (a baseline is set): a line whose share grew by at least 0.05 points is slower
// (red), one whose share shrank as much is faster (green); the rest gets no icon.
export type DiffKind = 'slower' | 'faster';
export const DIFF_COLORS: Record<DiffKind, string> = { slower: '#e15759', faster: '#59a14f' };

export function diffKind(line: LineAnnotation): DiffKind | undefined {
  if (line.delta === undefined || Math.abs(line.delta) < 0.05) return undefined;
  return line.delta > 0 ? 'slower' : 'faster';
}

// A 16x16 SVG: a triangle pointing up (slower) or down (faster).
export function diffIconSvg(kind: DiffKind): string {
  const points = kind === 'slower' ? '8,2 14,13 2,13' : '2,3 14,3 8,14';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">` +
    `<polygon points="${points}" fill="${DIFF_COLORS[kind]}"/></svg>\n`
  );
}

export function measureOf(w: Weight, measure: 'count' | 'value'): number {
  return measure === 'count' ? w.count : w.value;
}

// A share in percent with one decimal, as the server prints it: "38.2%", "<0.1%".
export function formatPercent(part: number, whole: number): string {
  if (!(whole > 0)) return '0%';
  const p = (part / whole) * 100;
  if (p > 0 && p < 0.05) return '<0.1%';
  return `${p.toFixed(1)}%`;
}

export function formatDelta(delta: number): string {
  return `${delta >= 0 ? '+' : ''}${delta.toFixed(1)}%`;
}

// The after-line text of a line, or "" when it is below the threshold: "38.2% cpu" for a line
// with self weight, "↳ 20.6% cpu total" for a line that passes time to callees, and
// "+0.5% cpu vs baseline" when a baseline is set.
export function lineLabel(
  line: LineAnnotation,
  total: Weight,
  event: string,
  measure: 'count' | 'value',
  minPercent: number,
): string {
  const whole = measureOf(total, measure);
  if (!(whole > 0)) return '';
  if (line.delta !== undefined) {
    return Math.abs(line.delta) >= 0.05 ? `${formatDelta(line.delta)} ${event} vs baseline` : '';
  }
  const self = measureOf(line.self, measure);
  const tot = measureOf(line.total, measure);
  if ((self / whole) * 100 >= minPercent) return `${formatPercent(self, whole)} ${event}`;
  if ((tot / whole) * 100 >= minPercent) return `↳ ${formatPercent(tot, whole)} ${event} total`;
  return '';
}

// Lines worth an icon: some self weight (heat > 0) or a baseline change.
export function hasHeat(line: LineAnnotation): boolean {
  return line.heat > 0 || (line.delta !== undefined && line.delta !== 0);
}
