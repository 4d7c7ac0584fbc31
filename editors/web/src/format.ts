// Number formatting for labels and tooltips: weights in their unit, percentages, times.
// Pure functions.

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

const TIME_UNITS = ['ns', 'µs', 'ms', 's'];
const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

// The server's rule (server/engine/units.cc, README "Units"): |v| in the largest unit it
// reaches, 2 decimals rounded half away from zero on the exact integer (never toFixed's
// rounding of a double), moving up a unit when it rounds to `step`; below `step` an integer.
// Exact for |v| < 2^53; tests/data/units.json holds the cases both are tested against.
function scaled(v: number, step: number, labels: string[]): string {
  const w = Math.round(v);
  const a = Math.abs(w);
  if (a < step) return `${w} ${labels[0]}`;
  let i = 0;
  let div = 1;
  while (i + 1 < labels.length && a >= div * step) {
    div *= step;
    i++;
  }
  const hundredths = (): number => {
    let q = Math.floor(a / div);
    let r = a - q * div;
    if (r < 0) {
      q--;
      r += div;
    } else if (r >= div) {
      q++;
      r -= div;
    }
    return q * 100 + Math.floor((r * 100 + div / 2) / div);
  };
  let h = hundredths();
  if (h >= step * 100 && i + 1 < labels.length) {
    div *= step;
    i++;
    h = hundredths();
  }
  return `${w < 0 ? '-' : ''}${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')} ${labels[i]}`;
}

export function formatWeight(v: number, unit: string): string {
  if (unit === 'nanoseconds' || unit === 'ns') return scaled(v, 1000, TIME_UNITS);
  if (unit === 'bytes') return scaled(v, 1024, BYTE_UNITS);
  return `${formatCount(v)} ${unit === 'samples' || unit === '' ? 'samples' : unit}`;
}

export function formatPercent(p: number): string {
  return `${p.toFixed(2)}%`;
}

export function formatSeconds(ns: number): string {
  return `${(ns / 1e9).toFixed(3)} s`;
}
