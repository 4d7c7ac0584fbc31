// SlotArray: the slots of an open-addressing hash table (IdTable, StackChildren): a power of
// two of them, every one empty (its `id` UINT32_MAX) when made, on transparent huge pages when
// large (allocate_table), and the shift that takes a HashBits-bit hash's top bits to the slot
// where its probe starts. The table keeps its count and compares its own keys along the linear
// probe (next(), free_slot()); grow() hands each occupied slot back to the table to place again.
// Also here: mix64, the hash those tables' callers use. Not thread-safe.
#pragma once

#include "formats/huge_pages.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace hotlines {

// A 64-bit mix of a 64-bit key (the murmur3 finalizer): every input bit moves every output bit.
inline uint64_t mix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

// `bytes` of memory with every byte 0xff (the empty slots of an open-addressing table), on
// transparent huge pages when large: probes land at random, and with 4 KiB pages nearly every
// probe of a table of millions of entries also misses the TLB. Freed with std::free. Throws
// std::bad_alloc.
inline void *allocate_table(size_t bytes) {
  void *p = allocate_huge_or_throw(bytes);
  std::memset(p, 0xff, bytes);
  return p;
}

template <class Slot, int HashBits> class SlotArray {
public:
  static constexpr uint32_t kNone = UINT32_MAX; // the id of an empty slot

  size_t capacity() const { return slots_ ? mask_ + 1 : 0; }
  // Where the probe for `hash` starts.
  size_t home(uint64_t hash) const { return static_cast<size_t>(hash >> shift_); }
  Slot &operator[](size_t i) { return slots_[i]; }
  const Slot &operator[](size_t i) const { return slots_[i]; }

  // The slot after i, wrapping round (the linear probe's step).
  size_t next(size_t i) const { return (i + 1) & mask_; }
  // The first empty slot from `i` on, wrapping round (there is one: the table is at most 3/4
  // full).
  size_t free_slot(size_t i) const {
    while (slots_[i].id != kNone) i = next(i);
    return i;
  }

  // Whether n entries would fill more than 3/4 of the slots.
  bool full_at(size_t n) const { return n * 4 > capacity() * 3; }

  // Twice the slots (64 at first), all empty; `place(slot)` is called for each occupied old one.
  template <class Place> void grow(Place place) {
    const size_t old_cap = capacity(), cap = old_cap ? old_cap * 2 : 64;
    Slots old = std::move(slots_);
    slots_ = Slots(static_cast<Slot *>(allocate_table(cap * sizeof(Slot))));
    mask_ = cap - 1;
    shift_ = HashBits;
    for (size_t c = cap; c > 1; c >>= 1) shift_--;
    for (size_t j = 0; j < old_cap; j++)
      if (old[j].id != kNone) place(old[j]);
  }

  void clear() {
    slots_.reset();
    mask_ = 0;
    shift_ = HashBits;
  }

private:
  struct Free {
    void operator()(Slot *p) const { std::free(p); }
  };
  using Slots = std::unique_ptr<Slot[], Free>;

  Slots slots_;
  size_t mask_ = 0;
  int shift_ = HashBits;
};

} // namespace hotlines
