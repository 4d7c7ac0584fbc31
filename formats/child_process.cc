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

struct Pipe {
  int fd[2] = {-1, -1};
  bool open() { return pipe2(fd, O_CLOEXEC) == 0; }
  void close_end(int i) {
    if (fd[i] >= 0) ::close(fd[i]);
    fd[i] = -1;
  }
  ~Pipe() {
    close_end(0);
    close_end(1);
  }
};

} // namespace

ChildResult run_child(const std::vector<std::string> &argv, uint64_t max_stdout,
                      const std::atomic<bool> *cancel) {
  ChildResult r;
  Pipe out, err;
  if (argv.empty() || !out.open() || !err.open()) {
    r.error = argv.empty() ? "no command" : std::string("pipe: ") + strerror(errno);
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out.fd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err.fd[1], 2);
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    r.error = strerror(rc);
    return r;
  }
  r.started = true;
  out.close_end(1);
  err.close_end(1);
  bool killed = false;
  auto kill_child = [&] {
    if (!killed) kill(pid, SIGKILL);
    killed = true;
  };
  char buf[1 << 16];
  while (out.fd[0] >= 0 || err.fd[0] >= 0) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      r.cancelled = true;
      kill_child();
      break;
    }
    pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
    int n = poll(fds, 2, 100);
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got <= 0) {
        (i == 0 ? out : err).close_end(0);
        continue;
      }
      if (i == 0) {
        if (r.out.size() + static_cast<size_t>(got) > max_stdout) {
          r.truncated = true;
          kill_child();
          out.close_end(0);
          continue;
        }
        r.out.append(buf, static_cast<size_t>(got));
      } else {
        r.err.append(buf, static_cast<size_t>(got));
        if (r.err.size() > (64 << 10)) r.err.erase(0, r.err.size() - (64 << 10));
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

} // namespace hotlines
