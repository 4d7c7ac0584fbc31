// JfrRawStacks: the frames of one slice's stack-trace references, read ahead of resolution on
// the slice's worker thread. Each frame is kept as the raw integers of its method, line,
// bytecode-index and type fields (JfrFrameKey), the distinct ones numbered within the slice, so
// that resolution — on one thread, slice after slice — looks a frame up once per slice instead of
// once per occurrence and spends its time building the stack tree. Only stack traces whose
// frames are structs of plain varints are read ahead (every JDK and async-profiler recording);
// the others, and entries that are missing or corrupt, are left to JfrResolver.
// Threading: read_raw_stacks() reads the chunk's bytes, metadata and pools only, so slices of
// one chunk read on any threads at once; the result is handed to the resolving thread.
#pragma once

#include "formats/huge_pages.h"
#include "formats/jfr_constant_pool.h"
#include "formats/jfr_decoder.h"
#include "formats/jfr_id_map.h"
#include "formats/jfr_metadata.h"
#include "formats/jfr_pool_pages.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace hotlines {

// A StackFrame by the raw integers of its method, lineNumber, bytecodeIndex and type fields.
struct JfrFrameKey {
  uint64_t method = 0;
  uint32_t rest[3] = {0, 0, 0}; // line, bytecode index, type
  bool operator==(const JfrFrameKey &) const = default;
  uint64_t hash() const {
    uint64_t h = method * 0x9E3779B97F4A7C15ull;
    for (uint32_t r : rest) h = (h ^ (h >> 29) ^ r) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
  }
};

// The bytes of a StackFrame of plain varints, up to 15 of them, as a key: zero-padded, with
// their number in the top byte. Equal bytes are the same frame; a frame can have several
// encodings (a varint padded with 0x80 bytes), each of which gets its own entry.
struct JfrFrameBytes {
  uint64_t lo = 0, hi = 0;
  bool operator==(const JfrFrameBytes &) const = default;
  // Every byte reaches the low bits that pick a slot: frames of one method differ only in the
  // bytes after its id (line, bytecode index), which a plain product leaves in the high bits.
  uint64_t hash() const {
    uint64_t h = lo ^ (hi * 0x9E3779B97F4A7C15ull);
    h = (h ^ (h >> 32)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 29);
  }
};

// Key -> a 32-bit value, by open addressing with the key beside the value in each slot (a
// lookup reads one slot, and a table of tens of thousands of frames stays in the cache).
// kNone is no value: find_or_add() returns it for a key it just added, and the caller stores
// the value there at once.
template <class Key> class JfrKeyMap {
public:
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t *find_or_add(const Key &key) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = key.hash() & mask;; i = (i + 1) & mask) {
      Slot &s = slots_[i];
      if (s.value == kNone) {
        s.key = key;
        size_++;
        return &s.value;
      }
      if (s.key == key) return &s.value;
    }
  }
  void clear() {
    slots_.clear();
    size_ = 0;
  }

private:
  struct Slot {
    Key key;
    uint32_t value = kNone; // kNone: empty
  };
  [[gnu::noinline]] void grow() { // rare: kept out of find_or_add, which is inlined
    HugeVector<Slot> old(std::max<size_t>(1024, slots_.size() * 2));
    old.swap(slots_);
    size_ = 0;
    for (const Slot &s : old)
      if (s.value != kNone) *find_or_add(s.key) = s.value;
  }
  HugeVector<Slot> slots_;
  size_t size_ = 0;
};
using JfrFrameMap = JfrKeyMap<JfrFrameKey>;
using JfrFrameBytesMap = JfrKeyMap<JfrFrameBytes>;
static_assert(sizeof(JfrFrameBytes) == 16); // with its value, a slot of 24 bytes

struct JfrRawStacks {
  static constexpr uint32_t kUnread = UINT32_MAX;
  // The slice's distinct frames: key, and the class and bytes [at, end) of its first
  // occurrence in the chunk, from which the resolver decodes a frame new to the chunk.
  struct Frame {
    JfrFrameKey key;
    int cls = -1;
    size_t at = 0, end = 0;
  };
  HugeVector<Frame> frames;
  HugeVector<uint32_t> refs; // the stacks' frames, leaf first, as indexes into frames
  // Per stack reference (in the order asked): its frames [begin, end) in refs; begin kUnread
  // when it was not read ahead.
  struct Span {
    uint32_t begin = kUnread, end = 0;
  };
  std::vector<Span> stacks;
  std::vector<size_t> offsets; // read_raw_stacks()'s scratch: each stack's pool entry

  // Gives back the pages of `refs` past its size, before the buffers go to the next slice:
  // a slice that read many stacks ahead (the first of a deep-stacks chunk: 10 MB of frames)
  // would otherwise leave them resident while the next slices read a few MB each.
  void give_back_unused() {
    give_back_huge(refs.data() + refs.size(), (refs.capacity() - refs.size()) * sizeof(uint32_t));
  }
};

// What read_raw_stacks() reads from: one chunk's bytes, its first byte after the header, and
// its metadata, decoder and loaded constant pools.
struct JfrStackSource {
  std::string_view data;
  size_t begin = 0, end = 0;
  bool compressed = true;
  const JfrMetadata *md = nullptr;
  const JfrDecoder *dec = nullptr;
  const JfrConstantPools *pools = nullptr;
  // Set when the stack-trace pools' pages may have been given back: each entry is ensured
  // before it is read (the caller holds a use()); one that cannot be is left to the resolver.
  JfrPoolPages *pages = nullptr;
};

// A stack-trace reference: pool class and key.
struct JfrStackRef {
  int type = -1;
  uint64_t key = 0;
};

// The frames of the stack traces `stacks`, in order, into *out. Reading ahead stops after
// kMaxRawFrames frames (the rest are left to the resolver), which bounds its memory.
constexpr size_t kMaxRawFrames = size_t{1} << 25;
void read_raw_stacks(const JfrStackSource &src, const std::vector<JfrStackRef> &stacks,
                     JfrRawStacks *out);

// Field index -> JfrFrameKey slot of a StackFrame class: 0 method, 1 lineNumber, 2
// bytecodeIndex, 3 type, -1 another field. Never empty.
std::vector<int8_t> jfr_frame_slots(const JfrMetadata &md, int cls);

} // namespace hotlines
