// Helper processes (see child_process.h).
#include "formats/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char **environ;

namespace hotlines {

namespace {

void close_fd(int *fd) {
  if (*fd >= 0) ::close(*fd);
  *fd = -1;
}

} // namespace

ChildProcess::ChildProcess(const std::vector<std::string> &argv, uint64_t max_stdout,
                           const std::atomic<bool> *cancel)
    : max_stdout_(max_stdout), cancel_(cancel) {
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  if (argv.empty() || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    r_.error = argv.empty() ? "no command" : std::string("pipe: ") + strerror(errno);
    for (int *fd : {&out[0], &out[1], &err[0], &err[1]}) close_fd(fd);
    return;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close_fd(&out[1]);
  close_fd(&err[1]);
  out_fd_ = out[0];
  err_fd_ = err[0];
  if (rc != 0) {
    r_.error = strerror(rc);
    close_fd(&out_fd_);
    close_fd(&err_fd_);
    return;
  }
  r_.started = true;
  pid_ = pid;
}

ChildProcess::~ChildProcess() {
  finish();
}

void ChildProcess::kill_child() {
  if (!r_.killed && pid_ > 0) kill(pid_, SIGKILL);
  r_.killed = true;
  close_fd(&out_fd_);
}

// Reads what stderr has, keeping its last 64 KiB; false at its end.
bool ChildProcess::read_err() {
  char buf[1 << 12];
  ssize_t got = read(err_fd_, buf, sizeof buf);
  if (got <= 0) return false;
  r_.err.append(buf, static_cast<size_t>(got));
  if (r_.err.size() > (64 << 10)) r_.err.erase(0, r_.err.size() - (64 << 10));
  return true;
}

// Waits for output on either pipe and reads what came; true when stdout gave bytes.
bool ChildProcess::read_stdout(std::string *out) {
  char buf[1 << 16];
  for (;;) {
    if (out_fd_ < 0) return false;
    if (cancel_ && cancel_->load(std::memory_order_relaxed)) {
      r_.cancelled = true;
      kill_child();
      return false;
    }
    pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
    int n = poll(fds, 2, 100);
    if (n < 0 && errno != EINTR) {
      kill_child();
      return false;
    }
    if (err_fd_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      if (!read_err()) close_fd(&err_fd_);
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    ssize_t got = read(out_fd_, buf, sizeof buf);
    if (got <= 0) {
      close_fd(&out_fd_);
      return false;
    }
    if (read_ + static_cast<uint64_t>(got) > max_stdout_) {
      r_.truncated = true;
      kill_child();
      return false;
    }
    read_ += static_cast<uint64_t>(got);
    out->append(buf, static_cast<size_t>(got));
    return true;
  }
}

const ChildResult &ChildProcess::finish() {
  if (reaped_ || pid_ <= 0) return r_;
  if (out_fd_ >= 0) kill_child(); // stdout not read to its end: the reader stopped early
  // The rest of stderr, for perf's message when it failed (it ends when the child does).
  while (err_fd_ >= 0) {
    if (cancel_ && cancel_->load(std::memory_order_relaxed) && !r_.killed) {
      r_.cancelled = true;
      kill_child();
    }
    pollfd fd = {err_fd_, POLLIN, 0};
    if (poll(&fd, 1, 100) < 0 && errno != EINTR) break;
    if ((fd.revents & (POLLIN | POLLHUP | POLLERR)) && !read_err()) break;
  }
  close_fd(&err_fd_);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  if (WIFEXITED(status)) r_.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r_.signal = WTERMSIG(status);
  return r_;
}

} // namespace hotlines
