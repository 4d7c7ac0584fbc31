// The Runs view's model: status, the text beside a run, history trimming.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type RunRecord, runDescription, runDuration, runStatus, runTooltip, trimHistory } from '../src/run_history';

const base = (over: Partial<RunRecord> = {}): RunRecord => ({
  runId: 'r1', label: 'PricingTest#discountIsFinite', params: { recipe: 'java-test' }, startedAt: 1000,
  profilePath: '/w/.hotlines/a.jfr', output: '', ...over,
});
const finished = (over: Record<string, unknown> = {}) => ({
  runId: 'r1', exitCode: 0, signal: null, profilePath: '/w/.hotlines/a.jfr', profileId: 'p2', durationMs: 2700, ...over,
});

test('a run is running, profiled, failed or cancelled', () => {
  assert.equal(runStatus(base()), 'running');
  assert.equal(runStatus(base({ finished: finished() })), 'profiled');
  assert.equal(runStatus(base({ finished: finished({ exitCode: 1 }) })), 'profiled', 'failing tests that wrote a profile');
  assert.equal(runStatus(base({ finished: finished({ error: { kind: 'buildFailed', message: 'm', output: '' } }) })), 'failed');
  assert.equal(runStatus(base({ finished: finished({ error: { kind: 'cancelled', message: 'm', output: '' } }) })), 'cancelled');
});

test('descriptions say how it went', () => {
  assert.equal(runDescription(base(), 4200), 'running 3.20 s');
  assert.equal(runDescription(base({ finished: finished() }), 0), 'profiled in 2.70 s');
  assert.equal(runDescription(base({ finished: finished({ exitCode: 1 }) }), 0), 'profiled in 2.70 s · exit 1');
  assert.equal(runDescription(base({ finished: finished({ error: { kind: 'timeout', message: 'm', output: '' } }) }), 0), 'failed: timeout');
  assert.equal(runDescription(base({ finished: finished({ durationMs: 1000, error: { kind: 'cancelled', message: 'm', output: '' } }) }), 0), 'cancelled after 1.00 s');
  assert.equal(runTooltip(base({ finished: finished({ error: { kind: 'noProfile', message: 'no file', output: '' } }) })),
    'PricingTest#discountIsFinite\nrecipe java-test\nprofile /w/.hotlines/a.jfr\nnoProfile: no file');
});

test('run durations follow the rule of durations (README "Units")', () => {
  assert.equal(runDuration(2700), '2.70 s');
  assert.equal(runDuration(850), '850.00 ms');
  assert.equal(runDuration(0), '0 ns');
  assert.equal(runDuration(61500), '61.50 s');
});

test('history: newest first, finished runs capped, running ones kept', () => {
  const runs = [1, 2, 3, 4].map((i) => base({ runId: `r${i}`, startedAt: i, finished: finished() }));
  runs.push(base({ runId: 'r0', startedAt: 0 })); // still running, oldest
  assert.deepEqual(trimHistory(runs, 2).map((r) => r.runId), ['r4', 'r3', 'r0']);
  assert.deepEqual(trimHistory(runs, 10).map((r) => r.runId), ['r4', 'r3', 'r2', 'r1', 'r0']);
});
