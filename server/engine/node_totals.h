// NodeTotals: a view's total (subtree) weight per stack-tree node, which every query reads.
// In 4 bytes a node when the view's pass accumulated in 4 (weights_fit_32: a count view below
// 4 G samples, a value view whose weights sum below 4 G), else in 8: a tree of 14 M nodes holds
// its count view's totals in 57 MB, not 113.
// Threading: Immutable once built; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hotlines {

class NodeTotals {
public:
  NodeTotals() = default;
  // From the totals per node.
  explicit NodeTotals(std::vector<int64_t> wide) : wide_(std::move(wide)) {}
  explicit NodeTotals(std::vector<uint32_t> narrow)
      : narrow_(std::move(narrow)), is_narrow_(true) {}

  size_t size() const { return is_narrow_ ? narrow_.size() : wide_.size(); }
  int64_t operator[](size_t i) const { return is_narrow_ ? narrow_[i] : wide_[i]; }
  // Asks for node i's total ahead of reading it.
  void prefetch(size_t i) const {
    if (is_narrow_)
      __builtin_prefetch(narrow_.data() + i);
    else
      __builtin_prefetch(wide_.data() + i);
  }
  // Whether totals take 4 bytes a node.
  bool narrow() const { return is_narrow_; }

private:
  std::vector<uint32_t> narrow_;
  std::vector<int64_t> wide_;
  bool is_narrow_ = false;
};

} // namespace hotlines
