// IdTable: an open-addressing hash set of 32-bit ids whose keys live in the caller's own
// tables (a builder's stacks, frames, functions). A slot holds an id and 32 bits of its key's
// hash, so a probe compares hashes before it looks at a key, and growing never needs the keys.
// 8 bytes a slot, at most 3/4 full: a tenth of std::unordered_map's memory and no allocation
// per entry. Large tables are on transparent huge pages (allocate_table).
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <sys/mman.h>

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
  constexpr size_t kHuge = size_t{2} << 20;
  void *p = bytes >= kHuge ? std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge)
                           : std::malloc(bytes);
  if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (bytes >= kHuge) madvise(p, bytes, MADV_HUGEPAGE);
#endif
  std::memset(p, 0xff, bytes);
  return p;
}

class IdTable {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  size_t size() const { return size_; }

  // The id whose key equals the sought one (`same(id)` says whether it does), or kNone.
  template <class Same> uint32_t find(uint64_t hash, Same same) const {
    if (!slots_) return kNone;
    const uint32_t h = static_cast<uint32_t>(hash >> 32);
    for (size_t i = h >> shift_;; i = (i + 1) & mask_) {
      const Slot &s = slots_[i];
      if (s.id == kNone) return kNone;
      if (s.hash == h && same(s.id)) return s.id;
    }
  }

  // The id of an equal key if there is one, else `id` is added for the sought key and
  // returned. The second member says whether it was added.
  template <class Same> std::pair<uint32_t, bool> insert(uint64_t hash, uint32_t id, Same same) {
    if ((size_ + 1) * 4 > capacity() * 3) grow();
    const uint32_t h = static_cast<uint32_t>(hash >> 32);
    for (size_t i = h >> shift_;; i = (i + 1) & mask_) {
      Slot &s = slots_[i];
      if (s.id == kNone) {
        s = Slot{id, h};
        size_++;
        return {id, true};
      }
      if (s.hash == h && same(s.id)) return {s.id, false};
    }
  }

  // Adds `id` for a key known to be absent (no key is compared).
  void add_new(uint64_t hash, uint32_t id) {
    if ((size_ + 1) * 4 > capacity() * 3) grow();
    const uint32_t h = static_cast<uint32_t>(hash >> 32);
    size_t i = h >> shift_;
    while (slots_[i].id != kNone) i = (i + 1) & mask_;
    slots_[i] = Slot{id, h};
    size_++;
  }

  // Room for n ids without growing.
  void reserve(size_t n) {
    while (n * 4 > capacity() * 3) grow();
  }

  void clear() {
    slots_.reset();
    size_ = mask_ = 0;
    shift_ = 32;
  }

private:
  struct Slot {
    uint32_t id;
    uint32_t hash;
  };

  struct Free {
    void operator()(Slot *p) const { std::free(p); }
  };
  using Slots = std::unique_ptr<Slot[], Free>;

  size_t capacity() const { return slots_ ? mask_ + 1 : 0; }

  // cap empty slots (id kNone).
  static Slots allocate(size_t cap) {
    return Slots(static_cast<Slot *>(allocate_table(cap * sizeof(Slot))));
  }

  void grow() {
    const size_t old_cap = capacity(), cap = old_cap ? old_cap * 2 : 64;
    Slots old = std::move(slots_);
    slots_ = allocate(cap);
    mask_ = cap - 1;
    shift_ = 32;
    for (size_t c = cap; c > 1; c >>= 1) shift_--;
    for (size_t j = 0; j < old_cap; j++) {
      if (old[j].id == kNone) continue;
      size_t i = old[j].hash >> shift_;
      while (slots_[i].id != kNone) i = (i + 1) & mask_;
      slots_[i] = old[j];
    }
  }

  Slots slots_;
  size_t size_ = 0, mask_ = 0;
  int shift_ = 32;
};

} // namespace hotlines
