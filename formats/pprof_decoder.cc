// profile.proto wire decoding and validation (see pprof_decoder.h). Field numbers follow
// formats/profile.proto; unknown fields are skipped, repeated scalars may be packed or not.
#include "formats/pprof_decoder.h"

#include "formats/pprof_wire.h"

#include <algorithm>

namespace hotlines {

namespace {

constexpr uint32_t kNone = PprofIdIndex::kNone;

bool expect_wire(WireReader &r, uint32_t got, uint32_t want, const char *field) {
  if (got == want) return true;
  return r.fail(std::string("field ") + field + " has wire type " + std::to_string(got) +
                ", expected " + std::to_string(want));
}

// A repeated varint field, packed (wire type 2) or not.
template <typename T>
bool repeated(WireReader &r, uint32_t wire, std::vector<T> *out, const char *field) {
  uint64_t v;
  if (wire == WireReader::kVarint) {
    if (!r.varint(&v)) return false;
    out->push_back(static_cast<T>(v));
    return true;
  }
  if (wire != WireReader::kLen) return expect_wire(r, wire, WireReader::kLen, field);
  std::string_view packed;
  size_t at;
  if (!r.bytes(&packed, &at)) return false;
  WireReader p(packed, at);
  while (!p.done()) {
    if (!p.varint(&v)) return r.fail_at(p.error_offset(), std::string(field) + ": " + p.error());
    out->push_back(static_cast<T>(v));
  }
  return true;
}

bool scalar(WireReader &r, uint32_t wire, int64_t *out, const char *field) {
  return expect_wire(r, wire, WireReader::kVarint, field) && r.int64(out);
}
bool scalar_u(WireReader &r, uint32_t wire, uint64_t *out, const char *field) {
  return expect_wire(r, wire, WireReader::kVarint, field) && r.varint(out);
}
bool message(WireReader &r, uint32_t wire, PprofView *out, const char *field) {
  return expect_wire(r, wire, WireReader::kLen, field) && r.bytes(&out->bytes, &out->at);
}

} // namespace

bool PprofIdIndex::build(const std::vector<uint64_t> &ids, uint64_t *bad) {
  uint64_t max_id = 0;
  for (uint64_t id : ids) max_id = std::max(max_id, id);
  dense_.clear();
  sparse_.clear();
  use_dense_ = max_id <= 4 * ids.size() + 64;
  if (use_dense_) dense_.assign(max_id + 1, kNone);
  for (size_t i = 0; i < ids.size(); i++) {
    uint64_t id = ids[i];
    *bad = id;
    if (id == 0) return false;
    if (use_dense_) {
      if (dense_[id] != kNone) return false;
      dense_[id] = static_cast<uint32_t>(i);
    } else if (!sparse_.try_emplace(id, static_cast<uint32_t>(i)).second) {
      return false;
    }
  }
  return true;
}

bool PprofDecoder::fail(size_t at, std::string message) {
  if (error_.empty()) {
    error_ = "pprof: " + std::move(message);
    error_at_ = static_cast<int64_t>(at);
  }
  return false;
}

bool PprofDecoder::check_string(int64_t index, size_t at, const std::string &what) {
  if (valid_string(index)) return true;
  return fail(at, what + ": string index " + std::to_string(index) +
                      " out of range (the string table has " + std::to_string(strings.size()) +
                      " entries)");
}

bool PprofDecoder::decode(std::string_view data) {
  return scan_top(data) && parse_tables();
}

// Pass 1: the top-level fields, as views and scalars.
bool PprofDecoder::scan_top(std::string_view data) {
  WireReader r(data, 0);
  PprofView v;
  while (!r.done()) {
    uint32_t field, wire;
    if (!r.tag(&field, &wire)) break;
    switch (field) {
    case 1:
      if (message(r, wire, &v, "Profile.sample_type")) sample_type_views_.push_back(v);
      break;
    case 2:
      if (message(r, wire, &v, "Profile.sample")) samples.push_back(v);
      break;
    case 3:
      if (message(r, wire, &v, "Profile.mapping")) mapping_views_.push_back(v);
      break;
    case 4:
      if (message(r, wire, &v, "Profile.location")) location_views_.push_back(v);
      break;
    case 5:
      if (message(r, wire, &v, "Profile.function")) function_views_.push_back(v);
      break;
    case 6:
      if (message(r, wire, &v, "Profile.string_table")) strings.push_back(v.bytes);
      break;
    case 7:
      scalar(r, wire, &drop_frames, "Profile.drop_frames");
      break;
    case 8:
      scalar(r, wire, &keep_frames, "Profile.keep_frames");
      break;
    case 9:
      scalar(r, wire, &time_nanos, "Profile.time_nanos");
      break;
    case 10:
      scalar(r, wire, &duration_nanos, "Profile.duration_nanos");
      break;
    case 11:
      if (message(r, wire, &v, "Profile.period_type")) {
        period_type_view_ = v;
        has_period_type_ = true;
      }
      break;
    case 12:
      scalar(r, wire, &period, "Profile.period");
      break;
    case 13:
      repeated(r, wire, &comments, "Profile.comment");
      break;
    case 14:
      scalar(r, wire, &default_sample_type, "Profile.default_sample_type");
      break;
    default:
      r.skip(wire);
    }
  }
  if (r.failed()) return fail(r.error_offset(), "corrupt or truncated protobuf: " + r.error());
  if (strings.empty() || !strings[0].empty())
    return fail(0, strings.empty() ? "the string table is missing (not a pprof profile?)"
                                   : "the string table must start with an empty string");
  return true;
}

bool PprofDecoder::parse_value_type(const PprofView &v, const char *what, PprofValueType *out) {
  WireReader r(v.bytes, v.at);
  while (!r.done()) {
    uint32_t field, wire;
    if (!r.tag(&field, &wire)) break;
    if (field == 1)
      scalar(r, wire, &out->type, "ValueType.type");
    else if (field == 2)
      scalar(r, wire, &out->unit, "ValueType.unit");
    else
      r.skip(wire);
  }
  if (r.failed()) return fail(r.error_offset(), std::string(what) + ": " + r.error());
  return check_string(out->type, v.at, std::string(what) + " type") &&
         check_string(out->unit, v.at, std::string(what) + " unit");
}

// Pass 2: sample types, functions, mappings, locations; ids resolved to indices.
bool PprofDecoder::parse_tables() {
  for (const PprofView &v : sample_type_views_) {
    PprofValueType t;
    if (!parse_value_type(v, "sample type", &t)) return false;
    sample_types.push_back(t);
  }
  if (has_period_type_ && !parse_value_type(period_type_view_, "period type", &period_type))
    return false;
  for (int64_t c : comments)
    if (!check_string(c, 0, "comment")) return false;
  if (!check_string(drop_frames, 0, "drop_frames") ||
      !check_string(keep_frames, 0, "keep_frames") ||
      !check_string(default_sample_type, 0, "default_sample_type"))
    return false;
  if (sample_types.empty() && !samples.empty())
    return fail(samples[0].at, "the profile has samples but no sample types");

  std::vector<uint64_t> mapping_ids, function_ids; // per location / per line, resolved below
  return parse_functions() && parse_mappings() && parse_locations(&mapping_ids, &function_ids) &&
         resolve_ids(mapping_ids, function_ids);
}

bool PprofDecoder::parse_functions() {
  functions.reserve(function_views_.size());
  for (const PprofView &v : function_views_) {
    PprofFunction f;
    WireReader r(v.bytes, v.at);
    while (!r.done()) {
      uint32_t field, wire;
      if (!r.tag(&field, &wire)) break;
      switch (field) {
      case 1:
        scalar_u(r, wire, &f.id, "Function.id");
        break;
      case 2:
        scalar(r, wire, &f.name, "Function.name");
        break;
      case 3:
        scalar(r, wire, &f.system_name, "Function.system_name");
        break;
      case 4:
        scalar(r, wire, &f.filename, "Function.filename");
        break;
      case 5:
        scalar(r, wire, &f.start_line, "Function.start_line");
        break;
      default:
        r.skip(wire);
      }
    }
    if (r.failed())
      return fail(r.error_offset(),
                  "function " + std::to_string(functions.size()) + ": " + r.error());
    std::string what = "function id " + std::to_string(f.id);
    if (!check_string(f.name, v.at, what + " name") ||
        !check_string(f.system_name, v.at, what + " system name") ||
        !check_string(f.filename, v.at, what + " file name"))
      return false;
    functions.push_back(f);
  }
  return true;
}

bool PprofDecoder::parse_mappings() {
  for (const PprofView &v : mapping_views_) {
    PprofMapping m;
    WireReader r(v.bytes, v.at);
    while (!r.done()) {
      uint32_t field, wire;
      if (!r.tag(&field, &wire)) break;
      if (field == 1) {
        scalar_u(r, wire, &m.id, "Mapping.id");
      } else if (field == 5) {
        scalar(r, wire, &m.filename, "Mapping.filename");
      } else if (field == 6) {
        int64_t build_id = 0;
        if (scalar(r, wire, &build_id, "Mapping.build_id") &&
            !check_string(build_id, v.at, "mapping build id"))
          return false;
      } else {
        r.skip(wire);
      }
    }
    if (r.failed())
      return fail(r.error_offset(),
                  "mapping " + std::to_string(mappings.size()) + ": " + r.error());
    if (!check_string(m.filename, v.at, "mapping id " + std::to_string(m.id) + " file name"))
      return false;
    mappings.push_back(m);
  }
  return true;
}

bool PprofDecoder::parse_locations(std::vector<uint64_t> *mapping_ids,
                                   std::vector<uint64_t> *function_ids) {
  locations.reserve(location_views_.size());
  for (const PprofView &v : location_views_) {
    PprofLocation l;
    uint64_t mapping_id = 0;
    l.at = v.at;
    l.line_begin = static_cast<uint32_t>(lines.size());
    WireReader r(v.bytes, v.at);
    while (!r.done()) {
      uint32_t field, wire;
      if (!r.tag(&field, &wire)) break;
      switch (field) {
      case 1:
        scalar_u(r, wire, &l.id, "Location.id");
        break;
      case 2:
        scalar_u(r, wire, &mapping_id, "Location.mapping_id");
        break;
      case 3:
        scalar_u(r, wire, &l.address, "Location.address");
        break;
      case 4: {
        PprofView lv;
        if (!message(r, wire, &lv, "Location.line")) break;
        if (!parse_line(lv, l.id, function_ids)) return false;
        break;
      }
      default:
        r.skip(wire);
      }
    }
    if (r.failed())
      return fail(r.error_offset(),
                  "location " + std::to_string(locations.size()) + ": " + r.error());
    if (lines.size() >= kNone) return fail(v.at, "too many location lines");
    l.line_end = static_cast<uint32_t>(lines.size());
    locations.push_back(l);
    mapping_ids->push_back(mapping_id);
  }
  return true;
}

bool PprofDecoder::parse_line(const PprofView &lv, uint64_t location_id,
                              std::vector<uint64_t> *function_ids) {
  uint64_t function_id = 0;
  PprofLine line;
  WireReader lr(lv.bytes, lv.at);
  while (!lr.done()) {
    uint32_t f2, w2;
    if (!lr.tag(&f2, &w2)) break;
    if (f2 == 1)
      scalar_u(lr, w2, &function_id, "Line.function_id");
    else if (f2 == 2)
      scalar(lr, w2, &line.line, "Line.line");
    else
      lr.skip(w2);
  }
  if (lr.failed())
    return fail(lr.error_offset(),
                "location id " + std::to_string(location_id) + " line: " + lr.error());
  lines.push_back(line);
  function_ids->push_back(function_id);
  return true;
}

// Ids: unique, non-zero, and every reference resolves.
bool PprofDecoder::resolve_ids(const std::vector<uint64_t> &mapping_ids,
                               const std::vector<uint64_t> &function_ids) {
  if (locations.size() >= kNone || functions.size() >= kNone || mappings.size() >= kNone)
    return fail(0, "too many locations, functions or mappings");
  PprofIdIndex function_index, mapping_index;
  uint64_t bad = 0;
  std::vector<uint64_t> ids;
  for (const PprofFunction &f : functions) ids.push_back(f.id);
  if (!function_index.build(ids, &bad))
    return fail(0, bad ? "two functions have id " + std::to_string(bad)
                       : "a function has the reserved id 0");
  ids.clear();
  for (const PprofMapping &m : mappings) ids.push_back(m.id);
  if (!mapping_index.build(ids, &bad))
    return fail(0, bad ? "two mappings have id " + std::to_string(bad)
                       : "a mapping has the reserved id 0");
  ids.clear();
  for (const PprofLocation &l : locations) ids.push_back(l.id);
  if (!location_ids.build(ids, &bad))
    return fail(0, bad ? "two locations have id " + std::to_string(bad)
                       : "a location has the reserved id 0");
  for (size_t li = 0; li < locations.size(); li++) {
    PprofLocation &l = locations[li];
    if (mapping_ids[li] != 0) {
      l.mapping = mapping_index.find(mapping_ids[li]);
      if (l.mapping == kNone)
        return fail(l.at, "location id " + std::to_string(l.id) + " refers to mapping id " +
                              std::to_string(mapping_ids[li]) + ", which does not exist");
    }
    for (uint32_t i = l.line_begin; i < l.line_end; i++) {
      uint32_t fi = function_index.find(function_ids[i]);
      if (fi == kNone)
        return fail(l.at, "location id " + std::to_string(l.id) + " has a line in function id " +
                              std::to_string(function_ids[i]) + ", which does not exist");
      lines[i].function = fi;
    }
  }
  return true;
}

bool PprofDecoder::decode_sample(size_t i, std::vector<uint64_t> *location_ids,
                                 std::vector<int64_t> *values, std::vector<PprofLabel> *labels) {
  const PprofView &v = samples[i];
  const size_t values_begin = values->size();
  WireReader r(v.bytes, v.at);
  while (!r.done()) {
    uint32_t field, wire;
    if (!r.tag(&field, &wire)) break;
    if (field == 1) {
      repeated(r, wire, location_ids, "Sample.location_id");
    } else if (field == 2) {
      repeated(r, wire, values, "Sample.value");
    } else if (field == 3) {
      PprofView lv;
      if (!message(r, wire, &lv, "Sample.label")) break;
      PprofLabel l;
      WireReader lr(lv.bytes, lv.at);
      while (!lr.done()) {
        uint32_t f2, w2;
        if (!lr.tag(&f2, &w2)) break;
        switch (f2) {
        case 1:
          scalar(lr, w2, &l.key, "Label.key");
          break;
        case 2:
          scalar(lr, w2, &l.str, "Label.str");
          break;
        case 3:
          scalar(lr, w2, &l.num, "Label.num");
          break;
        case 4:
          scalar(lr, w2, &l.unit, "Label.num_unit");
          break;
        default:
          lr.skip(w2);
        }
      }
      if (lr.failed())
        return fail(lr.error_offset(), "sample " + std::to_string(i) + " label: " + lr.error());
      if (!valid_string(l.key) || !valid_string(l.str) || !valid_string(l.unit)) {
        std::string what = "sample " + std::to_string(i) + " label";
        return check_string(l.key, lv.at, what + " key") &&
               check_string(l.str, lv.at, what + " value") &&
               check_string(l.unit, lv.at, what + " unit");
      }
      labels->push_back(l);
    } else {
      r.skip(wire);
    }
  }
  if (r.failed()) return fail(r.error_offset(), "sample " + std::to_string(i) + ": " + r.error());
  const size_t n = values->size() - values_begin;
  if (n != sample_types.size())
    return fail(v.at, "sample " + std::to_string(i) + " has " + std::to_string(n) +
                          " values but the profile has " + std::to_string(sample_types.size()) +
                          " sample types");
  return true;
}

} // namespace hotlines
