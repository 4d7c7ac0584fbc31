// RunManager: executes RunPlans with libuv. Each step is uv_spawn'ed from its argv (no
// shell) as the leader of its own process group (UV_PROCESS_DETACHED), so cancel, timeout and
// server exit kill the whole group (kill(-pid)); leftovers of a finished step are killed too.
// A RunWatchdog lists the groups running, so they die with the server even when it is killed.
// A main step that fails (nonzero exit or a signal) skips the main steps after it: a build
// that fails stops the run before the program starts. Output streams back as UTF-8 text; the
// outcome comes once, after the last step (cleanup steps included). Threading: loop thread only;
// callbacks run on the loop thread, never from inside start(), cancel() or kill_all().
#pragma once

#include "server/runs/output_decoder.h"
#include "server/runs/run_plan.h"
#include "server/runs/run_watchdog.h"

#include <uv.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace hotlines {

class RunManager {
public:
  struct Callbacks {
    // stream: "stdout", "stderr" or "hotlines" (the server's own lines).
    std::function<void(const std::string &stream, const std::string &text)> output;
    std::function<void(RunOutcome outcome)> finished;
  };

  explicit RunManager(uv_loop_t *loop);
  // Kills what still runs (SIGKILL to each group); handles close on their own.
  ~RunManager();
  RunManager(const RunManager &) = delete;
  RunManager &operator=(const RunManager &) = delete;

  std::string new_id(); // "r1", "r2", …
  // Starts the plan's first step (files are the caller's). timeout_ms 0 = none.
  void start(const std::string &id, RunPlan plan, int64_t timeout_ms, Callbacks callbacks);
  // Stops a run: SIGTERM to its process group, SIGKILL after `grace_ms`; cleanup steps still
  // run. False when no such run is active.
  bool cancel(const std::string &id, int64_t grace_ms = 2000);
  // Cancels every run with SIGKILL at once (server exit).
  void kill_all();
  size_t active() const { return runs_.size(); }

  struct Run;   // one run's state (run_manager.cc)
  struct Child; // one spawned step

private:
  void next_step(Run *run);
  void spawn(Run *run);
  void step_done(Run *run);
  void stop(Run *run, bool timed_out, int64_t grace_ms);
  void finish(Run *run);
  static void on_exit(uv_process_t *, int64_t status, int term_signal);
  static void on_alloc(uv_handle_t *, size_t, uv_buf_t *);
  static void on_read(uv_stream_t *, ssize_t, const uv_buf_t *);
  void child_progress(Child *child);

  uv_loop_t *loop_;
  RunWatchdog watchdog_;         // started with the first step
  bool watchdog_failed_ = false; // said once; runs go on unguarded
  std::map<std::string, std::unique_ptr<Run>> runs_;
  uint64_t next_id_ = 1;
};

} // namespace hotlines
