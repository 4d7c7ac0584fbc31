// LoopWork (see loop_work.h).
#include "server/lsp/loop_work.h"

namespace hotlines {

namespace {
struct WorkItem {
  uv_work_t req;
  std::function<void()> work, done;
  LoopWork *owner;
};
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

void LoopWork::queue(std::function<void()> work, std::function<void()> done) {
  if (sync_) {
    work();
    done();
    if (after_done_) after_done_();
    return;
  }
  auto *item = new WorkItem{{}, std::move(work), std::move(done), this};
  item->req.data = item;
  pending_++;
  uv_queue_work(
      loop_, &item->req, [](uv_work_t *r) { static_cast<WorkItem *>(r->data)->work(); },
      [](uv_work_t *r, int) {
        auto *it = static_cast<WorkItem *>(r->data);
        it->owner->pending_--;
        it->done();
        LoopWork *owner = it->owner;
        delete it;
        if (owner->after_done_) owner->after_done_();
      });
}

void LoopWork::post(std::function<void()> fn) {
  if (sync_) { // everything runs on the loop thread already
    fn();
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
  for (auto &f : fns) f();
}

} // namespace hotlines
