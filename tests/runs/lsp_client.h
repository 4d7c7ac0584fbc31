// A minimal JSON-RPC client for tests: starts the real `hotlines serve` with pipes, sends
// framed requests and notifications, and reads messages with a deadline, keeping the
// notifications it passes on the way. Single-threaded; one per test.
#pragma once

#include "protocol/framing.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <functional>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace hotlines::test {

using json = nlohmann::json;

class LspClient {
public:
  // Starts `binary serve`; its stderr goes to `stderr_path`.
  LspClient(const std::string &binary, const std::string &stderr_path) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    std::vector<char *> argv = {const_cast<char *>(binary.c_str()), const_cast<char *>("serve"),
                                nullptr};
    posix_spawn(&pid_, binary.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~LspClient() {
    if (to_ >= 0) close(to_);
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (from_ >= 0) close(from_);
  }

  int request(const std::string &method, const json &params) {
    int id = next_id_++;
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
    return id;
  }
  void notify(const std::string &method, const json &params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
  }
  void close_input() {
    close(to_);
    to_ = -1;
  }

  // The response to `id` (result or error object), or null on timeout.
  json response(int id, double seconds = 30) {
    json found;
    wait_for(
        [&](const json &m) {
          if (m.contains("id") && m["id"] == id && !m.contains("method")) {
            found = m;
            return true;
          }
          return false;
        },
        seconds);
    return found;
  }
  json result(int id, double seconds = 30) {
    json r = response(id, seconds);
    EXPECT_TRUE(r.contains("result")) << r.dump();
    return r.contains("result") ? r["result"] : json();
  }
  // The first notification `method` (already seen or still to come) matching `pred`.
  json notification(const std::string &method, const std::function<bool(const json &)> &pred,
                    double seconds) {
    for (const json &n : seen_)
      if (n["method"] == method && pred(n["params"])) return n["params"];
    json found;
    wait_for(
        [&](const json &m) {
          if (m.value("method", "") == method && pred(m["params"])) {
            found = m["params"];
            return true;
          }
          return false;
        },
        seconds);
    return found;
  }
  const std::vector<json> &seen() const { return seen_; }
  pid_t pid() const { return pid_; }

  // Waits for the server to exit; returns its exit code, or -1 on timeout.
  int wait_exit(double seconds) {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
      int status;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      usleep(20000);
    }
    return -1;
  }

private:
  void send(const json &msg) {
    std::string framed = frame_message(msg.dump());
    for (size_t off = 0; off < framed.size();) {
      ssize_t n = write(to_, framed.data() + off, framed.size() - off);
      if (n <= 0) return;
      off += size_t(n);
    }
  }
  // Reads messages (keeping notifications in seen_) until `stop` says so or time runs out.
  void wait_for(const std::function<bool(const json &)> &stop, double seconds) {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (true) {
      std::string body, error;
      while (reader_.next(&body, &error) == MessageReader::Status::message) {
        json m = json::parse(body);
        if (m.contains("method")) seen_.push_back(m);
        if (stop(m)) return;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          end - std::chrono::steady_clock::now());
      if (left.count() <= 0) return;
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return;
      char buf[65536];
      ssize_t n = read(from_, buf, sizeof buf);
      if (n <= 0) return;
      reader_.feed(std::string_view(buf, size_t(n)));
    }
  }

  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  bool reaped_ = false;
  int next_id_ = 1;
  MessageReader reader_;
  std::vector<json> seen_;
};

} // namespace hotlines::test
