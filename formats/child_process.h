// Runs a helper program to completion and collects its output: how the perf.data reader runs
// `perf script`. posix_spawnp with stdout and stderr on pipes (stdin /dev/null), read with
// poll(); the caller's cancel flag is polled every 100 ms and kills the child. Blocking: call
// it from a worker thread, never from the server's loop thread. Thread-safe (no shared state).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace hotlines {

struct ChildResult {
  bool started = false;   // false: spawn failed (`error` says why, e.g. not found)
  bool cancelled = false; // the cancel flag was set; the child was killed
  bool truncated = false; // stdout passed max_stdout; the child was killed
  int exit_code = -1;     // when it exited
  int signal = 0;         // the signal that ended it, 0 if none
  std::string out, err;   // stdout (up to max_stdout), stderr (its last 64 KiB)
  std::string error;      // spawn error
};

ChildResult run_child(const std::vector<std::string> &argv, uint64_t max_stdout,
                      const std::atomic<bool> *cancel);

} // namespace hotlines
