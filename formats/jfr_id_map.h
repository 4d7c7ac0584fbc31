// JfrIdMap: an open-addressing hash map from 64-bit JFR ids (constant-pool keys, type ids) to
// small values. JFR ids are dense or sequential, so Fibonacci hashing with linear probing
// beats std::unordered_map several times on the reader's hot paths. Not thread-safe.
#pragma once

#include "formats/huge_pages.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hotlines {

template <class V> class JfrIdMap {
public:
  size_t size() const { return size_ + (has_max_ ? 1 : 0); }
  size_t capacity() const { return slots_.size(); } // slots; the map grows at 3/4 full

  const V *find(uint64_t key) const {
    if (key == kEmpty) return has_max_ ? &max_value_ : nullptr;
    if (slots_.empty()) return nullptr;
    for (size_t i = hash(key);; i = (i + 1) & mask_) {
      const Slot &s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == kEmpty) return nullptr;
    }
  }
  V *find(uint64_t key) { return const_cast<V *>(static_cast<const JfrIdMap *>(this)->find(key)); }
  // Asks the CPU to load the slot where find(key) starts, for a find a little later.
  void prefetch(uint64_t key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash(key)]);
  }

  // Inserts when absent; returns the value stored for key and whether it was inserted.
  std::pair<V *, bool> insert(uint64_t key, const V &value) {
    if (key == kEmpty) {
      if (has_max_) return {&max_value_, false};
      has_max_ = true;
      max_value_ = value;
      return {&max_value_, true};
    }
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    for (size_t i = hash(key);; i = (i + 1) & mask_) {
      Slot &s = slots_[i];
      if (s.key == key) return {&s.value, false};
      if (s.key == kEmpty) {
        s.key = key;
        s.value = value;
        size_++;
        return {&s.value, true};
      }
    }
  }

  // f(key, value) for every entry, in no particular order.
  template <class F> void for_each(F &&f) const {
    for (const Slot &s : slots_)
      if (s.key != kEmpty) f(s.key, s.value);
    if (has_max_) f(kEmpty, max_value_);
  }

  // Room for n keys in all without growing (for a count read from a file, the caller bounds n).
  void reserve(size_t n) {
    size_t cap = slots_.empty() ? 16 : slots_.size();
    while (n * 4 > cap * 3) cap *= 2;
    if (cap > slots_.size()) rehash(cap);
  }

  // Empties the map but keeps its slots: refilled to about the same size, it does not grow
  // again (a fresh slot array is a page fault per 4 KiB, or a zeroed huge page).
  void clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    size_ = 0;
    has_max_ = false;
  }

private:
  static constexpr uint64_t kEmpty = UINT64_MAX;
  struct Slot {
    uint64_t key = kEmpty;
    V value{};
  };

  size_t hash(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
  }

  void grow() { rehash(slots_.empty() ? 16 : slots_.size() * 2); }

  void rehash(size_t cap) {
    HugeVector<Slot> old;
    old.swap(slots_);
    slots_.resize(cap);
    mask_ = cap - 1;
    shift_ = 64;
    for (size_t c = cap; c > 1; c >>= 1) shift_--;
    size_ = 0;
    for (const Slot &s : old)
      if (s.key != kEmpty) insert(s.key, s.value);
  }

  HugeVector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
  int shift_ = 64;
  bool has_max_ = false;
  V max_value_{};
};

} // namespace hotlines
