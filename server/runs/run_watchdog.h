// RunWatchdog: makes a server's runs die with it however it dies, SIGKILL included (a killed
// server runs no cleanup, and its runs lead their own process groups, so nothing else would
// reach them). A helper process, `hotlines __run-watchdog` in its own session, reads the
// process groups of running steps from a pipe ("+PGID\n" when a step starts, "-PGID\n" when
// it is gone); when the pipe ends — the server exited or was killed, the kernel closes its
// end — the helper SIGKILLs every group still listed and exits. The server side is a libuv
// handle pair that does not keep the loop alive. Threading: loop thread only.
#pragma once

#include <uv.h>

#include <string>

namespace hotlines {

class RunWatchdog {
public:
  explicit RunWatchdog(uv_loop_t *loop) : loop_(loop) {}
  // Closes the pipe: the helper kills what is still listed and exits.
  ~RunWatchdog();
  RunWatchdog(const RunWatchdog &) = delete;
  RunWatchdog &operator=(const RunWatchdog &) = delete;

  // Starts the helper (once); false with *error when it cannot.
  bool start(std::string *error);
  bool running() const { return pipe_ != nullptr; }
  void watch(int pgid) { say('+', pgid); }
  void unwatch(int pgid) { say('-', pgid); }

private:
  void say(char op, int pgid);
  uv_loop_t *loop_;
  uv_process_t *process_ = nullptr;
  uv_pipe_t *pipe_ = nullptr;
};

// The helper's main (`hotlines __run-watchdog`): reads stdin to its end, then kills the groups
// listed. Returns the exit code.
int run_watchdog_main();

} // namespace hotlines
