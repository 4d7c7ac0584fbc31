// ChildIndex: finds the child of a node by key while a tree is built parents first (the
// stack tree without hidden frames, merged call trees). Each node keeps a short list of its
// children, scanned linearly; a node whose list grows past a few entries gets its children
// indexed in a hash map. Cheaper than hashing every (parent, key) when, as in stack trees,
// most nodes have one or two children. Not thread-safe; one per build.
#pragma once

#include "server/engine/flat_map.h"

#include <cstdint>
#include <vector>

namespace hotlines {

class ChildIndex {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  explicit ChildIndex(size_t expected_nodes = 0) {
    key_.reserve(expected_nodes);
    first_.reserve(expected_nodes);
    next_.reserve(expected_nodes);
    count_.reserve(expected_nodes);
  }

  // The child of `parent` (kNone: the top level) with `key`, or kNone.
  uint32_t find(uint32_t parent, uint32_t key) const {
    const bool top = parent == kNone;
    if ((top ? top_count_ : count_[parent]) <= kScan) {
      for (uint32_t c = top ? top_first_ : first_[parent]; c != kNone; c = next_[c])
        if (key_[c] == key) return c;
      return kNone;
    }
    const uint32_t *c = wide_.find(wide_key(parent, key));
    return c ? *c : kNone;
  }

  // Adds the next node (its id is size()) as the child (parent, key); returns its id.
  uint32_t add(uint32_t parent, uint32_t key) {
    const uint32_t id = static_cast<uint32_t>(key_.size());
    const bool top = parent == kNone;
    key_.push_back(key);
    next_.push_back(top ? top_first_ : first_[parent]);
    first_.push_back(kNone);
    count_.push_back(0);
    (top ? top_first_ : first_[parent]) = id;
    const uint32_t count = ++(top ? top_count_ : count_[parent]);
    if (count == kScan + 1) { // the list got long: index all of it from now on
      for (uint32_t c = id; c != kNone; c = next_[c])
        wide_.find_or_insert(wide_key(parent, key_[c]), c);
    } else if (count > kScan + 1) {
      wide_.find_or_insert(wide_key(parent, key), id);
    }
    return id;
  }

  size_t size() const { return key_.size(); }

private:
  static constexpr uint32_t kScan = 8;
  static uint64_t wide_key(uint32_t parent, uint32_t key) {
    return (static_cast<uint64_t>(parent) << 32) | key;
  }

  std::vector<uint32_t> key_, first_, next_;
  std::vector<uint32_t> count_;
  uint32_t top_first_ = kNone;
  uint32_t top_count_ = 0;
  FlatMap<uint32_t> wide_{64};
};

} // namespace hotlines
