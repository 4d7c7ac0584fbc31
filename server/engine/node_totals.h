// NodeTotals: a view's total (subtree) weight per stack-tree node, which every query reads.
// Kept in 4 bytes a node when every total is in [0, 2^32) — a count view always is, below 4 G
// samples — else in 8: a tree of 14 M nodes holds its count view's totals in 57 MB, not 113.
// The narrow totals are written over the wide ones in place and the pages past them given
// back, so the two never coexist.
// Threading: Immutable once built; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace hotlines {

class NodeTotals {
public:
  NodeTotals() = default;
  // From the totals per node.
  explicit NodeTotals(std::vector<int64_t> wide);

  size_t size() const { return size_; }
  int64_t operator[](size_t i) const {
    if (!narrow_) return wide_[i];
    uint32_t x;
    std::memcpy(&x, bytes() + 4 * i, 4);
    return x;
  }
  // Asks for node i's total ahead of reading it.
  void prefetch(size_t i) const { __builtin_prefetch(bytes() + (narrow_ ? 4 : 8) * i); }
  // Whether totals take 4 bytes a node.
  bool narrow() const { return narrow_; }

private:
  const char *bytes() const { return reinterpret_cast<const char *>(wide_.data()); }

  std::vector<int64_t> wide_; // when narrow_, its first 4 * size_ bytes hold the totals
  size_t size_ = 0;
  bool narrow_ = false;
};

} // namespace hotlines
