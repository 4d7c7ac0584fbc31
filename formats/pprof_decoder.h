// PprofDecoder: profile.proto's wire format into validated index tables, without building
// protobuf messages. decode() reads the top level, functions, mappings, locations, sample
// types and scalars, resolves every id and checks every string index; samples stay as byte
// views and are decoded one at a time by decode_sample() (the reader streams them). Errors are
// "pprof: what (where)" with the absolute byte offset. Not thread-safe; views point into the
// input, which must outlive the decoder.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hotlines {

// Maps pprof ids (uint64, usually dense from 1) to table indices.
class PprofIdIndex {
public:
  static constexpr uint32_t kNone = UINT32_MAX;
  // False on id 0 or a repeated id; *bad gets it.
  bool build(const std::vector<uint64_t> &ids, uint64_t *bad);
  uint32_t find(uint64_t id) const {
    if (use_dense_) return id < dense_.size() ? dense_[id] : kNone;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? kNone : it->second;
  }
  // Size of the id-indexed table when ids are dense, else 0.
  size_t dense_size() const { return use_dense_ ? dense_.size() : 0; }

private:
  bool use_dense_ = true;
  std::vector<uint32_t> dense_;
  std::unordered_map<uint64_t, uint32_t> sparse_;
};

struct PprofView {
  std::string_view bytes;
  size_t at = 0; // absolute offset of bytes[0]
};

// Table rows; string fields are indices into PprofDecoder::strings, already range-checked.
struct PprofFunction {
  uint64_t id = 0;
  int64_t name = 0, system_name = 0, filename = 0, start_line = 0;
};
struct PprofMapping {
  uint64_t id = 0;
  int64_t filename = 0;
};
struct PprofLine {
  uint32_t function = 0; // index into PprofDecoder::functions
  int64_t line = 0;
};
struct PprofLocation {
  uint64_t id = 0, address = 0;
  uint32_t mapping = PprofIdIndex::kNone; // index into mappings, kNone for none
  uint32_t line_begin = 0, line_end = 0;  // into PprofDecoder::lines, innermost first
  size_t at = 0;
};
struct PprofLabel {
  int64_t key = 0, str = 0, num = 0, unit = 0;
};
struct PprofValueType {
  int64_t type = 0, unit = 0;
};

class PprofDecoder {
public:
  // Decodes everything but the samples' contents. False with error() set when malformed.
  bool decode(std::string_view data);
  // Decodes sample `i` (appending its values to *values) and checks it: value count, label
  // string indices. Location ids are returned as recorded (the caller resolves them).
  bool decode_sample(size_t i, std::vector<uint64_t> *location_ids, std::vector<int64_t> *values,
                     std::vector<PprofLabel> *labels);

  // Records an error (the first one wins); returns false.
  bool fail(size_t at, std::string message);
  const std::string &error() const { return error_; }
  int64_t error_offset() const { return error_at_; }

  std::vector<std::string_view> strings;
  std::vector<PprofValueType> sample_types;
  PprofValueType period_type;
  std::vector<PprofFunction> functions;
  std::vector<PprofMapping> mappings;
  std::vector<PprofLocation> locations;
  std::vector<PprofLine> lines;
  PprofIdIndex location_ids;
  std::vector<PprofView> samples; // undecoded
  std::vector<int64_t> comments;
  int64_t drop_frames = 0, keep_frames = 0, time_nanos = 0, duration_nanos = 0, period = 0,
          default_sample_type = 0;

private:
  bool scan_top(std::string_view data);
  bool parse_tables();
  bool parse_functions();
  bool parse_mappings();
  // Appends each location's mapping id and each of its lines' function id.
  bool parse_locations(std::vector<uint64_t> *mapping_ids, std::vector<uint64_t> *function_ids);
  // One Location.line of the location with id location_id.
  bool parse_line(const PprofView &line, uint64_t location_id, std::vector<uint64_t> *function_ids);
  // Checks the tables' ids and resolves the locations' mapping and function ids to indices.
  bool resolve_ids(const std::vector<uint64_t> &mapping_ids,
                   const std::vector<uint64_t> &function_ids);
  bool parse_value_type(const PprofView &v, const char *what, PprofValueType *out);
  bool check_string(int64_t index, size_t at, const std::string &what);
  bool valid_string(int64_t index) const {
    return index >= 0 && static_cast<uint64_t>(index) < strings.size();
  }

  std::string error_;
  int64_t error_at_ = -1;
  std::vector<PprofView> sample_type_views_, mapping_views_, location_views_, function_views_;
  PprofView period_type_view_;
  bool has_period_type_ = false;
};

} // namespace hotlines
