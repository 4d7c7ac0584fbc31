// IdTable: an open-addressing hash set of 32-bit ids whose keys live in the caller's own
// tables (a builder's stacks, frames, functions). A slot holds an id and 32 bits of its key's
// hash, so a probe compares hashes before it looks at a key, and growing never needs the keys.
// 8 bytes a slot, at most 3/4 full: a tenth of std::unordered_map's memory and no allocation
// per entry. The slots are a SlotArray (on huge pages when large). Not thread-safe.
#pragma once

#include "formats/slot_array.h"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace hotlines {

class IdTable {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  size_t size() const { return size_; }

  // The id whose key equals the sought one (`same(id)` says whether it does), or kNone.
  template <class Same> uint32_t find(uint64_t hash, Same same) const {
    if (slots_.capacity() == 0) return kNone;
    const uint32_t h = static_cast<uint32_t>(hash >> 32);
    for (size_t i = slots_.home(h);; i = slots_.next(i)) {
      const Slot &s = slots_[i];
      if (s.id == kNone) return kNone;
      if (s.hash == h && same(s.id)) return s.id;
    }
  }

  // The id of an equal key if there is one, else `id` is added for the sought key and
  // returned. The second member says whether it was added.
  template <class Same> std::pair<uint32_t, bool> insert(uint64_t hash, uint32_t id, Same same) {
    if (slots_.full_at(size_ + 1)) grow();
    const uint32_t h = static_cast<uint32_t>(hash >> 32);
    for (size_t i = slots_.home(h);; i = slots_.next(i)) {
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
    if (slots_.full_at(size_ + 1)) grow();
    put(Slot{id, static_cast<uint32_t>(hash >> 32)});
    size_++;
  }

  // Room for n ids without growing.
  void reserve(size_t n) {
    while (slots_.full_at(n)) grow();
  }

  void clear() {
    slots_.clear();
    size_ = 0;
  }

private:
  struct Slot {
    uint32_t id;
    uint32_t hash; // the key's hash's top 32 bits
  };

  void put(const Slot &s) { slots_[slots_.free_slot(slots_.home(s.hash))] = s; }
  void grow() {
    slots_.grow([this](const Slot &s) { put(s); });
  }

  SlotArray<Slot, 32> slots_;
  size_t size_ = 0;
};

} // namespace hotlines
