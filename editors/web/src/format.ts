// Number formatting for labels and tooltips: weights in their unit, percentages, times.
// Pure functions.

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function formatWeight(v: number, unit: string): string {
  if (unit === 'nanoseconds' || unit === 'ns') {
    const a = Math.abs(v);
    if (a >= 1e9) return `${(v / 1e9).toFixed(3)} s`;
    if (a >= 1e6) return `${(v / 1e6).toFixed(2)} ms`;
    if (a >= 1e3) return `${(v / 1e3).toFixed(1)} µs`;
    return `${v} ns`;
  }
  if (unit === 'bytes') {
    const a = Math.abs(v);
    if (a >= 2 ** 30) return `${(v / 2 ** 30).toFixed(2)} GiB`;
    if (a >= 2 ** 20) return `${(v / 2 ** 20).toFixed(2)} MiB`;
    if (a >= 2 ** 10) return `${(v / 2 ** 10).toFixed(1)} KiB`;
    return `${v} B`;
  }
  return `${formatCount(v)} ${unit === 'samples' || unit === '' ? 'samples' : unit}`;
}

export function formatPercent(p: number): string {
  return `${p.toFixed(2)}%`;
}

export function formatSeconds(ns: number): string {
  return `${(ns / 1e9).toFixed(3)} s`;
}
