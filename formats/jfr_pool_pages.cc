// Stack-trace pool pages given back and read again (see jfr_pool_pages.h).
#include "formats/jfr_pool_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace hotlines {

JfrPoolPages::JfrPoolPages(char *bytes, size_t n, std::vector<JfrConstantPools::Range> ranges,
                           Reread reread, bool unread, bool keep)
    : bytes_(bytes), size_(n), ranges_(std::move(ranges)),
      state_(std::make_unique<std::atomic<uint8_t>[]>(ranges_.size())), reread_(std::move(reread)),
      keep_(keep) {
  for (size_t i = 0; i < ranges_.size(); i++)
    state_[i].store(unread ? State::unread : resident, std::memory_order_relaxed);
}

void JfrPoolPages::populate(char *p, size_t n) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t b = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
  const uintptr_t e = reinterpret_cast<uintptr_t>(p) + n;
  if (n > 0) madvise(reinterpret_cast<void *>(b), e - b, MADV_POPULATE_WRITE);
}

void JfrPoolPages::whole_pages(const char *bytes, size_t n, JfrConstantPools::Range r,
                               size_t *begin, size_t *end) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t base = reinterpret_cast<uintptr_t>(bytes);
  const size_t last = std::min(r.end, n);
  const uintptr_t b = (base + r.begin + page - 1) & ~(page - 1);
  const uintptr_t e = (base + last) & ~(page - 1);
  *begin = *end = 0;
  if (r.begin < last && e > b) {
    *begin = b - base;
    *end = e - base;
  }
}

bool JfrPoolPages::ensure(size_t offset) {
  // The range that holds `offset`: the last that begins at or before it.
  auto it =
      std::upper_bound(ranges_.begin(), ranges_.end(), offset,
                       [](size_t off, const JfrConstantPools::Range &r) { return off < r.begin; });
  if (it == ranges_.begin()) return true;
  const size_t i = static_cast<size_t>(it - ranges_.begin()) - 1;
  auto absent = [&](std::memory_order order) {
    const uint8_t st = state_[i].load(order);
    return st == given_back || st == State::unread;
  };
  if (offset >= ranges_[i].end || !absent(std::memory_order_acquire)) return true;
  std::lock_guard<std::mutex> lock(reread_mu_);
  if (!absent(std::memory_order_relaxed)) return true;
  if (!error_.empty()) return false;
  size_t begin, end;
  pages(i, &begin, &end);
  populate(bytes_ + begin, end - begin);
  if (!reread_(begin, end - begin, bytes_ + begin, &error_)) {
    if (error_.empty()) error_ = "cannot read the file again";
    error_offset_ = static_cast<int64_t>(begin);
    return false;
  }
  reread_bytes_.fetch_add(end - begin, std::memory_order_relaxed);
  const bool first = state_[i].load(std::memory_order_relaxed) == State::unread;
  state_[i].store(keep_ && !first ? kept : resident, std::memory_order_release);
  return true;
}

size_t JfrPoolPages::give_back(size_t i) {
  const uint8_t st = state_[i].load(std::memory_order_relaxed);
  if (st != resident && st != State::unread) return 0;
  size_t begin, end;
  pages(i, &begin, &end);
  if (end == begin || madvise(bytes_ + begin, end - begin, MADV_DONTNEED) != 0) return 0;
  if (st == resident) state_[i].store(given_back, std::memory_order_release);
  return end - begin;
}

size_t JfrPoolPages::release_before(size_t offset, bool wait) {
  std::unique_lock<std::shared_mutex> lock(mu_, std::defer_lock);
  if (wait)
    lock.lock();
  else if (!lock.try_lock())
    return 0;
  size_t released = 0;
  // The last range behind `offset` stays: events written after a checkpoint still use its
  // stacks (a thread's buffer of events is written after the checkpoint that holds the stacks
  // they recorded), until the next checkpoint.
  for (; next_ + 1 < ranges_.size() && ranges_[next_ + 1].end <= offset; next_++)
    released += give_back(next_);
  return released;
}

void JfrPoolPages::release_all() {
  std::unique_lock<std::shared_mutex> lock(mu_);
  for (size_t i = 0; i < ranges_.size(); i++) give_back(i);
}

std::string JfrPoolPages::error() const {
  std::lock_guard<std::mutex> lock(reread_mu_);
  return error_;
}

int64_t JfrPoolPages::error_offset() const {
  std::lock_guard<std::mutex> lock(reread_mu_);
  return error_offset_;
}

} // namespace hotlines
