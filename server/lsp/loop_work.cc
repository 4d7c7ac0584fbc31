// LoopWork (see loop_work.h).
#include "server/lsp/loop_work.h"

#include <exception>
#include <new>
#include <optional>

namespace hotlines {

struct LoopWork::Item {
  uv_work_t req;
  std::function<void()> work;
  Done done;
  LoopWork *owner;
  std::optional<Failure> thrown; // set on the worker, read on the loop after it
};

namespace {
// What an exception says, for an internal error's message.
std::string reason(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc &) {
    return "out of memory";
  } catch (const Failure &f) {
    return f.message;
  } catch (const std::exception &x) {
    return x.what();
  } catch (...) {
    return "unknown exception";
  }
}
} // namespace

LoopWork::LoopWork(uv_loop_t *loop, bool sync) : loop_(loop), sync_(sync) {
  async_ = new uv_async_t;
  uv_async_init(loop_, async_, on_async);
  async_->data = this;
}

LoopWork::~LoopWork() = default;

void LoopWork::close() {
  if (!async_) return;
  on_async(async_); // run what is already posted
  uv_close(reinterpret_cast<uv_handle_t *>(async_),
           [](uv_handle_t *h) { delete reinterpret_cast<uv_async_t *>(h); });
  async_ = nullptr;
}

void LoopWork::run_work(Item *item) {
  try {
    item->work();
  } catch (...) {
    item->thrown.emplace(Failure::Kind::internal,
                         "internal error: " + reason(std::current_exception()));
  }
}

void LoopWork::finish(Item *item) {
  guarded([item] { item->done(item->thrown ? &*item->thrown : nullptr); });
  delete item;
  if (after_done_) guarded(after_done_);
}

void LoopWork::guarded(const std::function<void()> &fn) {
  try {
    fn();
  } catch (...) {
    if (on_uncaught_) on_uncaught_(reason(std::current_exception()));
  }
}

void LoopWork::queue(std::function<void()> work, Done done) {
  auto *item = new Item{{}, std::move(work), std::move(done), this, std::nullopt};
  if (sync_) {
    run_work(item);
    return finish(item);
  }
  item->req.data = item;
  pending_++;
  uv_queue_work(
      loop_, &item->req, [](uv_work_t *r) { run_work(static_cast<Item *>(r->data)); },
      [](uv_work_t *r, int) {
        auto *item = static_cast<Item *>(r->data);
        item->owner->pending_--;
        item->owner->finish(item);
      });
}

void LoopWork::post(std::function<void()> fn) {
  if (sync_) { // everything runs on the loop thread already
    guarded(fn);
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  posted_.push_back(std::move(fn));
  if (async_) uv_async_send(async_);
}

void LoopWork::on_async(uv_async_t *h) {
  auto *self = static_cast<LoopWork *>(h->data);
  std::vector<std::function<void()>> fns;
  {
    std::lock_guard<std::mutex> lock(self->mu_);
    fns.swap(self->posted_);
  }
  for (auto &f : fns) self->guarded(f);
}

} // namespace hotlines
