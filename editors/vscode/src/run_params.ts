// hotlines/run params as the extension sends them: the server's ready-made params from
// hotlines/testsInFile plus what settings add. Pure (test/run_params.test.ts).
import type * as P from './protocol';

// A java-test run with the `hotlines.runs.buildArgs` setting appended to its Maven/Gradle args.
export function withBuildArgs(run: P.RunParams, extra: string[]): P.RunParams {
  if (run.recipe !== 'java-test' || !extra.length) return run;
  const own = Array.isArray(run.buildArgs) ? (run.buildArgs as string[]) : [];
  return { ...run, buildArgs: [...own, ...extra] };
}
