// The Runs view's model: one record per profiled run the extension started, its status and
// the text the view shows. Pure (test/run_history.test.ts); the view and the requests are in
// runs.ts.
import { formatWeight } from '../../web/src/format';
import type * as P from './protocol';

export type RunStatus = 'running' | 'profiled' | 'failed' | 'cancelled';

export interface RunRecord {
  runId: string;
  label: string; // what ran: "PricingTest#discountIsFinite", "org.acme.shop.Main", "pid 4242"
  params: P.RunParams;
  startedAt: number; // ms since the epoch
  profilePath: string;
  finished?: P.RunFinished;
  output: string; // everything the run printed (the server's lines included)
}

export function runStatus(r: RunRecord): RunStatus {
  if (!r.finished) return 'running';
  if (r.finished.error?.kind === 'cancelled') return 'cancelled';
  return r.finished.error ? 'failed' : 'profiled';
}

// A run's duration under the one rule of durations (README "Units", the web view's
// formatWeight): "850.00 ms", "2.70 s".
export function runDuration(ms: number): string {
  return formatWeight(Math.round(ms) * 1e6, 'nanoseconds');
}

// The line beside the run's label: "running 3.20 s", "profiled in 2.70 s · exit 1",
// "failed: buildFailed", "cancelled after 1.00 s".
export function runDescription(r: RunRecord, now: number): string {
  const f = r.finished;
  switch (runStatus(r)) {
    case 'running':
      return `running ${runDuration(now - r.startedAt)}`;
    case 'cancelled':
      return `cancelled after ${runDuration(f!.durationMs)}`;
    case 'failed':
      return `failed: ${f!.error!.kind}`;
    default:
      return `profiled in ${runDuration(f!.durationMs)}${f!.exitCode ? ` · exit ${f!.exitCode}` : ''}`;
  }
}

export function runTooltip(r: RunRecord): string {
  const lines = [r.label, `recipe ${r.params.recipe}`, `profile ${r.profilePath}`];
  if (r.finished?.error) lines.push(`${r.finished.error.kind}: ${r.finished.error.message}`);
  return lines.join('\n');
}

// Newest first, at most `max` records; running ones are never dropped.
export function trimHistory(runs: RunRecord[], max: number): RunRecord[] {
  const sorted = [...runs].sort((a, b) => b.startedAt - a.startedAt);
  const kept: RunRecord[] = [];
  let finished = 0;
  for (const r of sorted) {
    if (r.finished && ++finished > max) continue;
    kept.push(r);
  }
  return kept;
}
