// JfrInput: a bounds-checked cursor over the bytes of one JFR chunk. Integers are LEB128
// varints (JFR's "compressed integers") or fixed-width big-endian when the chunk header says
// so. Reading past the end never throws: it sets a sticky failure, remembers the offset and
// returns 0, so callers check ok() once per record. Cheap to copy; one per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace hotlines {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "JfrInput decodes varints by word");

// Raw-pointer varint decoding for the reader's hot loops. Both need `end - p >= 1`; they read
// up to 9 bytes but never at or past `end`. They return the position after the varint, or
// nullptr when it runs past `end`.
inline uint64_t jfr_gather7(uint64_t w) { // the low 7 bits of each byte of w, packed
  w &= 0x7f7f7f7f7f7f7f7full;
  w = ((w & 0x7f007f007f007f00ull) >> 1) | (w & 0x007f007f007f007full);
  w = ((w & 0x3fff00003fff0000ull) >> 2) | (w & 0x00003fff00003fffull);
  w = ((w & 0x0fffffff00000000ull) >> 4) | (w & 0x000000000fffffffull);
  return w;
}

inline const uint8_t *jfr_varint_slow(const uint8_t *p, const uint8_t *end, uint64_t *v) {
  uint64_t r = 0;
  for (int i = 0; i < 9; i++) {
    if (p >= end) return nullptr;
    uint64_t b = *p++;
    if (i == 8) {
      *v = r | (b << 56);
      return p;
    }
    r |= (b & 0x7f) << (7 * i);
    if (b < 0x80) {
      *v = r;
      return p;
    }
  }
  return nullptr;
}

inline const uint8_t *jfr_varint(const uint8_t *p, const uint8_t *end, uint64_t *v) {
  if (end - p >= 9) {
    if (p[0] < 0x80) {
      *v = p[0];
      return p + 1;
    }
    uint64_t w;
    std::memcpy(&w, p, 8);
    const uint64_t stops = ~w & 0x8080808080808080ull;
    if (stops == 0) {
      *v = jfr_gather7(w) | (static_cast<uint64_t>(p[8]) << 56);
      return p + 9;
    }
    const int len = (__builtin_ctzll(stops) >> 3) + 1;
    *v = jfr_gather7(w & (~uint64_t{0} >> (64 - 8 * len)));
    return p + len;
  }
  return jfr_varint_slow(p, end, v);
}

inline const uint8_t *jfr_skip_varint(const uint8_t *p, const uint8_t *end) {
  if (end - p >= 9) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    const uint64_t stops = ~w & 0x8080808080808080ull;
    return p + (stops ? (__builtin_ctzll(stops) >> 3) + 1 : 9);
  }
  uint64_t v;
  return jfr_varint_slow(p, end, &v);
}

// Skips n varints: the position after them, or nullptr when they run past `end`. Eight bytes
// at a time: the varints ending in a word are its bytes without the top bit, but for a varint
// of 9 bytes (eight with the top bit, then one of any value), which is left to jfr_skip_varint.
inline const uint8_t *jfr_skip_varints(const uint8_t *p, const uint8_t *end, uint64_t n) {
  unsigned run = 0; // bytes of the varint in progress before p
  while (n > 0 && end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    uint64_t stops = ~w & 0x8080808080808080ull;
    const unsigned lead = stops ? static_cast<unsigned>(__builtin_ctzll(stops)) >> 3 : 8;
    if (run + lead >= 8) break; // a 9-byte varint may be under way
    // The number of stop bits: each is bit 7 of its byte, so shifted to bit 0 and multiplied,
    // they add up in the top byte (at most 8). Without -mpopcnt, __builtin_popcountll is a call.
    const unsigned ends = static_cast<unsigned>(((stops >> 7) * 0x0101010101010101ull) >> 56);
    if (ends >= n) {
      for (uint64_t k = 1; k < n; k++) stops &= stops - 1;
      return p + (__builtin_ctzll(stops) >> 3) + 1;
    }
    n -= ends;
    run = static_cast<unsigned>(__builtin_clzll(stops)) >> 3;
    p += 8;
  }
  p -= run;
  for (; n > 0 && p; n--) p = p < end ? jfr_skip_varint(p, end) : nullptr;
  return p;
}

class JfrInput {
public:
  JfrInput() = default;
  // `data` is the whole file; the cursor may move within [begin, end) of it.
  JfrInput(std::string_view data, size_t begin, size_t end, bool compressed)
      : base_(reinterpret_cast<const uint8_t *>(data.data())), begin_(begin), end_(end),
        pos_(begin), compressed_(compressed) {}

  bool ok() const { return !failed_; }
  bool compressed() const { return compressed_; }
  // Absolute offset in the file of the cursor, and of the first failed read.
  size_t pos() const { return pos_; }
  size_t begin() const { return begin_; }
  size_t end() const { return end_; }
  size_t remaining() const { return end_ - pos_; }
  int64_t fail_offset() const { return fail_offset_; }
  const uint8_t *ptr() const { return base_ + pos_; }
  const uint8_t *base() const { return base_; }

  // Moves the cursor; a position outside [begin, end] fails.
  void seek(size_t pos) {
    if (pos < begin_ || pos > end_) return fail_at(pos);
    pos_ = pos;
  }
  // A cursor limited to [pos, pos + size) of this one (an event or a pool entry).
  JfrInput sub(size_t pos, size_t size) const {
    JfrInput s = *this;
    s.failed_ = false;
    if (pos < begin_ || pos > end_ || size > end_ - pos) {
      s.fail_at(pos);
      return s;
    }
    s.begin_ = pos;
    s.pos_ = pos;
    s.end_ = pos + size;
    return s;
  }
  void fail() { fail_at(pos_); }
  void fail_at(size_t offset) {
    if (!failed_) fail_offset_ = static_cast<int64_t>(offset);
    failed_ = true;
    pos_ = end_;
  }

  void skip(size_t n) {
    if (n > remaining()) return fail();
    pos_ += n;
  }
  uint8_t u8() {
    if (pos_ >= end_) {
      fail();
      return 0;
    }
    return base_[pos_++];
  }
  bool boolean() { return u8() != 0; }

  // A JFR varint: 7 bits per byte for the first 8 bytes, the 9th byte gives all 8 bits.
  uint64_t varint() {
    uint64_t v = 0;
    const uint8_t *p = pos_ < end_ ? jfr_varint(base_ + pos_, base_ + end_, &v) : nullptr;
    if (!p) {
      fail();
      return 0;
    }
    pos_ = static_cast<size_t>(p - base_);
    return v;
  }
  void skip_varint() {
    const uint8_t *p = pos_ < end_ ? jfr_skip_varint(base_ + pos_, base_ + end_) : nullptr;
    if (!p) return fail();
    pos_ = static_cast<size_t>(p - base_);
  }
  // Moves the cursor to a raw pointer produced by the helpers above (nullptr fails).
  void set_ptr(const uint8_t *p) {
    if (!p || p < base_ + begin_ || p > base_ + end_) return fail();
    pos_ = static_cast<size_t>(p - base_);
  }

  // Integers of a declared width: varints when compressed, else big-endian.
  int64_t i64() {
    return compressed_ ? static_cast<int64_t>(varint()) : static_cast<int64_t>(be(8));
  }
  int32_t i32() {
    return compressed_ ? static_cast<int32_t>(varint()) : static_cast<int32_t>(be(4));
  }
  int16_t i16() {
    return compressed_ ? static_cast<int16_t>(varint()) : static_cast<int16_t>(be(2));
  }
  uint16_t u16() {
    return compressed_ ? static_cast<uint16_t>(varint()) : static_cast<uint16_t>(be(2));
  }
  // Raw big-endian values (chunk header, float and double).
  uint64_t be(int bytes) {
    if (remaining() < static_cast<size_t>(bytes)) {
      fail();
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = (v << 8) | base_[pos_ + i];
    pos_ += bytes;
    return v;
  }
  float f32() {
    uint32_t bits = static_cast<uint32_t>(be(4));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  double f64() {
    uint64_t bits = be(8);
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  // A length or count read as an int and checked against the bytes left, assuming each
  // element takes at least `min_bytes` bytes (0: no check). Fails and returns 0 if it cannot fit.
  uint32_t count(size_t min_bytes = 1) {
    int32_t n = i32();
    if (n < 0 || (min_bytes && static_cast<uint64_t>(n) > remaining() / min_bytes)) {
      fail();
      return 0;
    }
    return static_cast<uint32_t>(n);
  }

private:
  const uint8_t *base_ = nullptr;
  size_t begin_ = 0, end_ = 0, pos_ = 0;
  bool compressed_ = true;
  bool failed_ = false;
  int64_t fail_offset_ = -1;
};

} // namespace hotlines
