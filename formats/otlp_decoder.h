// OtlpDecoder: the OpenTelemetry profiles wire format (otlp_profiles.proto: opentelemetry-proto
// v1.10.0, profiles/v1development) into validated flat tables, without building protobuf
// messages. Every index (string, function, mapping, location, stack, attribute, link) is
// checked; a field that is not in v1.10.0, or a known field with another wire type, is an
// error, and the layouts of the earlier versions (v1.5.0 .. v1.9.0, told apart by the fields
// that moved) are named in it. Errors are "otlp: what" with the absolute byte offset; nesting
// is fixed (no recursion on input depth). Not thread-safe; the views point into the input,
// which must outlive the decoder.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

// The version the decoder reads, for messages and `info`.
inline constexpr std::string_view kOtlpVersion = "opentelemetry-proto v1.10.0";

// Table rows. Indices are already range-checked; string fields index OtlpDecoder::strings.
struct OtlpFunction {
  int32_t name = 0, system_name = 0, filename = 0;
  int64_t start_line = 0;
};
struct OtlpLine {
  uint32_t function = 0;
  int64_t line = 0;
};
struct OtlpRange {
  uint32_t begin = 0, end = 0;
};
struct OtlpLocation {
  uint32_t mapping = 0; // 0 = none (mapping_table[0] is the zero mapping)
  uint64_t address = 0;
  OtlpRange lines;      // into OtlpDecoder::lines, the inlined callees first
  OtlpRange attributes; // into OtlpDecoder::attribute_refs
};
struct OtlpAttribute {
  enum Kind : uint8_t { none, string, integer, boolean, floating, other };
  int32_t key = 0, unit = 0;
  Kind kind = none;
  std::string_view str; // Kind::string (a string_value, or a string_value_strindex resolved)
  int64_t num = 0;      // Kind::integer, boolean
  double dbl = 0;       // Kind::floating
};
struct OtlpSample {
  uint32_t stack = 0;
  OtlpRange attributes; // into attribute_refs
  OtlpRange values;     // into OtlpDecoder::values
  OtlpRange times;      // into OtlpDecoder::times
  size_t at = 0;        // byte offset of the sample, for errors
};
struct OtlpValueType {
  int32_t type = 0, unit = 0;
};
struct OtlpProfile {
  OtlpValueType sample_type, period_type;
  int64_t period = 0;
  uint64_t time_unix_nano = 0, duration_nano = 0;
  OtlpRange samples;    // into OtlpDecoder::samples
  OtlpRange attributes; // into attribute_refs
  uint32_t scope = 0;   // into OtlpDecoder::scopes
  size_t at = 0;
};
struct OtlpScope {
  std::string_view name, version;
};

class OtlpDecoder {
public:
  // Decodes and validates everything. False with error() set when malformed.
  bool decode(std::string_view data);

  const std::string &error() const { return error_; }
  int64_t error_offset() const { return error_at_; }

  std::vector<std::string_view> strings;
  std::vector<OtlpFunction> functions;
  std::vector<int32_t> mapping_files; // per mapping: its filename string
  std::vector<OtlpLocation> locations;
  std::vector<OtlpLine> lines;
  std::vector<OtlpAttribute> attributes;
  std::vector<OtlpRange> stacks;         // into stack_locations
  std::vector<uint32_t> stack_locations; // location indices, leaf first
  std::vector<uint32_t> attribute_refs;  // attribute indices of samples, locations, profiles
  size_t links = 0;                      // link_table size (links are not read further)
  std::vector<OtlpProfile> profiles;
  std::vector<OtlpSample> samples;
  std::vector<int64_t> values;
  std::vector<uint64_t> times;
  std::vector<OtlpScope> scopes;

private:
  struct View {
    std::string_view bytes;
    size_t at = 0;
  };
  class Fields;

  bool fail(size_t at, std::string message);
  bool parse_dictionary(const View &v);
  bool parse_mapping(const View &v);
  bool parse_location(const View &v);
  bool parse_function(const View &v);
  bool parse_attribute(const View &v);
  bool parse_any_value(const View &v, OtlpAttribute *out);
  bool parse_stack(const View &v);
  bool parse_resource_profiles(const View &v);
  bool parse_scope_profiles(const View &v);
  bool parse_scope(const View &v, OtlpScope *out);
  bool parse_profile(const View &v, uint32_t scope);
  bool parse_value_type(const View &v, OtlpValueType *out);
  bool parse_sample(const View &v);
  // Appends a repeated int32 index field (packed or not) to *out.
  bool read_indices(class WireReader &r, uint32_t wire, std::vector<uint32_t> *out);
  bool check_references();
  bool check_index(int64_t index, size_t size, size_t at, const char *what);

  std::string error_;
  int64_t error_at_ = -1;
  std::vector<size_t> location_at_, function_at_, stack_at_, attribute_at_;
  std::vector<std::pair<size_t, int32_t>> string_refs_;     // (offset, index) checked at the end
  std::vector<std::pair<size_t, int32_t>> strindex_values_; // attribute, string_value_strindex
};

} // namespace hotlines
