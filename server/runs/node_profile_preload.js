// hotlines' CPU profile preload for Node: `node --require THIS` (through NODE_OPTIONS, so that
// npm, test runners and their child processes all load it) profiles the process it is loaded in
// with the inspector's Profiler, as `node --cpu-prof` would (which Node refuses in NODE_OPTIONS),
// and writes on exit, into the folder $HOTLINES_CPUPROFILE_DIR:
//   hotlines-<pid>-<thread>-<ms>.cpuprofile   the profile (V8's JSON, as --cpu-prof writes it)
//   hotlines-<pid>-<thread>-<ms>.scripts.json {"scripts": [{"url", "sourceMapURL"}]}: the
//     source map URL each script was compiled with (Debugger.scriptParsed), for code that a
//     runner transformed in memory (babel-jest, Vitest) and whose map is not in the file on disk.
// Written by hotlines for its runs (server/runs/node_preload.h embeds it); it changes nothing
// else in the process and fails silently: a run must not break because profiling could not
// start. Runs on the thread that loads it (the main thread or a worker).
'use strict';
(function hotlinesProfile() {
  const dir = process.env.HOTLINES_CPUPROFILE_DIR;
  if (!dir) return;
  let session;
  try {
    const inspector = require('node:inspector');
    session = new inspector.Session();
    session.connect();
  } catch {
    return;
  }
  const scripts = new Map(); // url -> sourceMapURL, for scripts compiled with a map
  session.on('Debugger.scriptParsed', (message) => {
    const p = message.params;
    if (p && p.url && p.sourceMapURL) scripts.set(p.url, p.sourceMapURL);
  });
  const post = (method, params) => session.post(method, params, () => {});
  post('Debugger.enable');
  post('Profiler.enable');
  post('Profiler.setSamplingInterval', { interval: 1000 }); // µs, --cpu-prof-interval's default
  post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // The inspector answers a session of its own thread synchronously: the callback runs
    // before post returns.
    session.post('Profiler.stop', (error, result) => {
      if (error || !result || !result.profile) return;
      try {
        const fs = require('node:fs');
        const path = require('node:path');
        const { threadId } = require('node:worker_threads');
        const base = path.join(dir, `hotlines-${process.pid}-${threadId}-${Date.now()}`);
        fs.mkdirSync(dir, { recursive: true });
        const list = [...scripts].map(([url, sourceMapURL]) => ({ url, sourceMapURL }));
        fs.writeFileSync(`${base}.scripts.json`, JSON.stringify({ scripts: list }));
        fs.writeFileSync(`${base}.cpuprofile`, JSON.stringify(result.profile));
      } catch {
        // nowhere to say it: the run's missing profile tells
      }
    });
  };
  process.on('exit', write);
  // Pools end their child processes with SIGTERM (Vitest's tinypool), which skips 'exit'. When
  // no one else listens, the profile is written and the signal raised again as it came, so the
  // process still ends by it.
  const onTerm = () => {
    if (process.listenerCount('SIGTERM') > 1) return;
    write();
    process.removeListener('SIGTERM', onTerm);
    process.kill(process.pid, 'SIGTERM');
  };
  process.on('SIGTERM', onTerm);
})();
