// Frame colours: by frame kind (JIT green, inlined aqua, interpreted yellow, C1 olive, native
// orange, C++ amber, kernel purple), by package (a hue per package), or by change against a
// baseline (red grew, blue shrank). A small per-name lightness jitter separates neighbours.
// Pure functions of the tree and the theme.
import type { FlameTree } from './flame_tree';

export type ColorMode = 'kind' | 'package' | 'diff';

export interface Theme {
  dark: boolean;
  background: string;
  foreground: string;
  muted: string; // frames that do not match the search
  highlight: string; // the outline of the hovered / selected frame
  font: string;
}

const KIND_HUE: Record<string, [number, number]> = {
  // hue, saturation
  jit: [120, 55],
  inlined: [180, 55],
  interpreted: [50, 80],
  c1: [80, 55],
  native: [20, 80],
  cpp: [38, 80],
  kernel: [280, 45],
  unknown: [210, 20],
};

export const KIND_LEGEND: [string, string][] = [
  ['jit', 'JIT'],
  ['inlined', 'inlined'],
  ['c1', 'C1'],
  ['interpreted', 'interpreted'],
  ['native', 'native'],
  ['cpp', 'C++'],
  ['kernel', 'kernel'],
  ['unknown', 'unknown'],
];

export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function kindColor(kind: string, name: string, theme: Theme): string {
  const [hue, sat] = KIND_HUE[kind] ?? KIND_HUE.unknown;
  const jitter = (hashString(name) % 13) - 6;
  const light = (theme.dark ? 38 : 62) + jitter;
  return `hsl(${hue}, ${sat}%, ${light}%)`;
}

// `org.acme.shop.Pricing.discount` -> `org.acme.shop`; `example.com/gows/internal/shop.Discount`
// -> `example.com/gows/internal/shop`; `main.work` -> `main`; `[kernel] x` -> `x`.
export function packageOf(name: string): string {
  const paren = name.indexOf('(');
  const base = paren > 0 ? name.slice(0, paren) : name;
  const slash = base.lastIndexOf('/');
  const tail = base.slice(slash + 1);
  const parts = tail.split('.');
  if (slash >= 0) return base.slice(0, slash + 1) + parts[0];
  // JVM: drop method and class (a capitalised segment) when there is one.
  let end = parts.length - 1;
  for (let i = 0; i < parts.length - 1; i++)
    if (/^[A-Z]/.test(parts[i])) {
      end = i;
      break;
    }
  return parts.slice(0, Math.max(1, end)).join('.');
}

export function packageColor(name: string, theme: Theme): string {
  const hue = hashString(packageOf(name)) % 360;
  return `hsl(${hue}, 50%, ${theme.dark ? 40 : 65}%)`;
}

// delta in [-1, 1]: -1 the most shrunk, 1 the most grown (or new).
export function diffColor(delta: number, theme: Theme): string {
  const d = Math.max(-1, Math.min(1, delta));
  const strength = Math.round(Math.abs(d) * 70);
  if (Math.abs(d) < 0.02) return theme.dark ? 'hsl(0, 0%, 40%)' : 'hsl(0, 0%, 82%)';
  const hue = d > 0 ? 0 : 220;
  return `hsl(${hue}, ${20 + strength}%, ${theme.dark ? 45 - strength / 5 : 85 - strength / 2.5}%)`;
}

// The colour of each node of a tree (node 0, the root, gets the neutral colour).
export function nodeColors(
  tree: FlameTree,
  mode: ColorMode,
  theme: Theme,
  diff: Float64Array | null,
): string[] {
  const out = new Array<string>(tree.size);
  out[0] = theme.dark ? 'hsl(210, 10%, 35%)' : 'hsl(210, 10%, 78%)';
  const cache = new Map<string, string>();
  // A root that stands for a function (the sandwich) is coloured like one.
  for (let i = tree.fn[0] >= 0 ? 0 : 1; i < tree.size; i++) {
    if (mode === 'diff' && diff) {
      out[i] = diffColor(diff[i], theme);
      continue;
    }
    const name = tree.name(i);
    const key = mode === 'kind' ? tree.kind[i] + ' ' + name : name;
    let c = cache.get(key);
    if (c === undefined) {
      c = mode === 'kind' ? kindColor(tree.kindName(i), name, theme) : packageColor(name, theme);
      cache.set(key, c);
    }
    out[i] = c;
  }
  return out;
}

// The page's theme: VS Code's webview variables when present, else prefers-color-scheme.
export function currentTheme(root: HTMLElement = document.body): Theme {
  const css = getComputedStyle(root);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const dark = root.classList.contains('vscode-dark') || root.classList.contains('vscode-high-contrast')
    ? true
    : root.classList.contains('vscode-light')
      ? false
      : root.dataset.theme === 'dark' ||
        (root.dataset.theme !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  return {
    dark,
    background: v('--hl-bg', dark ? '#1e1e1e' : '#ffffff'),
    foreground: v('--hl-fg', dark ? '#d4d4d4' : '#1f1f1f'),
    muted: dark ? 'hsl(0, 0%, 25%)' : 'hsl(0, 0%, 88%)',
    highlight: v('--hl-accent', dark ? '#ffffff' : '#000000'),
    font: v('--hl-mono', 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace'),
  };
}
