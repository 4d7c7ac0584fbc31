// Metadata-driven value decoding for JFR (see jfr_decoder.h).
#include "formats/jfr_decoder.h"

#include <algorithm>
#include <cmath>

namespace hotlines {

namespace {

constexpr int kMaxDepth = 32;

JfrDecoder::Code code_of(const JfrField &f, JfrKind kind) {
  if (f.constant_pool) return JfrDecoder::kRef;
  switch (kind) {
  case JfrKind::boolean:
    return JfrDecoder::kBool;
  case JfrKind::byte:
    return JfrDecoder::kByte;
  case JfrKind::char_:
    return JfrDecoder::kChar;
  case JfrKind::short_:
    return JfrDecoder::kShort;
  case JfrKind::int_:
    return JfrDecoder::kInt;
  case JfrKind::long_:
    return JfrDecoder::kLong;
  case JfrKind::float_:
    return JfrDecoder::kFloat;
  case JfrKind::double_:
    return JfrDecoder::kDouble;
  case JfrKind::string:
    return JfrDecoder::kString;
  case JfrKind::object:
    break;
  }
  return JfrDecoder::kStruct;
}

int64_t double_to_int64(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9.2e18) return INT64_MAX;
  if (d <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(d);
}

} // namespace

JfrDecoder::JfrDecoder(const JfrMetadata &md, bool compressed) : md_(md), compressed_(compressed) {
  string_class_ = md.find("java.lang.String");
  codes_.resize(md.classes.size());
  for (size_t c = 0; c < md.classes.size(); c++)
    for (const JfrField &f : md.classes[c].fields)
      codes_[c].push_back(FieldCode{code_of(f, md.classes[f.type].kind), f.array, f.type});
  // Minimum sizes of inline structs, by repeated relaxation from 0 (a lower bound at every
  // step, so cyclic type graphs cannot overstate it). Capped to keep the sums small.
  struct_min_size_.assign(md.classes.size(), 0);
  for (int round = 0; round < 8; round++) {
    bool changed = false;
    for (size_t c = 0; c < md.classes.size(); c++) {
      uint64_t sum = 0;
      for (const FieldCode &f : codes_[c]) sum += min_size(f);
      uint32_t v = static_cast<uint32_t>(std::min<uint64_t>(sum, 1 << 20));
      if (v != struct_min_size_[c]) {
        struct_min_size_[c] = v;
        changed = true;
      }
    }
    if (!changed) break;
  }
  // Structs that are varints only, by rounds: a class is settled once its struct fields are.
  // Cyclic ones never settle and stay -1, as do ones nested deeper than the rounds (real
  // ones nest two or three deep); sizes are capped.
  varints_.assign(md.classes.size(), -1);
  for (int round = 0; round < 8 && compressed; round++) {
    bool changed = false;
    for (size_t c = 0; c < md.classes.size(); c++) {
      if (varints_[c] >= 0 || md.classes[c].kind != JfrKind::object) continue;
      int64_t sum = 0;
      for (const FieldCode &f : codes_[c]) {
        const bool varint = f.code == kShort || f.code == kChar || f.code == kInt ||
                            f.code == kLong || f.code == kRef;
        const int32_t n = f.array ? -1 : varint ? 1 : f.code == kStruct ? varints_[f.type] : -1;
        if (n < 0 || (sum += n) > 1024) {
          sum = -1;
          break;
        }
      }
      if (sum >= 0) {
        varints_[c] = static_cast<int32_t>(sum);
        changed = true;
      }
    }
    if (!changed) break;
  }
}

namespace {
// Skips n varints on the raw bytes; the input fails when they run past its end.
void skip_varints(JfrInput &in, uint64_t n) {
  in.set_ptr(jfr_skip_varints(in.ptr(), in.base() + in.end(), n));
}
} // namespace

size_t JfrDecoder::min_size_of(Code code, int type) const {
  switch (code) {
  case kBool:
  case kByte:
  case kString:
    return 1;
  case kShort:
  case kChar:
    return compressed_ ? 1 : 2;
  case kInt:
    return compressed_ ? 1 : 4;
  case kLong:
  case kRef:
    return compressed_ ? 1 : 8;
  case kFloat:
    return 4;
  case kDouble:
    return 8;
  case kStruct:
    return struct_min_size_.empty() ? 0 : struct_min_size_[type];
  }
  return 1;
}

size_t JfrDecoder::min_size(const FieldCode &f) const {
  if (f.array) return compressed_ ? 1 : 4;
  return min_size_of(f.code, f.type);
}

void JfrDecoder::skip_string(JfrInput &in) const {
  uint8_t enc = in.u8();
  switch (enc) {
  case 0:
  case 1:
    return;
  case 2:
    in.compressed() ? in.skip_varint() : in.skip(8);
    return;
  case 3:
  case 5:
    in.skip(in.count(1));
    return;
  case 4: {
    uint32_t n = in.count(1);
    if (!in.compressed()) return in.skip(static_cast<size_t>(n) * 2);
    for (uint32_t i = 0; i < n && in.ok(); i++) in.skip_varint();
    return;
  }
  default:
    in.fail_at(in.pos() - 1);
  }
}

JfrValue JfrDecoder::read_string(JfrInput &in) const {
  JfrValue v;
  v.kind = JfrValue::string;
  v.encoding = in.u8();
  switch (v.encoding) {
  case 0:
  case 1:
    break;
  case 2:
    v.i = in.i64();
    break;
  case 3:
  case 5:
    v.length = in.count(1);
    v.i = static_cast<int64_t>(in.pos());
    in.skip(v.length);
    break;
  case 4:
    v.length = in.count(1);
    v.i = static_cast<int64_t>(in.pos());
    if (!in.compressed()) {
      in.skip(static_cast<size_t>(v.length) * 2);
    } else {
      for (uint32_t i = 0; i < v.length && in.ok(); i++) in.skip_varint();
    }
    break;
  default:
    in.fail_at(in.pos() - 1);
  }
  if (!in.ok()) v.kind = JfrValue::none;
  return v;
}

void JfrDecoder::skip_one(Code code, int type, JfrInput &in, int depth) const {
  switch (code) {
  case kBool:
  case kByte:
    in.skip(1);
    return;
  case kShort:
  case kChar:
    if (compressed_)
      in.skip_varint();
    else
      in.skip(2);
    return;
  case kInt:
    if (compressed_)
      in.skip_varint();
    else
      in.skip(4);
    return;
  case kLong:
  case kRef:
    if (compressed_)
      in.skip_varint();
    else
      in.skip(8);
    return;
  case kFloat:
    in.skip(4);
    return;
  case kDouble:
    in.skip(8);
    return;
  case kString:
    skip_string(in);
    return;
  case kStruct:
    if (varints_[type] >= 0) return skip_varints(in, static_cast<uint64_t>(varints_[type]));
    skip_struct(type, in, depth + 1);
    return;
  }
}

void JfrDecoder::skip_field(const FieldCode &f, JfrInput &in, int depth) const {
  if (!f.array) return skip_one(f.code, f.type, in, depth);
  size_t min = min_size_of(f.code, f.type);
  uint32_t n = in.count(min);
  if (min == 0) return; // elements that take no bytes (empty structs)
  if (f.code == kStruct && varints_[f.type] >= 0)
    return skip_varints(in, uint64_t{n} * static_cast<uint64_t>(varints_[f.type]));
  for (uint32_t i = 0; i < n && in.ok(); i++) skip_one(f.code, f.type, in, depth);
}

void JfrDecoder::skip_struct(int cls, JfrInput &in, int depth) const {
  if (depth > kMaxDepth) return in.fail();
  if (varints_[cls] >= 0) return skip_varints(in, static_cast<uint64_t>(varints_[cls]));
  for (const FieldCode &f : codes_[cls]) {
    skip_field(f, in, depth);
    if (!in.ok()) return;
  }
}

void JfrDecoder::skip_pool_value(int cls, JfrInput &in) const {
  switch (md_.classes[cls].kind) {
  case JfrKind::object:
    return skip_struct(cls, in);
  case JfrKind::boolean:
    return skip_one(kBool, cls, in, 0);
  case JfrKind::byte:
    return skip_one(kByte, cls, in, 0);
  case JfrKind::char_:
    return skip_one(kChar, cls, in, 0);
  case JfrKind::short_:
    return skip_one(kShort, cls, in, 0);
  case JfrKind::int_:
    return skip_one(kInt, cls, in, 0);
  case JfrKind::long_:
    return skip_one(kLong, cls, in, 0);
  case JfrKind::float_:
    return skip_one(kFloat, cls, in, 0);
  case JfrKind::double_:
    return skip_one(kDouble, cls, in, 0);
  case JfrKind::string:
    return skip_string(in);
  }
}

JfrValue JfrDecoder::read_field(const FieldCode &f, JfrInput &in) const {
  JfrValue v;
  if (f.array || f.code == kStruct) {
    skip_field(f, in);
    return v;
  }
  v.kind = JfrValue::integer;
  switch (f.code) {
  case kBool:
    v.i = in.u8() != 0;
    break;
  case kByte:
    v.i = static_cast<int8_t>(in.u8());
    break;
  case kShort:
    v.i = in.i16();
    break;
  case kChar:
    v.i = in.u16();
    break;
  case kInt:
    v.i = in.i32();
    break;
  case kLong:
    v.i = in.i64();
    break;
  case kFloat:
    v.kind = JfrValue::floating;
    v.d = in.f32();
    v.i = double_to_int64(v.d);
    break;
  case kDouble:
    v.kind = JfrValue::floating;
    v.d = in.f64();
    v.i = double_to_int64(v.d);
    break;
  case kString:
    return read_string(in);
  case kRef:
    v.kind = JfrValue::reference;
    v.type = f.type;
    v.i = in.i64();
    break;
  case kStruct:
    break;
  }
  if (!in.ok()) v.kind = JfrValue::none;
  return v;
}

JfrValue JfrDecoder::read_pool_scalar(int cls, JfrInput &in) const {
  const JfrClass &c = md_.classes[cls];
  if (c.kind == JfrKind::object) {
    if (codes_[cls].size() != 1) return JfrValue{};
    return read_field(codes_[cls][0], in);
  }
  if (c.kind == JfrKind::string) return read_string(in);
  static const Code by_kind[] = {kStruct, kBool, kByte,  kChar,   kShort,
                                 kInt,    kLong, kFloat, kDouble, kString};
  return read_field(FieldCode{by_kind[static_cast<int>(c.kind)], false, cls}, in);
}

void JfrDecoder::read_fields(int cls, const int8_t *slot_of, JfrInput &in, JfrValue *out) const {
  const std::vector<FieldCode> &codes = codes_[cls];
  for (size_t i = 0; i < codes.size() && in.ok(); i++) {
    if (slot_of[i] >= 0)
      out[slot_of[i]] = read_field(codes[i], in);
    else
      skip_field(codes[i], in);
  }
}

} // namespace hotlines
