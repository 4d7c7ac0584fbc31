// NodeFlags: one bit per stack-tree node, 64 to a word: the first-on-path flags a query sums
// with (key_map.h). A tree of 14 M nodes keeps each map's flags in 1.8 MB instead of 14 MB,
// and an editor's index keeps three maps' flags for as long as the profile is open.
// Threading: set() writes a word shared with 63 other nodes, so one thread builds; immutable
// once built, then read from any thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hotlines {

class NodeFlags {
public:
  NodeFlags() = default;
  explicit NodeFlags(size_t n) : words_((n + 63) / 64, 0), size_(n) {}
  // bytes[i] != 0 for each i.
  static NodeFlags of_bytes(std::span<const uint8_t> bytes) {
    NodeFlags f(bytes.size());
    for (size_t w = 0; w < f.words_.size(); w++) {
      const size_t begin = w * 64, end = std::min(bytes.size(), begin + 64);
      uint64_t word = 0;
      for (size_t i = begin; i < end; i++) word |= uint64_t{bytes[i] != 0} << (i - begin);
      f.words_[w] = word;
    }
    return f;
  }

  size_t size() const { return size_; }
  bool operator[](size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  void set(size_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
  NodeFlags &operator|=(const NodeFlags &o) { // o of the same size
    for (size_t w = 0; w < words_.size(); w++) words_[w] |= o.words_[w];
    return *this;
  }
  bool operator==(const NodeFlags &) const = default; // bits past size() are always 0

private:
  std::vector<uint64_t> words_;
  size_t size_ = 0;
};

} // namespace hotlines
