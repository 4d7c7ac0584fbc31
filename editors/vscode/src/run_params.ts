// hotlines/run params as the extension sends them: the server's ready-made params from
// hotlines/testsInFile plus what settings and prompts add. Pure (test/run_params.test.ts).
import type * as P from './protocol';

// A java-test or java-main run with the `hotlines.runs.buildArgs` setting appended to its
// Maven/Gradle args.
export function withBuildArgs(run: P.RunParams, extra: string[]): P.RunParams {
  if ((run.recipe !== 'java-test' && run.recipe !== 'java-main') || !extra.length) return run;
  const own = Array.isArray(run.buildArgs) ? (run.buildArgs as string[]) : [];
  return { ...run, buildArgs: [...own, ...extra] };
}

// Program arguments typed in one line, split as a shell would split plain words: whitespace
// separates, '…' and "…" quote (no expansion), a backslash escapes the next character outside
// single quotes. Undefined when a quote is not closed.
export function splitArgs(line: string): string[] | undefined {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | '' = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) out.push(cur);
  return out;
}

// "Attach to JVM…" params: seconds as typed ("10", "2.5") to the recipe's durationMs.
export function attachParams(pid: number, secondsText: string): P.RunParams | undefined {
  const s = Number(secondsText.trim());
  if (!secondsText.trim() || !Number.isFinite(s) || s <= 0 || s > 3600) return undefined;
  return { recipe: 'attach-jvm', pid, durationMs: Math.round(s * 1000) };
}
