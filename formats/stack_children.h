// StackChildren: the stack tree's nodes that a ProfileBuilder cannot find next to their parent,
// (parent, frame) -> stack id by open addressing. The builder finds a node made right after its
// parent (a chain of new nodes down a new path) at id parent + 1, and only the others, one per
// branch of the tree, here. A slot holds the whole key beside the id, so a lookup reads its
// slot and nothing else: no compare in the profile's arrays of tens of millions of nodes, where
// each is a cache miss. 12 bytes a slot, at most 3/4 full, in a SlotArray (on huge pages when
// large). Not thread-safe.
#pragma once

#include "formats/slot_array.h"

#include <cstddef>
#include <cstdint>

namespace hotlines {

class StackChildren {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  size_t size() const { return size_; }

  // The id of the child (parent, frame), or kNone.
  uint32_t find(uint32_t parent, uint32_t frame) const {
    if (slots_.capacity() == 0) return kNone;
    for (size_t i = home(parent, frame);; i = slots_.next(i)) {
      const Slot &s = slots_[i];
      if (s.id == kNone) return kNone;
      if (s.parent == parent && s.frame == frame) return s.id;
    }
  }

  // Adds the child (parent, frame) as `id`; the key must be absent.
  void add_new(uint32_t parent, uint32_t frame, uint32_t id) {
    if (slots_.full_at(size_ + 1)) slots_.grow([this](const Slot &s) { put(s); });
    put(Slot{parent, frame, id});
    size_++;
  }

  void clear() {
    slots_.clear();
    size_ = 0;
  }

private:
  struct Slot {
    uint32_t parent, frame, id;
  };
  static_assert(sizeof(Slot) == 12);

  size_t home(uint32_t parent, uint32_t frame) const {
    return slots_.home(mix64((static_cast<uint64_t>(parent) << 32) | frame));
  }
  void put(const Slot &s) { slots_[slots_.free_slot(home(s.parent, s.frame))] = s; }

  SlotArray<Slot, 64> slots_;
  size_t size_ = 0;
};

} // namespace hotlines
