// WireReader: a bounds-checked cursor over protobuf wire format (varints, length-delimited
// fields, fixed64, fixed32 skipping), used by the pprof and OTLP decoders to read their
// messages without materializing them. Never reads past its view; every failure sets error() and
// makes later calls fail. Offsets are absolute (relative to the whole input). Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hotlines {

class WireReader {
public:
  enum : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

  // `base` is the absolute offset of view[0] in the input, for error messages.
  WireReader(std::string_view view, size_t base)
      : p_(view.data()), end_(p_ + view.size()), begin_(p_), base_(base) {}

  bool done() const { return p_ >= end_ || failed_; }
  bool failed() const { return failed_; }
  const std::string &error() const { return error_; }
  size_t offset() const { return base_ + static_cast<size_t>(p_ - begin_); }
  size_t error_offset() const { return error_offset_; }

  // Reads a field tag. False at a malformed tag (field 0, groups, unknown wire types).
  bool tag(uint32_t *field, uint32_t *wire) {
    uint64_t t;
    size_t at = offset();
    if (!varint(&t)) return false;
    *field = static_cast<uint32_t>(t >> 3);
    *wire = static_cast<uint32_t>(t & 7);
    if ((t >> 3) == 0 || (t >> 3) > 0x1fffffff)
      return fail_at(at, "invalid field number " + std::to_string(t >> 3));
    if (*wire != kVarint && *wire != kFixed64 && *wire != kLen && *wire != kFixed32)
      return fail_at(at, "unsupported wire type " + std::to_string(*wire) + " for field " +
                             std::to_string(*field));
    return true;
  }

  bool varint(uint64_t *v) {
    if (p_ < end_ && !(static_cast<uint8_t>(*p_) & 0x80)) { // one byte: the common case
      *v = static_cast<uint8_t>(*p_++);
      return true;
    }
    uint64_t r = 0;
    const char *q = p_;
    for (int shift = 0; shift < 70; shift += 7) {
      if (q >= end_) return fail("truncated varint");
      uint8_t b = static_cast<uint8_t>(*q++);
      if (shift == 63 && b > 1) return fail("varint overflows 64 bits");
      r |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        p_ = q;
        *v = r;
        return true;
      }
    }
    return fail("varint longer than 10 bytes");
  }

  bool int64(int64_t *v) {
    uint64_t u;
    if (!varint(&u)) return false;
    *v = static_cast<int64_t>(u);
    return true;
  }

  // A length-delimited field's bytes; `*at` gets their absolute offset.
  bool bytes(std::string_view *out, size_t *at = nullptr) {
    uint64_t n;
    if (!varint(&n)) return false;
    if (n > static_cast<uint64_t>(end_ - p_))
      return fail("length " + std::to_string(n) + " runs past the end of the data (" +
                  std::to_string(end_ - p_) + " bytes left)");
    if (at) *at = offset();
    *out = std::string_view(p_, static_cast<size_t>(n));
    p_ += n;
    return true;
  }

  // A little-endian fixed64 value.
  bool fixed64(uint64_t *v) {
    if (end_ - p_ < 8) return fail("truncated fixed-width field");
    uint64_t r = 0;
    for (int i = 7; i >= 0; i--) r = r << 8 | static_cast<uint8_t>(p_[i]);
    p_ += 8;
    *v = r;
    return true;
  }

  bool skip(uint32_t wire) {
    uint64_t v;
    std::string_view s;
    switch (wire) {
    case kVarint:
      return varint(&v);
    case kLen:
      return bytes(&s);
    case kFixed64:
      return advance(8);
    case kFixed32:
      return advance(4);
    }
    return fail("unsupported wire type " + std::to_string(wire));
  }

  bool fail(std::string message) { return fail_at(offset(), std::move(message)); }
  bool fail_at(size_t at, std::string message) {
    if (!failed_) {
      failed_ = true;
      error_ = std::move(message);
      error_offset_ = at;
    }
    p_ = end_;
    return false;
  }

private:
  bool advance(size_t n) {
    if (n > static_cast<size_t>(end_ - p_)) return fail("truncated fixed-width field");
    p_ += n;
    return true;
  }

  const char *p_;
  const char *end_;
  const char *begin_;
  size_t base_;
  bool failed_ = false;
  std::string error_;
  size_t error_offset_ = 0;
};

} // namespace hotlines
