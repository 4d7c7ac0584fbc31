// StackChildren: the stack tree's nodes that a ProfileBuilder cannot find next to their parent,
// (parent, frame) -> stack id by open addressing. The builder finds a node made right after its
// parent (a chain of new nodes down a new path) at id parent + 1, and only the others, one per
// branch of the tree, here. A slot holds the whole key beside the id, so a lookup reads its
// slot and nothing else: no compare in the profile's arrays of tens of millions of nodes, where
// each is a cache miss. 12 bytes a slot, at most 3/4 full, on huge pages when large
// (allocate_table). Not thread-safe.
#pragma once

#include "formats/id_table.h"

#include <cstdint>
#include <cstdlib>
#include <memory>

namespace hotlines {

class StackChildren {
public:
  static constexpr uint32_t kNone = UINT32_MAX;

  size_t size() const { return size_; }

  // The id of the child (parent, frame), or kNone.
  uint32_t find(uint32_t parent, uint32_t frame) const {
    if (!slots_) return kNone;
    for (size_t i = slot_of(parent, frame);; i = (i + 1) & mask_) {
      const Slot &s = slots_[i];
      if (s.id == kNone) return kNone;
      if (s.parent == parent && s.frame == frame) return s.id;
    }
  }

  // Adds the child (parent, frame) as `id`; the key must be absent.
  void add_new(uint32_t parent, uint32_t frame, uint32_t id) {
    if ((size_ + 1) * 4 > capacity() * 3) grow();
    put(Slot{parent, frame, id});
    size_++;
  }

  void clear() {
    slots_.reset();
    size_ = mask_ = 0;
    shift_ = 64;
  }

private:
  struct Slot {
    uint32_t parent, frame, id;
  };
  static_assert(sizeof(Slot) == 12);

  struct Free {
    void operator()(Slot *p) const { std::free(p); }
  };
  using Slots = std::unique_ptr<Slot[], Free>;

  size_t capacity() const { return slots_ ? mask_ + 1 : 0; }
  size_t slot_of(uint32_t parent, uint32_t frame) const {
    return static_cast<size_t>(mix64((static_cast<uint64_t>(parent) << 32) | frame) >> shift_);
  }
  void put(const Slot &s) {
    size_t i = slot_of(s.parent, s.frame);
    while (slots_[i].id != kNone) i = (i + 1) & mask_;
    slots_[i] = s;
  }

  // cap empty slots (id kNone).
  static Slots allocate(size_t cap) {
    return Slots(static_cast<Slot *>(allocate_table(cap * sizeof(Slot))));
  }

  void grow() {
    const size_t old_cap = capacity(), cap = old_cap ? old_cap * 2 : 64;
    Slots old = std::move(slots_);
    slots_ = allocate(cap);
    mask_ = cap - 1;
    shift_ = 64;
    for (size_t c = cap; c > 1; c >>= 1) shift_--;
    for (size_t j = 0; j < old_cap; j++)
      if (old[j].id != kNone) put(old[j]);
  }

  Slots slots_;
  size_t size_ = 0, mask_ = 0;
  int shift_ = 64;
};

} // namespace hotlines
