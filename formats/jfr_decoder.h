// JfrDecoder: decodes and skips values of any class declared in a chunk's metadata — inline
// structs, arrays, constant-pool references, strings in every encoding, compressed or
// fixed-width integers. Field codes are precomputed once per chunk; nesting depth is bounded
// so corrupt type graphs cannot recurse forever. Immutable after construction.
#pragma once

#include "formats/jfr_input.h"
#include "formats/jfr_metadata.h"

#include <cstdint>
#include <vector>

namespace hotlines {

// A decoded scalar: an integer, a float, a string (where its payload is), or a reference
// into a constant pool.
struct JfrValue {
  enum Kind : uint8_t { none, integer, floating, string, reference };
  Kind kind = none;
  uint8_t encoding = 0; // strings: 0 null, 1 empty, 2 pool key, 3 UTF-8, 4 UTF-16, 5 Latin-1
  int type = -1;        // references: class index of the pool
  uint32_t length = 0;  // strings: payload bytes (3, 5) or code units (4)
  int64_t i = 0;        // integer value, pool key, or offset of a string payload
  double d = 0;
};

class JfrDecoder {
public:
  // How one field is encoded, flattened from its class and flags.
  enum Code : uint8_t {
    kBool,
    kByte,
    kShort,
    kChar,
    kInt,
    kLong,
    kFloat,
    kDouble,
    kString,
    kRef,
    kStruct
  };
  struct FieldCode {
    Code code;
    bool array;
    int type; // class index of the field
  };

  explicit JfrDecoder(const JfrMetadata &md, bool compressed);

  const JfrMetadata &metadata() const { return md_; }
  const std::vector<FieldCode> &codes(int cls) const { return codes_[cls]; }
  int string_class() const { return string_class_; }

  // Skips one value of class `cls` as stored in a constant pool (strings and primitives
  // included).
  void skip_pool_value(int cls, JfrInput &in) const;
  // Skips the fields of an inline value of class `cls`.
  void skip_struct(int cls, JfrInput &in, int depth = 0) const;
  void skip_field(const FieldCode &f, JfrInput &in, int depth = 0) const;
  void skip_string(JfrInput &in) const;

  // Reads one non-array field. Structs (and arrays) are skipped and give kind none.
  JfrValue read_field(const FieldCode &f, JfrInput &in) const;
  JfrValue read_string(JfrInput &in) const;
  // Reads a whole pool value of a simple class: a string, a primitive, or a class whose
  // single field is one of those (jdk.types.Symbol, FrameType, ...). Others: kind none.
  JfrValue read_pool_scalar(int cls, JfrInput &in) const;

  // Reads the fields of an inline value of `cls`; field i goes to out[slot_of[i]] when
  // slot_of[i] >= 0, other fields are skipped.
  void read_fields(int cls, const int8_t *slot_of, JfrInput &in, JfrValue *out) const;

  // Smallest encoded size of one value of a field (for bounding untrusted array counts).
  size_t min_size(const FieldCode &f) const;

private:
  void skip_one(Code code, int type, JfrInput &in, int depth) const;
  size_t min_size_of(Code code, int type) const;

  const JfrMetadata &md_;
  bool compressed_;
  int string_class_ = -1;
  std::vector<std::vector<FieldCode>> codes_;
  std::vector<uint32_t> struct_min_size_;
  // Per class: how many varints an inline value of it is when every field is one (nested
  // such structs included), so it is skipped on the raw bytes; -1 when it is not.
  std::vector<int32_t> varints_;
};

} // namespace hotlines
