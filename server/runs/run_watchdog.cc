// RunWatchdog (see run_watchdog.h).
#include "server/runs/run_watchdog.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <set>
#include <unistd.h>

namespace hotlines {

namespace {

void close_and_delete_pipe(uv_handle_t *h) {
  delete reinterpret_cast<uv_pipe_t *>(h);
}

} // namespace

RunWatchdog::~RunWatchdog() {
  if (pipe_) {
    // Pending writes are dropped; whatever is still listed is killed, which is what a server
    // going away wants anyway.
    uv_close(reinterpret_cast<uv_handle_t *>(pipe_), close_and_delete_pipe);
    pipe_ = nullptr;
  }
  if (process_) {
    process_->data = nullptr;
    uv_close(reinterpret_cast<uv_handle_t *>(process_),
             [](uv_handle_t *h) { delete reinterpret_cast<uv_process_t *>(h); });
    process_ = nullptr;
  }
}

bool RunWatchdog::start(std::string *error) {
  if (pipe_) return true;
  char exe[4096];
  size_t size = sizeof exe;
  if (int rc = uv_exepath(exe, &size); rc != 0) {
    *error = std::string("cannot find the hotlines executable: ") + uv_strerror(rc);
    return false;
  }
  auto *pipe = new uv_pipe_t;
  uv_pipe_init(loop_, pipe, 0);
  auto *process = new uv_process_t;
  process->data = this;
  char arg[] = "__run-watchdog";
  char *args[] = {exe, arg, nullptr};
  uv_stdio_container_t stdio[3];
  // The pipe's ends are close-on-exec: runs spawned later do not hold it open.
  stdio[0].flags = static_cast<uv_stdio_flags>(UV_CREATE_PIPE | UV_READABLE_PIPE);
  stdio[0].data.stream = reinterpret_cast<uv_stream_t *>(pipe);
  stdio[1].flags = UV_IGNORE;
  stdio[2].flags = UV_INHERIT_FD;
  stdio[2].data.fd = 2;
  uv_process_options_t options{};
  options.file = exe;
  options.args = args;
  options.cwd = "/";
  // Its own session: a signal to the server's process group (Ctrl-C in a terminal) leaves it to
  // do its job.
  options.flags = UV_PROCESS_DETACHED;
  options.stdio_count = 3;
  options.stdio = stdio;
  options.exit_cb = [](uv_process_t *p, int64_t, int) {
    if (auto *self = static_cast<RunWatchdog *>(p->data)) {
      // Gone early (killed by hand): runs lose their guard, nothing else changes.
      uv_close(reinterpret_cast<uv_handle_t *>(self->pipe_), close_and_delete_pipe);
      self->pipe_ = nullptr;
      uv_close(reinterpret_cast<uv_handle_t *>(p),
               [](uv_handle_t *h) { delete reinterpret_cast<uv_process_t *>(h); });
      self->process_ = nullptr;
    }
  };
  if (int rc = uv_spawn(loop_, process, &options); rc != 0) {
    *error = std::string("cannot start the run watchdog: ") + uv_strerror(rc);
    uv_close(reinterpret_cast<uv_handle_t *>(pipe), close_and_delete_pipe);
    uv_close(reinterpret_cast<uv_handle_t *>(process),
             [](uv_handle_t *h) { delete reinterpret_cast<uv_process_t *>(h); });
    return false;
  }
  // Neither keeps the loop running: the server ends when its work does, which ends the helper.
  uv_unref(reinterpret_cast<uv_handle_t *>(pipe));
  uv_unref(reinterpret_cast<uv_handle_t *>(process));
  pipe_ = pipe;
  process_ = process;
  return true;
}

void RunWatchdog::say(char op, int pgid) {
  if (!pipe_ || pgid <= 1) return;
  struct Write {
    uv_write_t req{};
    std::string line;
  };
  auto *w = new Write;
  w->line = op + std::to_string(pgid) + "\n";
  w->req.data = w;
  uv_buf_t buf = uv_buf_init(w->line.data(), static_cast<unsigned>(w->line.size()));
  if (uv_write(&w->req, reinterpret_cast<uv_stream_t *>(pipe_), &buf, 1,
               [](uv_write_t *req, int) { delete static_cast<Write *>(req->data); }) != 0)
    delete w;
}

int run_watchdog_main() {
  // Only the end of the pipe ends it: not the terminal's signals, not a closed stderr.
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  std::set<int> groups;
  std::string pending;
  char buf[4096];
  for (;;) {
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buf, static_cast<size_t>(n));
    for (size_t eol; (eol = pending.find('\n')) != std::string::npos; pending.erase(0, eol + 1)) {
      if (eol < 2 || (pending[0] != '+' && pending[0] != '-')) continue;
      int pgid = atoi(pending.c_str() + 1);
      if (pgid <= 1) continue;
      if (pending[0] == '+')
        groups.insert(pgid);
      else
        groups.erase(pgid);
    }
  }
  for (int pgid : groups) kill(-pgid, SIGKILL);
  return 0;
}

} // namespace hotlines
