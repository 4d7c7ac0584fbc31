// Narrowing a view's totals in place (see node_totals.h).
// Threading: One thread, on a vector it owns.
#include "server/engine/node_totals.h"

#include <sys/mman.h>

namespace hotlines {

NodeTotals::NodeTotals(std::vector<int64_t> wide) : wide_(std::move(wide)), size_(wide_.size()) {
  for (int64_t x : wide_)
    if (x < 0 || x > int64_t{UINT32_MAX}) return;
  // Total i goes to bytes [4i, 4i + 4), part of total i / 2, which was read by then.
  char *const b = reinterpret_cast<char *>(wide_.data());
  for (size_t i = 0; i < size_; i++) {
    const uint32_t x = static_cast<uint32_t>(wide_[i]);
    std::memcpy(b + 4 * i, &x, 4);
  }
  narrow_ = true;
  // The whole pages past the narrow totals go back; the vector keeps the (unused) room.
  constexpr uintptr_t kPage = 4096;
  const uintptr_t from = (reinterpret_cast<uintptr_t>(b) + 4 * size_ + kPage - 1) & ~(kPage - 1),
                  to = (reinterpret_cast<uintptr_t>(b) + 8 * wide_.capacity()) & ~(kPage - 1);
  if (to > from) madvise(reinterpret_cast<void *>(from), to - from, MADV_DONTNEED);
}

} // namespace hotlines
