// A chunk's bytes read as a walk reaches them (see jfr_unread_bytes.h).
#include "formats/jfr_unread_bytes.h"

#include <sys/mman.h>

#include <algorithm>
#include <system_error>

namespace hotlines {

using Range = JfrConstantPools::Range;

JfrUnreadBytes::JfrUnreadBytes(char *bytes, size_t n, const std::vector<Range> &skipped,
                               JfrPoolPages::Reread reread, size_t ahead, bool read_ahead)
    : bytes_(bytes), size_(n), reread_(std::move(reread)), ahead_(std::max<size_t>(ahead, 1)),
      read_ahead_(read_ahead) {
  for (const Range &r : skipped) {
    size_t begin, end;
    JfrPoolPages::whole_pages(bytes, n, r, &begin, &end);
    if (begin < end && (unread_.empty() || unread_.back().end <= begin))
      unread_.push_back(Range{begin, end});
  }
}

JfrUnreadBytes::~JfrUnreadBytes() {
  if (reader_.joinable()) reader_.join();
}

namespace {
// The first of the sorted ranges that ends after pos.
template <class Ranges> auto first_after(Ranges &ranges, size_t pos) {
  return std::upper_bound(ranges.begin(), ranges.end(), pos,
                          [](size_t p, const Range &r) { return p < r.end; });
}
} // namespace

size_t JfrUnreadBytes::readable_end(size_t pos, size_t limit) const {
  if (pending_.begin < pending_.end && pos < pending_.end)
    limit = std::min(limit, std::max(pos, pending_.begin)); // being read
  auto it = first_after(unread_, pos);
  if (it == unread_.end()) return limit;
  return std::min(limit, std::max(pos, it->begin));
}

void JfrUnreadBytes::take_read_ahead() {
  if (!reader_.joinable()) return;
  reader_.join();
  if (!pending_ok_) { // unread again, in order: the ranges around it are apart from it
    auto it = first_after(unread_, pending_.begin);
    unread_.insert(it, pending_);
  }
  pending_ = Range{};
}

void JfrUnreadBytes::begin_read_ahead(size_t pos) {
  auto it = first_after(unread_, pos);
  if (it == unread_.end()) return;
  const Range r = *it;
  const size_t b = std::max(pos, r.begin), e = std::min(r.end, b + ahead_);
  pending_ok_ = true;
  try {
    reader_ = std::thread([this, b, e] {
      JfrPoolPages::populate(bytes_ + b, e - b);
      std::string error; // ensure() reads the bytes again and reports it
      pending_ok_ = reread_(b, e - b, bytes_ + b, &error);
    });
  } catch (const std::system_error &) {
    return; // no thread: ensure() reads the bytes when they are needed
  }
  pending_ = Range{b, e};
  it = unread_.erase(it);
  if (e < r.end) it = unread_.insert(it, Range{e, r.end});
  if (r.begin < b) unread_.insert(it, Range{r.begin, b});
}

bool JfrUnreadBytes::ensure(size_t begin, size_t end, std::string *error, bool read_ahead) {
  take_read_ahead();
  if (read_ahead) end = std::max(end, begin + ahead_);
  std::vector<Range> left;
  for (const Range &r : unread_) {
    const size_t b = std::max(r.begin, begin), e = std::min(r.end, end);
    if (b >= e) {
      left.push_back(r);
      continue;
    }
    JfrPoolPages::populate(bytes_ + b, e - b);
    if (!reread_(b, e - b, bytes_ + b, error)) {
      if (error->empty()) *error = "cannot read the file again";
      return false;
    }
    if (r.begin < b) left.push_back(Range{r.begin, b});
    if (e < r.end) left.push_back(Range{e, r.end});
  }
  unread_ = std::move(left);
  if (read_ahead && read_ahead_) begin_read_ahead(end);
  return true;
}

void JfrUnreadBytes::give_back(size_t begin, size_t end) {
  size_t b, e;
  JfrPoolPages::whole_pages(bytes_, size_, Range{begin, end}, &b, &e);
  if (b >= e) return;
  if (pending_.begin < e && b < pending_.end) take_read_ahead(); // not behind a walk
  // The pages in memory of [b, e): those between the unread ranges.
  size_t at = b;
  auto discard = [&](size_t end) {
    if (at < end && madvise(bytes_ + at, end - at, MADV_DONTNEED) == 0) given_back_ += end - at;
  };
  for (const Range &r : unread_) {
    if (r.end <= at) continue;
    if (r.begin >= e) break;
    discard(r.begin);
    at = std::max(at, r.end);
  }
  discard(e);
  // Merged into the unread ranges, which stay sorted and apart.
  std::vector<Range> merged;
  Range add{b, e};
  bool placed = false;
  for (const Range &r : unread_) {
    if (r.end < add.begin) {
      merged.push_back(r);
    } else if (add.end < r.begin) {
      if (!placed) merged.push_back(add);
      placed = true;
      merged.push_back(r);
    } else {
      add = Range{std::min(add.begin, r.begin), std::max(add.end, r.end)};
    }
  }
  if (!placed) merged.push_back(add);
  unread_ = std::move(merged);
}

} // namespace hotlines
