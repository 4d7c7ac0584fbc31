// FlatMap: an open-addressing hash map from 64-bit keys to small values, for the hot loops
// of the query engine (stack-tree interning, flame-graph merging, per-bucket counters),
// where std::unordered_map's node allocations dominate. Not thread-safe; one per worker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hotlines {

template <class V> class FlatMap {
public:
  explicit FlatMap(size_t expected = 16) { rehash(capacity_for(expected)); }

  // The value for `key`, inserted as `init` when absent; *inserted tells which.
  V &find_or_insert(uint64_t key, V init, bool *inserted = nullptr) {
    if ((size_ + 1) * 4 > slots_.size() * 3) rehash(slots_.size() * 2);
    size_t i = slot_of(key);
    while (used_[i]) {
      if (slots_[i].key == key) {
        if (inserted) *inserted = false;
        return slots_[i].value;
      }
      i = (i + 1) & mask_;
    }
    used_[i] = 1;
    slots_[i] = Slot{key, init};
    size_++;
    if (inserted) *inserted = true;
    return slots_[i].value;
  }
  const V *find(uint64_t key) const {
    for (size_t i = slot_of(key); used_[i]; i = (i + 1) & mask_)
      if (slots_[i].key == key) return &slots_[i].value;
    return nullptr;
  }
  size_t size() const { return size_; }
  // Calls fn(key, value) for every entry, in slot order.
  template <class Fn> void for_each(Fn fn) const {
    for (size_t i = 0; i < slots_.size(); i++)
      if (used_[i]) fn(slots_[i].key, slots_[i].value);
  }

private:
  struct Slot {
    uint64_t key;
    V value;
  };
  static size_t capacity_for(size_t n) {
    size_t c = 16;
    while (c * 3 < n * 4 + 4) c *= 2;
    return c;
  }
  size_t slot_of(uint64_t key) const {
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h ^ (h >> 29)) & mask_;
  }
  void rehash(size_t capacity) {
    std::vector<Slot> old_slots(capacity);
    std::vector<uint8_t> old_used(capacity, 0);
    old_slots.swap(slots_);
    old_used.swap(used_);
    mask_ = capacity - 1;
    size_ = 0;
    for (size_t i = 0; i < old_slots.size(); i++)
      if (old_used[i]) find_or_insert(old_slots[i].key, old_slots[i].value);
  }

  std::vector<Slot> slots_;
  std::vector<uint8_t> used_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

} // namespace hotlines
