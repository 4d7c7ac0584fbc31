// Runs a helper program and reads its output as it is printed: how the perf.data reader runs
// `perf script`. posix_spawnp with stdout and stderr on pipes (stdin /dev/null), read with
// poll(); the caller's cancel flag is polled every 100 ms while waiting and kills the child.
// Blocking: use it from a worker thread, never from the server's loop thread. One thread uses
// a ChildProcess (no shared state).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace hotlines {

// How the child ended.
struct ChildResult {
  bool started = false;   // false: spawn failed (`error` says why, e.g. not found)
  bool cancelled = false; // the cancel flag was set; the child was killed
  bool truncated = false; // stdout passed max_stdout; the child was killed
  bool killed = false;    // killed by us: cancelled, truncated, or its output left unread
  int exit_code = -1;     // when it exited
  int signal = 0;         // the signal that ended it, 0 if none
  std::string err;        // stderr (its last 64 KiB)
  std::string error;      // spawn error
};

class ChildProcess {
public:
  // Starts argv[0] (looked up on PATH); at most max_stdout bytes of its stdout are read.
  ChildProcess(const std::vector<std::string> &argv, uint64_t max_stdout,
               const std::atomic<bool> *cancel);
  // Kills the child if it still runs, and waits for it.
  ~ChildProcess();
  ChildProcess(const ChildProcess &) = delete;
  ChildProcess &operator=(const ChildProcess &) = delete;

  // False when the spawn failed; spawn_error() says why.
  bool started() const { return r_.started; }
  const std::string &spawn_error() const { return r_.error; }
  // Appends the next bytes of stdout to `*out`, waiting for them (stderr is collected
  // meanwhile); false at the end of stdout, or when cancelled or past max_stdout (the child is
  // killed then; finish() says which).
  bool read_stdout(std::string *out);
  // Kills the child if its stdout has not ended, waits for it and says how it ended.
  const ChildResult &finish();

private:
  bool read_err();
  void kill_child();

  ChildResult r_;
  int pid_ = -1;
  int out_fd_ = -1, err_fd_ = -1;
  uint64_t max_stdout_, read_ = 0;
  const std::atomic<bool> *cancel_;
  bool reaped_ = false;
};

} // namespace hotlines
