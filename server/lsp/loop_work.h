// Running work off the loop: LoopWork::queue runs `work` on a libuv worker thread
// (uv_queue_work) and then `done` on the loop thread; post() hands a closure from any thread
// to the loop thread (uv_async). In sync mode (deterministic tests) both run inline.
// Nothing thrown escapes: an exception from `work` (bad_alloc included) reaches `done` as an
// internal Failure with its reason, and one from `done` or a posted closure goes to the
// uncaught-error handler (the server logs it), so no job can take the process down.
#pragma once

#include "server/lsp/failure.h"

#include <uv.h>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace hotlines {

class LoopWork {
public:
  // `thrown` is null when `work` returned; otherwise why it threw, and whatever `work` left
  // half-filled must not be used.
  using Done = std::function<void(const Failure *thrown)>;

  LoopWork(uv_loop_t *loop, bool sync);
  ~LoopWork();

  void queue(std::function<void()> work, Done done);
  // Thread-safe; `fn` runs on the loop thread soon after.
  void post(std::function<void()> fn);
  size_t pending() const { return pending_; }
  // Runs after every `done` (e.g. to finish a server that waits for its last work).
  void set_after_done(std::function<void()> fn) { after_done_ = std::move(fn); }
  // Told (on the loop thread) what a `done` or a posted closure threw.
  void set_on_uncaught(std::function<void(const std::string &)> fn) {
    on_uncaught_ = std::move(fn);
  }
  uv_loop_t *loop() const { return loop_; }
  // Closes the async handle; call once when the loop should be allowed to end.
  void close();

private:
  struct Item;
  static void on_async(uv_async_t *);
  static void run_work(Item *item);
  void finish(Item *item);
  // Runs `fn` on the loop thread, reporting what it throws.
  void guarded(const std::function<void()> &fn);
  uv_loop_t *loop_;
  bool sync_;
  uv_async_t *async_ = nullptr;
  std::mutex mu_;
  std::vector<std::function<void()>> posted_;
  size_t pending_ = 0;
  std::function<void()> after_done_;
  std::function<void(const std::string &)> on_uncaught_;
};

} // namespace hotlines
