// Running work off the loop: LoopWork::queue runs `work` on a libuv worker thread
// (uv_queue_work) and then `done` on the loop thread; post() hands a closure from any thread
// to the loop thread (uv_async). In sync mode (deterministic tests) both run inline.
#pragma once

#include <uv.h>

#include <functional>
#include <mutex>
#include <vector>

namespace hotlines {

class LoopWork {
public:
  LoopWork(uv_loop_t *loop, bool sync);
  ~LoopWork();

  void queue(std::function<void()> work, std::function<void()> done);
  // Thread-safe; `fn` runs on the loop thread soon after.
  void post(std::function<void()> fn);
  size_t pending() const { return pending_; }
  // Runs after every `done` (e.g. to finish a server that waits for its last work).
  void set_after_done(std::function<void()> fn) { after_done_ = std::move(fn); }
  uv_loop_t *loop() const { return loop_; }
  // Closes the async handle; call once when the loop should be allowed to end.
  void close();

private:
  static void on_async(uv_async_t *);
  uv_loop_t *loop_;
  bool sync_;
  uv_async_t *async_ = nullptr;
  std::mutex mu_;
  std::vector<std::function<void()>> posted_;
  size_t pending_ = 0;
  std::function<void()> after_done_;
};

} // namespace hotlines
