// JfrMetadata: the type system of one JFR chunk, read from its metadata event — every class
// with its id, super type, fields (type, constant-pool flag, array dimension) and annotations.
// Nothing here assumes a producer's field order: readers look fields up by name. Immutable
// once read; safe to share between threads.
#pragma once

#include "formats/jfr_input.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

// How values of a class are encoded.
enum class JfrKind : uint8_t {
  object, // a class with fields (inline struct or constant-pool entry)
  boolean,
  byte,
  char_,
  short_,
  int_,
  long_,
  float_,
  double_,
  string, // java.lang.String
};

struct JfrAnnotation {
  int64_t type_id = 0;
  std::string value; // the `value` attribute, "" when absent
};

struct JfrField {
  std::string name;
  int64_t type_id = 0;
  int type = -1; // index of the field's class in JfrMetadata::classes
  bool constant_pool = false;
  bool array = false;
  std::vector<JfrAnnotation> annotations;
};

struct JfrClass {
  int64_t id = 0;
  std::string name;
  std::string super_type;
  bool simple_type = false;
  JfrKind kind = JfrKind::object;
  std::vector<JfrField> fields;
  std::vector<JfrAnnotation> annotations;
};

class JfrMetadata {
public:
  std::vector<JfrClass> classes;

  // Index of the class with this id / name, or -1.
  int find(int64_t id) const;
  int find(std::string_view name) const;
  // Index of the field `name` of class `cls`, or -1.
  int field(int cls, std::string_view name) const;
  // The value of the annotation of class `annotation_class` (e.g. "jdk.jfr.Timespan") among
  // `annotations`; nullptr when absent.
  const std::string *annotation(const std::vector<JfrAnnotation> &annotations,
                                std::string_view annotation_class) const;

  // Builds the lookup tables and resolves field types. Returns false with *error when a
  // field names a type that is not declared.
  bool index(std::string *error);

private:
  std::unordered_map<int64_t, int> by_id_;
  std::unordered_map<std::string, int> by_name_;
};

// Reads the metadata event at the cursor (size, type 0, start, duration, id, string table,
// element tree). On failure returns false with *error and *error_offset.
bool read_jfr_metadata(JfrInput in, JfrMetadata *out, std::string *error, int64_t *error_offset);

} // namespace hotlines
