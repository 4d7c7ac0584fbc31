// Reading a slice's stack traces ahead of resolution (see jfr_raw_stacks.h): each frame found
// by its bytes in a JfrFrameBytesMap, its fields decoded as raw varints the first time those
// bytes are met in the slice and deduplicated by key in a JfrFrameMap.
#include "formats/jfr_raw_stacks.h"

#include "formats/jfr_input.h"

#include <algorithm>
#include <cstring>

namespace hotlines {

namespace {

// Per-class facts the reading needs, computed on first use.
class ClassFacts {
public:
  explicit ClassFacts(const JfrStackSource &src)
      : src_(src), frames_field_(src.md->classes.size(), -2),
        varint_frames_(src.md->classes.size(), -1), slots_(src.md->classes.size()) {}

  // Index of a StackTrace class's `frames` field, -1 when it has none.
  int frames_field(int cls) {
    if (frames_field_[cls] == -2) frames_field_[cls] = src_.md->field(cls, "frames");
    return frames_field_[cls];
  }
  // Whether every field of a frame class reads as a plain varint.
  bool varint_frames(int cls) {
    int8_t &known = varint_frames_[cls];
    if (known < 0) {
      known = src_.compressed;
      for (const JfrDecoder::FieldCode &c : src_.dec->codes(cls))
        known &= !c.array && (c.code == JfrDecoder::kShort || c.code == JfrDecoder::kChar ||
                              c.code == JfrDecoder::kInt || c.code == JfrDecoder::kLong ||
                              c.code == JfrDecoder::kRef);
    }
    return known == 1;
  }
  const int8_t *slots(int cls) { // jfr_frame_slots
    std::vector<int8_t> &s = slots_[cls];
    if (s.empty()) s = jfr_frame_slots(*src_.md, cls);
    return s.data();
  }

private:
  const JfrStackSource &src_;
  std::vector<int> frames_field_;
  std::vector<int8_t> varint_frames_;
  std::vector<std::vector<int8_t>> slots_;
};

// The slice's distinct frames, found by their bytes, and by key when their bytes are new.
class FrameTable {
public:
  static constexpr uint32_t kNone = JfrFrameBytesMap::kNone;
  // A frame with a field over 32 bits, or bytes past the end: its stack is not read ahead.
  static constexpr uint32_t kUnreadable = kNone - 1;

  explicit FrameTable(JfrRawStacks *out) : out_(out) {}

  // Where the index of the frame with bytes `b` is stored: kNone when they are new.
  uint32_t *by_bytes(const JfrFrameBytes &b) { return bytes_.find_or_add(b); }
  // The index of `key`, added (first seen as class `cls` at [at, end)) when new.
  uint32_t index(const JfrFrameKey &key, int cls, size_t at, size_t end) {
    uint32_t *f = keys_.find_or_add(key);
    if (*f == JfrFrameMap::kNone) {
      *f = static_cast<uint32_t>(out_->frames.size());
      out_->frames.push_back(JfrRawStacks::Frame{key, cls, at, end});
    }
    return *f;
  }

private:
  JfrRawStacks *out_;
  JfrFrameBytesMap bytes_;
  JfrFrameMap keys_;
};

// Decodes the `fields` varints of the frame at p into *key: the position after them (nullptr
// when they run past `end`), *fits false when a field other than the method exceeds 32 bits.
const uint8_t *decode_frame(const uint8_t *p, const uint8_t *end, const int8_t *slots,
                            size_t fields, JfrFrameKey *key, bool *fits) {
  *fits = true;
  for (size_t f = 0; f < fields && p; f++) {
    uint64_t v = 0;
    p = p < end ? jfr_varint(p, end, &v) : nullptr;
    if (slots[f] == 0) {
      key->method = v;
    } else if (slots[f] > 0) {
      key->rest[slots[f] - 1] = static_cast<uint32_t>(v);
      *fits &= v <= UINT32_MAX;
    }
  }
  return p;
}

// The first n (< 8) bytes of w, the others zero.
inline uint64_t low_bytes(uint64_t w, size_t n) {
  return w & ((uint64_t{1} << (8 * n)) - 1);
}

// The key of the frame of `len` (<= 15) bytes at p, 16 of which can be read.
JfrFrameBytes frame_bytes(const uint8_t *p, size_t len) {
  JfrFrameBytes b;
  std::memcpy(&b.lo, p, 8);
  std::memcpy(&b.hi, p + 8, 8);
  b.lo = len < 8 ? low_bytes(b.lo, len) : b.lo;
  b.hi = (len > 8 ? low_bytes(b.hi, len - 8) : 0) | uint64_t{len} << 56;
  return b;
}

// Appends the frames of the StackTrace entry at `off` to out->refs; false when it is not read
// ahead (frames by reference, fields that are not varints or exceed 32 bits, corrupt bytes).
// A frame is looked up by its bytes when it has 15 or fewer and 16 lie before `end` (nearly
// every frame): without decoding its fields, which is done once per distinct bytes.
bool read_stack(const JfrStackSource &src, ClassFacts &facts, FrameTable &table, int cls,
                size_t off, JfrRawStacks *out) {
  const int ff = facts.frames_field(cls);
  if (ff < 0) return false;
  JfrInput in(src.data, src.begin, src.end, src.compressed);
  in.seek(off);
  const auto &codes = src.dec->codes(cls);
  const size_t begin = out->refs.size();
  for (size_t i = 0; i < codes.size() && in.ok(); i++) {
    const JfrDecoder::FieldCode &fc = codes[i];
    if (static_cast<int>(i) != ff) {
      src.dec->skip_field(fc, in);
      continue;
    }
    if (!fc.array || fc.code != JfrDecoder::kStruct || !facts.varint_frames(fc.type)) return false;
    const uint32_t n = in.count(
        std::max<size_t>(1, src.dec->min_size(JfrDecoder::FieldCode{fc.code, false, fc.type})));
    const int8_t *slots = facts.slots(fc.type);
    const size_t fields = src.dec->codes(fc.type).size();
    const uint8_t *const base = reinterpret_cast<const uint8_t *>(src.data.data());
    const uint8_t *const end = base + in.end();
    // The frame at `frame` decoded field by field and numbered by key: its index, or kUnreadable;
    // *after is past it.
    auto by_key = [&](const uint8_t *frame, const uint8_t **after) {
      JfrFrameKey key;
      bool fits;
      *after = decode_frame(frame, end, slots, fields, &key, &fits);
      if (!*after || !fits) return FrameTable::kUnreadable;
      return table.index(key, fc.type, static_cast<size_t>(frame - base),
                         static_cast<size_t>(*after - base));
    };
    JfrFrameBytes last_bytes; // the last frame found by its bytes: recursion repeats frames
    uint32_t last = JfrRawStacks::kUnread;
    for (uint32_t k = 0; k < n && in.ok(); k++) {
      const uint8_t *const frame = in.ptr();
      const uint8_t *q = end - frame >= 16 ? jfr_skip_varints(frame, end, fields) : nullptr;
      uint32_t f;
      if (q && q - frame <= 15) {
        const JfrFrameBytes b = frame_bytes(frame, static_cast<size_t>(q - frame));
        if (last == JfrRawStacks::kUnread || !(b == last_bytes)) {
          uint32_t *slot = table.by_bytes(b);
          if (*slot == FrameTable::kNone) *slot = by_key(frame, &q);
          last = *slot;
          last_bytes = b;
        }
        f = last;
      } else {
        f = by_key(frame, &q);
      }
      if (f == FrameTable::kUnreadable) {
        out->refs.resize(begin);
        return false;
      }
      in.set_ptr(q);
      out->refs.push_back(f);
    }
  }
  if (in.ok()) return true;
  out->refs.resize(begin);
  return false;
}

} // namespace

std::vector<int8_t> jfr_frame_slots(const JfrMetadata &md, int cls) {
  std::vector<int8_t> s(md.classes[cls].fields.size() + 1, -1); // +1: never empty
  int8_t slot = 0;
  for (std::string_view n : {"method", "lineNumber", "bytecodeIndex", "type"}) {
    const int f = md.field(cls, n);
    if (f >= 0) s[f] = slot;
    slot++;
  }
  return s;
}

void read_raw_stacks(const JfrStackSource &src, const std::vector<JfrStackRef> &stacks,
                     JfrRawStacks *out) {
  out->frames.clear();
  out->refs.clear();
  out->stacks.assign(stacks.size(), JfrRawStacks::Span{});
  ClassFacts facts(src);
  FrameTable table(out);
  // Where each entry is, then its frames: a big file's stacks are scattered over a pool of
  // millions, so both the pool's index slot and the entry's first bytes are cache misses;
  // each is asked for kAhead stacks before it is needed.
  constexpr size_t kAhead = 8;
  std::vector<size_t> &offsets = out->offsets;
  offsets.resize(stacks.size());
  for (size_t i = 0; i < stacks.size(); i++) {
    if (i + kAhead < stacks.size())
      src.pools->prefetch(stacks[i + kAhead].type, stacks[i + kAhead].key);
    offsets[i] = src.pools->find(stacks[i].type, stacks[i].key);
  }
  const char *const base = src.data.data();
  for (size_t i = 0; i < stacks.size() && out->refs.size() < kMaxRawFrames; i++) {
    if (i + kAhead < stacks.size() && offsets[i + kAhead] < src.data.size())
      __builtin_prefetch(base + offsets[i + kAhead]);
    const JfrStackRef &r = stacks[i];
    if (r.type < 0 || static_cast<size_t>(r.type) >= src.md->classes.size() ||
        src.md->classes[r.type].kind != JfrKind::object)
      continue;
    const size_t off = offsets[i];
    const uint32_t begin = static_cast<uint32_t>(out->refs.size());
    if (off && (!src.pages || src.pages->ensure(off)) &&
        read_stack(src, facts, table, r.type, off, out))
      out->stacks[i] = JfrRawStacks::Span{begin, static_cast<uint32_t>(out->refs.size())};
  }
}

} // namespace hotlines
