// OtlpDecoder (see otlp_decoder.h): one function per message of otlp_profiles.proto, each a
// loop over its fields with a WireReader. The top level is read first (the dictionary may come
// after the profiles, as jfrconv writes it), then the dictionary, then the profiles; references
// between tables are checked once everything is read.
#include "formats/otlp_decoder.h"

#include "formats/pprof_wire.h"

#include <cstring>

namespace hotlines {

namespace {

const char *wire_name(uint32_t wire) {
  switch (wire) {
  case WireReader::kVarint:
    return "varint";
  case WireReader::kFixed64:
    return "fixed64";
  case WireReader::kLen:
    return "length-delimited";
  case WireReader::kFixed32:
    return "fixed32";
  }
  return "unknown";
}

std::string other_version(std::string_view version, std::string_view why) {
  return "OTLP profiles of " + std::string(version) + " (" + std::string(why) +
         "); hotlines reads " + std::string(kOtlpVersion) +
         " (profiles/v1development; v1.11.0 has the same wire format)";
}

} // namespace

bool OtlpDecoder::fail(size_t at, std::string message) {
  if (error_.empty()) {
    error_ = "otlp: " + std::move(message);
    error_at_ = static_cast<int64_t>(at);
  }
  return false;
}

// The fields of one message: next() reads a tag, unknown() and wrong wire types fail with the
// message's name and the spec version.
class OtlpDecoder::Fields {
public:
  Fields(OtlpDecoder &d, const View &v, const char *message)
      : r(v.bytes, v.at), d_(d), message_(message) {}

  bool next() {
    if (r.done()) return false;
    at = r.offset();
    return r.tag(&field, &wire);
  }
  // True when the wire type is `want`; else fails.
  bool is(uint32_t want) {
    if (wire == want) return true;
    return d_.fail(at, std::string(message_) + " field " + std::to_string(field) + " is " +
                           wire_name(wire) + ", " + std::string(kOtlpVersion) + " has " +
                           wire_name(want) + " there: written for another version of the " +
                           "OTLP profiles specification?");
  }
  bool unknown() {
    return d_.fail(at, std::string(message_) + " field " + std::to_string(field) + " (" +
                           wire_name(wire) + ") is not in " + std::string(kOtlpVersion) +
                           ": written for another version of the OTLP profiles specification?");
  }
  // Finishes the loop: false when the reader failed.
  bool ok() {
    if (r.failed()) return d_.fail(r.error_offset(), std::string(message_) + ": " + r.error());
    return d_.error_.empty();
  }
  bool varint(uint64_t *v) { return is(WireReader::kVarint) && r.varint(v); }
  bool int64(int64_t *v) { return is(WireReader::kVarint) && r.int64(v); }
  bool int32(int32_t *v, const char *what) {
    int64_t x;
    if (!int64(&x)) return false;
    if (x < INT32_MIN || x > INT32_MAX)
      return d_.fail(at, std::string(message_) + " " + what + " " + std::to_string(x) +
                             " does not fit int32");
    *v = static_cast<int32_t>(x);
    return true;
  }
  bool fixed64(uint64_t *v) { return is(WireReader::kFixed64) && r.fixed64(v); }
  bool message(View *out) {
    if (!is(WireReader::kLen)) return false;
    return r.bytes(&out->bytes, &out->at);
  }
  bool skip() { return r.skip(wire); }
  WireReader r;
  uint32_t field = 0, wire = 0;
  size_t at = 0;

private:
  OtlpDecoder &d_;
  const char *message_;
};

bool OtlpDecoder::check_index(int64_t index, size_t size, size_t at, const char *what) {
  if (index >= 0 && static_cast<uint64_t>(index) < size) return true;
  // An empty table still has its zero entry implicitly.
  if (index == 0 && size == 0) return true;
  return fail(at, std::string(what) + " " + std::to_string(index) + " is out of range (" +
                      std::to_string(size) + " entries)");
}

bool OtlpDecoder::read_indices(WireReader &r, uint32_t wire, std::vector<uint32_t> *out) {
  auto push = [&](uint64_t v, size_t at) {
    if (v > INT32_MAX) return fail(at, "negative or oversized index " + std::to_string(v));
    out->push_back(static_cast<uint32_t>(v));
    return true;
  };
  if (wire == WireReader::kVarint) {
    size_t at = r.offset();
    uint64_t v;
    return r.varint(&v) && push(v, at);
  }
  std::string_view packed;
  size_t at;
  if (!r.bytes(&packed, &at)) return false;
  WireReader p(packed, at);
  while (!p.done()) {
    size_t vat = p.offset();
    uint64_t v;
    if (!p.varint(&v) || !push(v, vat)) break;
  }
  if (p.failed()) return fail(p.error_offset(), "packed indices: " + p.error());
  return error_.empty();
}

bool OtlpDecoder::decode(std::string_view data) {
  std::vector<View> resource_views, dictionary_views;
  WireReader top(data, 0);
  uint32_t field, wire;
  while (!top.done()) {
    size_t at = top.offset();
    if (!top.tag(&field, &wire)) break;
    if (field >= 3 && field <= 8)
      return fail(at, other_version("v1.6.0", "the dictionary tables are fields 2-8 of "
                                              "ProfilesData; v1.7.0 moved them into a "
                                              "ProfilesDictionary"));
    if ((field != 1 && field != 2) || wire != WireReader::kLen)
      return fail(at, "ProfilesData field " + std::to_string(field) + " (" + wire_name(wire) +
                          ") is not in " + std::string(kOtlpVersion));
    View v;
    if (!top.bytes(&v.bytes, &v.at)) break;
    (field == 1 ? resource_views : dictionary_views).push_back(v);
  }
  if (top.failed()) return fail(top.error_offset(), "ProfilesData: " + top.error());
  for (const View &v : dictionary_views)
    if (!parse_dictionary(v)) return false;
  for (const View &v : resource_views)
    if (!parse_resource_profiles(v)) return false;
  if (dictionary_views.empty() && !profiles.empty() && !samples.empty())
    return fail(0, other_version("v1.5.0 or earlier",
                                 "no ProfilesDictionary: each Profile held its own tables"));
  return check_references();
}

// --- the dictionary ---

bool OtlpDecoder::parse_dictionary(const View &v) {
  Fields f(*this, v, "ProfilesDictionary");
  while (f.next()) {
    View m;
    if (f.field < 1 || f.field > 7) {
      f.unknown();
      break;
    }
    if (!f.message(&m)) break;
    bool ok = true;
    switch (f.field) {
    case 1:
      ok = parse_mapping(m);
      break;
    case 2:
      ok = parse_location(m);
      break;
    case 3:
      ok = parse_function(m);
      break;
    case 4:
      links++;
      break;
    case 5:
      strings.push_back(m.bytes);
      break;
    case 6:
      ok = parse_attribute(m);
      break;
    case 7:
      ok = parse_stack(m);
      break;
    }
    if (!ok) return false;
  }
  return f.ok();
}

bool OtlpDecoder::parse_mapping(const View &v) {
  Fields f(*this, v, "Mapping");
  int32_t file = 0;
  while (f.next()) {
    uint64_t skip;
    if (f.field >= 1 && f.field <= 3) {
      if (!f.varint(&skip)) break;
    } else if (f.field == 4) {
      if (!f.int32(&file, "filename_strindex")) break;
    } else if (f.field == 5) {
      std::vector<uint32_t> unused;
      if (!read_indices(f.r, f.wire, &unused)) break;
    } else {
      f.unknown();
      break;
    }
  }
  string_refs_.emplace_back(v.at, file);
  mapping_files.push_back(file);
  return f.ok();
}

bool OtlpDecoder::parse_location(const View &v) {
  Fields f(*this, v, "Location");
  OtlpLocation l;
  int32_t mapping = 0;
  l.lines.begin = static_cast<uint32_t>(lines.size());
  l.attributes.begin = static_cast<uint32_t>(attribute_refs.size());
  while (f.next()) {
    if (f.field == 1) {
      if (!f.int32(&mapping, "mapping_index")) break;
    } else if (f.field == 2) {
      if (!f.varint(&l.address)) break;
    } else if (f.field == 3) {
      View m;
      if (!f.message(&m)) break;
      Fields lf(*this, m, "Line");
      OtlpLine line;
      int32_t function = 0;
      while (lf.next()) {
        int64_t column;
        if (lf.field == 1) {
          if (!lf.int32(&function, "function_index")) break;
        } else if (lf.field == 2) {
          if (!lf.int64(&line.line)) break;
        } else if (lf.field == 3) {
          if (!lf.int64(&column)) break;
        } else {
          lf.unknown();
          break;
        }
      }
      if (!lf.ok()) return false;
      if (function < 0) return fail(m.at, "Line function_index " + std::to_string(function));
      line.function = static_cast<uint32_t>(function);
      lines.push_back(line);
    } else if (f.field == 4) {
      if (!read_indices(f.r, f.wire, &attribute_refs)) break;
    } else {
      f.unknown();
      break;
    }
  }
  if (mapping < 0) return fail(v.at, "Location mapping_index " + std::to_string(mapping));
  l.mapping = static_cast<uint32_t>(mapping);
  l.lines.end = static_cast<uint32_t>(lines.size());
  l.attributes.end = static_cast<uint32_t>(attribute_refs.size());
  locations.push_back(l);
  location_at_.push_back(v.at);
  return f.ok();
}

bool OtlpDecoder::parse_function(const View &v) {
  Fields f(*this, v, "Function");
  OtlpFunction fn;
  while (f.next()) {
    bool ok;
    switch (f.field) {
    case 1:
      ok = f.int32(&fn.name, "name_strindex");
      break;
    case 2:
      ok = f.int32(&fn.system_name, "system_name_strindex");
      break;
    case 3:
      ok = f.int32(&fn.filename, "filename_strindex");
      break;
    case 4:
      ok = f.int64(&fn.start_line);
      break;
    default:
      ok = f.unknown();
    }
    if (!ok) break;
  }
  functions.push_back(fn);
  function_at_.push_back(v.at);
  return f.ok();
}

bool OtlpDecoder::parse_attribute(const View &v) {
  Fields f(*this, v, "KeyValueAndUnit");
  OtlpAttribute a;
  while (f.next()) {
    bool ok;
    View m;
    switch (f.field) {
    case 1:
      if (f.wire == WireReader::kLen)
        return fail(f.at, other_version("v1.7.0 or earlier", "attribute_table holds KeyValue "
                                                             "messages with string keys"));
      ok = f.int32(&a.key, "key_strindex");
      break;
    case 2:
      ok = f.message(&m) && parse_any_value(m, &a);
      break;
    case 3:
      ok = f.int32(&a.unit, "unit_strindex");
      break;
    default:
      ok = f.unknown();
    }
    if (!ok) break;
  }
  attributes.push_back(a);
  attribute_at_.push_back(v.at);
  return f.ok();
}

// Scalars only: an array or key-value list value is kept as Kind::other (never descended into,
// so nesting depth cannot grow the stack).
bool OtlpDecoder::parse_any_value(const View &v, OtlpAttribute *a) {
  WireReader r(v.bytes, v.at);
  uint32_t field, wire;
  while (!r.done()) {
    if (!r.tag(&field, &wire)) break;
    size_t at = r.offset();
    if (field == 1 && wire == WireReader::kLen) {
      a->kind = OtlpAttribute::string;
      r.bytes(&a->str);
    } else if ((field == 2 || field == 3) && wire == WireReader::kVarint) {
      a->kind = field == 2 ? OtlpAttribute::boolean : OtlpAttribute::integer;
      r.int64(&a->num);
    } else if (field == 4 && wire == WireReader::kFixed64) {
      uint64_t bits = 0;
      r.fixed64(&bits);
      std::memcpy(&a->dbl, &bits, 8);
      a->kind = OtlpAttribute::floating;
    } else if (field == 8 && wire == WireReader::kVarint) {
      int64_t s = 0;
      if (r.int64(&s)) {
        if (s < 0 || s > INT32_MAX)
          return fail(at,
                      "AnyValue string_value_strindex " + std::to_string(s) + " is out of range");
        a->kind = OtlpAttribute::string;
        strindex_values_.emplace_back(attributes.size(), static_cast<int32_t>(s));
      }
    } else {
      a->kind = OtlpAttribute::other;
      r.skip(wire);
    }
  }
  if (r.failed()) return fail(r.error_offset(), "AnyValue: " + r.error());
  return true;
}

bool OtlpDecoder::parse_stack(const View &v) {
  Fields f(*this, v, "Stack");
  OtlpRange s;
  s.begin = static_cast<uint32_t>(stack_locations.size());
  while (f.next()) {
    if (f.field == 1) {
      if (!read_indices(f.r, f.wire, &stack_locations)) break;
    } else if (f.field == 2 && f.wire == WireReader::kVarint) {
      return fail(f.at, other_version("v1.7.0 or earlier", "dictionary field 7 holds "
                                                           "AttributeUnit messages"));
    } else {
      f.unknown();
      break;
    }
  }
  s.end = static_cast<uint32_t>(stack_locations.size());
  stacks.push_back(s);
  stack_at_.push_back(v.at);
  return f.ok();
}

// --- the profiles ---

bool OtlpDecoder::parse_resource_profiles(const View &v) {
  WireReader r(v.bytes, v.at);
  uint32_t field, wire;
  while (!r.done()) {
    if (!r.tag(&field, &wire)) break;
    if (field == 2 && wire == WireReader::kLen) {
      View m;
      if (!r.bytes(&m.bytes, &m.at) || !parse_scope_profiles(m)) break;
    } else {
      r.skip(wire); // resource, schema_url
    }
  }
  if (r.failed()) return fail(r.error_offset(), "ResourceProfiles: " + r.error());
  return error_.empty();
}

bool OtlpDecoder::parse_scope(const View &v, OtlpScope *out) {
  WireReader r(v.bytes, v.at);
  uint32_t field, wire;
  while (!r.done()) {
    if (!r.tag(&field, &wire)) break;
    if ((field == 1 || field == 2) && wire == WireReader::kLen)
      r.bytes(field == 1 ? &out->name : &out->version);
    else
      r.skip(wire);
  }
  if (r.failed()) return fail(r.error_offset(), "InstrumentationScope: " + r.error());
  return true;
}

bool OtlpDecoder::parse_scope_profiles(const View &v) {
  // The scope first (it may come after the profiles).
  const uint32_t scope = static_cast<uint32_t>(scopes.size());
  scopes.emplace_back();
  std::vector<View> profile_views;
  WireReader r(v.bytes, v.at);
  uint32_t field, wire;
  while (!r.done()) {
    if (!r.tag(&field, &wire)) break;
    View m;
    if ((field == 1 || field == 2) && wire == WireReader::kLen) {
      if (!r.bytes(&m.bytes, &m.at)) break;
      if (field == 1 && !parse_scope(m, &scopes[scope])) return false;
      if (field == 2) profile_views.push_back(m);
    } else {
      r.skip(wire); // schema_url
    }
  }
  if (r.failed()) return fail(r.error_offset(), "ScopeProfiles: " + r.error());
  for (const View &m : profile_views)
    if (!parse_profile(m, scope)) return false;
  return true;
}

bool OtlpDecoder::parse_value_type(const View &v, OtlpValueType *out) {
  Fields f(*this, v, "ValueType");
  while (f.next()) {
    bool ok;
    if (f.field == 1)
      ok = f.int32(&out->type, "type_strindex");
    else if (f.field == 2)
      ok = f.int32(&out->unit, "unit_strindex");
    else if (f.field == 3)
      return fail(f.at, other_version("v1.8.0 or earlier", "ValueType has an "
                                                           "aggregation_temporality"));
    else
      ok = f.unknown();
    if (!ok) break;
  }
  string_refs_.emplace_back(v.at, out->type);
  string_refs_.emplace_back(v.at, out->unit);
  return f.ok();
}

bool OtlpDecoder::parse_profile(const View &v, uint32_t scope) {
  Fields f(*this, v, "Profile");
  OtlpProfile p;
  p.scope = scope;
  p.at = v.at;
  p.samples.begin = static_cast<uint32_t>(samples.size());
  p.attributes.begin = static_cast<uint32_t>(attribute_refs.size());
  bool has_sample_type = false;
  std::vector<View> sample_views;
  std::vector<uint32_t> attrs;
  while (f.next()) {
    bool ok = true;
    View m;
    uint64_t u;
    switch (f.field) {
    case 1:
      if (has_sample_type)
        return fail(f.at, other_version("v1.7.0 or earlier", "a Profile with several "
                                                             "sample types"));
      has_sample_type = true;
      ok = f.message(&m) && parse_value_type(m, &p.sample_type);
      break;
    case 2:
      ok = f.message(&m);
      sample_views.push_back(m);
      break;
    case 3:
      if (f.wire == WireReader::kLen)
        return fail(f.at, other_version("v1.7.0 or earlier", "Profile field 3 holds "
                                                             "location_indices"));
      ok = f.fixed64(&p.time_unix_nano);
      break;
    case 4:
      ok = f.varint(&p.duration_nano);
      break;
    case 5:
      ok = f.message(&m) && parse_value_type(m, &p.period_type);
      break;
    case 6:
      ok = f.int64(&p.period);
      break;
    case 8:
      ok = f.varint(&u);
      break;
    case 7:
    case 9:
    case 10:
      ok = f.is(WireReader::kLen) && f.skip(); // profile_id, original payload
      break;
    case 11:
      ok = read_indices(f.r, f.wire, &attrs);
      break;
    case 12:
      return fail(f.at, other_version("v1.8.0", "Profile field 12 holds attribute_indices"));
    default:
      ok = f.unknown();
    }
    if (!ok) break;
  }
  if (!f.ok()) return false;
  attribute_refs.insert(attribute_refs.end(), attrs.begin(), attrs.end());
  p.attributes.end = static_cast<uint32_t>(attribute_refs.size());
  for (const View &m : sample_views)
    if (!parse_sample(m)) return false;
  p.samples.end = static_cast<uint32_t>(samples.size());
  profiles.push_back(p);
  return true;
}

bool OtlpDecoder::parse_sample(const View &v) {
  Fields f(*this, v, "Sample");
  OtlpSample s;
  s.at = v.at;
  int32_t stack = 0, link = 0;
  bool field2 = false;
  s.attributes.begin = static_cast<uint32_t>(attribute_refs.size());
  s.values.begin = static_cast<uint32_t>(values.size());
  s.times.begin = static_cast<uint32_t>(times.size());
  while (f.next()) {
    bool ok = true;
    switch (f.field) {
    case 1:
      ok = f.int32(&stack, "stack_index");
      break;
    case 2:
      field2 = true;
      ok = read_indices(f.r, f.wire, &attribute_refs);
      break;
    case 3:
      if (f.wire == WireReader::kLen)
        return fail(f.at, other_version("v1.8.0 or v1.9.0", "Sample field 3 holds "
                                                            "attribute_indices, values are "
                                                            "field 2"));
      ok = f.int32(&link, "link_index");
      break;
    case 4:
      if (f.wire == WireReader::kVarint) {
        int64_t x = 0;
        ok = f.r.int64(&x);
        values.push_back(x);
      } else if (f.is(WireReader::kLen)) {
        std::string_view packed;
        size_t at;
        ok = f.r.bytes(&packed, &at);
        WireReader p(packed, at);
        while (ok && !p.done()) {
          int64_t x = 0;
          if (p.int64(&x)) values.push_back(x);
        }
        if (p.failed()) return fail(p.error_offset(), "Sample values: " + p.error());
      } else {
        ok = false;
      }
      break;
    case 5:
      if (f.wire == WireReader::kFixed64) {
        uint64_t t = 0;
        ok = f.fixed64(&t);
        times.push_back(t);
      } else if (f.is(WireReader::kLen)) {
        std::string_view packed;
        size_t at;
        ok = f.r.bytes(&packed, &at);
        if (ok && packed.size() % 8 != 0)
          return fail(at, "Sample timestamps_unix_nano: " + std::to_string(packed.size()) +
                              " bytes is not a whole number of fixed64 values");
        for (size_t i = 0; ok && i < packed.size(); i += 8) {
          uint64_t t = 0;
          std::memcpy(&t, packed.data() + i, 8);
          times.push_back(t);
        }
      } else {
        ok = false;
      }
      break;
    default:
      ok = f.unknown();
    }
    if (!ok) break;
  }
  if (!f.ok()) return false;
  s.attributes.end = static_cast<uint32_t>(attribute_refs.size());
  s.values.end = static_cast<uint32_t>(values.size());
  s.times.end = static_cast<uint32_t>(times.size());
  const uint32_t nv = s.values.end - s.values.begin, nt = s.times.end - s.times.begin;
  if (nv == 0 && nt == 0) {
    if (field2)
      return fail(v.at, other_version("v1.8.0 or v1.9.0", "a Sample with field 2 and neither "
                                                          "values nor timestamps: field 2 "
                                                          "held the values"));
    return fail(v.at, "a Sample has neither values nor timestamps");
  }
  if (nv != 0 && nt != 0 && nv != nt)
    return fail(v.at, "a Sample has " + std::to_string(nv) + " values and " + std::to_string(nt) +
                          " timestamps (they must pair up)");
  if (stack < 0) return fail(v.at, "Sample stack_index " + std::to_string(stack));
  if (!check_index(link, links, v.at, "Sample link_index")) return false;
  s.stack = static_cast<uint32_t>(stack);
  samples.push_back(s);
  return true;
}

// --- references between tables ---

bool OtlpDecoder::check_references() {
  // Resolve string_value_strindex attribute values first (they are strings too).
  for (auto [attr, s] : strindex_values_) {
    if (!check_index(s, strings.size(), attribute_at_[attr], "attribute string_value_strindex"))
      return false;
    attributes[attr].str = s < static_cast<int64_t>(strings.size()) ? strings[s] : "";
  }
  for (auto [at, s] : string_refs_)
    if (!check_index(s, strings.size(), at, "string index")) return false;
  for (size_t i = 0; i < functions.size(); i++) {
    const OtlpFunction &fn = functions[i];
    for (int32_t s : {fn.name, fn.system_name, fn.filename})
      if (!check_index(s, strings.size(), function_at_[i], "function string index")) return false;
  }
  for (size_t i = 0; i < attributes.size(); i++)
    if (!check_index(attributes[i].key, strings.size(), attribute_at_[i], "attribute key") ||
        !check_index(attributes[i].unit, strings.size(), attribute_at_[i], "attribute unit"))
      return false;
  for (size_t i = 0; i < locations.size(); i++) {
    const OtlpLocation &l = locations[i];
    if (!check_index(l.mapping, mapping_files.size(), location_at_[i], "Location mapping_index"))
      return false;
    for (uint32_t k = l.lines.begin; k < l.lines.end; k++)
      if (lines[k].function >= functions.size())
        return fail(location_at_[i], "Line function_index " + std::to_string(lines[k].function) +
                                         " is out of range (" + std::to_string(functions.size()) +
                                         " functions)");
    for (uint32_t k = l.attributes.begin; k < l.attributes.end; k++)
      if (!check_index(attribute_refs[k], attributes.size(), location_at_[i],
                       "Location attribute index"))
        return false;
  }
  for (size_t i = 0; i < stacks.size(); i++)
    for (uint32_t k = stacks[i].begin; k < stacks[i].end; k++)
      if (stack_locations[k] >= locations.size())
        return fail(stack_at_[i], "Stack location index " + std::to_string(stack_locations[k]) +
                                      " is out of range (" + std::to_string(locations.size()) +
                                      " locations)");
  for (const OtlpProfile &p : profiles)
    for (uint32_t k = p.attributes.begin; k < p.attributes.end; k++)
      if (!check_index(attribute_refs[k], attributes.size(), p.at, "Profile attribute index"))
        return false;
  for (const OtlpSample &s : samples) {
    if (!check_index(s.stack, stacks.size(), s.at, "Sample stack_index")) return false;
    for (uint32_t k = s.attributes.begin; k < s.attributes.end; k++)
      if (!check_index(attribute_refs[k], attributes.size(), s.at, "Sample attribute index"))
        return false;
  }
  return true;
}

} // namespace hotlines
