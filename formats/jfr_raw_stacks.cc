// Reading a slice's stack traces ahead of resolution (see jfr_raw_stacks.h): each frame's
// fields as raw varints, deduplicated within the slice by a JfrFrameMap.
#include "formats/jfr_raw_stacks.h"

#include "formats/jfr_input.h"

#include <algorithm>

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

// The slice's distinct frames, found by key.
class FrameTable {
public:
  explicit FrameTable(JfrRawStacks *out) : out_(out) {}

  // The index of `key`, added (first seen as class `cls` at [at, end)) when new.
  uint32_t index(const JfrFrameKey &key, int cls, size_t at, size_t end) {
    uint32_t *f = map_.find_or_add(key);
    if (*f == JfrFrameMap::kNone) {
      *f = static_cast<uint32_t>(out_->frames.size());
      out_->frames.push_back(JfrRawStacks::Frame{key, cls, at, end});
    }
    return *f;
  }

private:
  JfrRawStacks *out_;
  JfrFrameMap map_;
};

// Appends the frames of the StackTrace entry at `off` to out->refs; false when it is not read
// ahead (frames by reference, fields that are not varints or exceed 32 bits, corrupt bytes).
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
    JfrFrameKey last_key;
    uint32_t last = JfrRawStacks::kUnread; // none yet
    for (uint32_t k = 0; k < n && in.ok(); k++) {
      const uint8_t *const frame = in.ptr();
      const uint8_t *p = frame;
      JfrFrameKey key;
      bool fits = true;
      for (size_t f = 0; f < fields && p; f++) {
        uint64_t v = 0;
        p = p < end ? jfr_varint(p, end, &v) : nullptr;
        if (slots[f] == 0) {
          key.method = v;
        } else if (slots[f] > 0) {
          key.rest[slots[f] - 1] = static_cast<uint32_t>(v);
          fits &= v <= UINT32_MAX;
        }
      }
      in.set_ptr(p);
      if (!in.ok()) break;
      if (!fits) {
        out->refs.resize(begin);
        return false;
      }
      if (last == JfrRawStacks::kUnread || !(key == last_key)) { // recursion repeats frames
        last = table.index(key, fc.type, static_cast<size_t>(frame - base),
                           static_cast<size_t>(p - base));
        last_key = key;
      }
      out->refs.push_back(last);
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
    if (off && read_stack(src, facts, table, r.type, off, out))
      out->stacks[i] = JfrRawStacks::Span{begin, static_cast<uint32_t>(out->refs.size())};
  }
}

} // namespace hotlines
