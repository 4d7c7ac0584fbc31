// Reading typed fields out of JSON params with errors that name the field, so a handler's
// parse failure becomes a precise -32602 InvalidParams. Optional and null fields are handled
// here rather than by the JSON library's exceptions.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace hotlines {

class FieldReader {
public:
  // `obj` must be an object (null params count as an empty object).
  explicit FieldReader(const nlohmann::json &obj, std::string where = "params");

  bool ok() const { return error_.empty(); }
  const std::string &error() const { return error_; }

  void required(const char *key, std::string *out);
  void optional(const char *key, std::string *out);
  void optional(const char *key, std::optional<std::string> *out);
  void optional(const char *key, int64_t *out, int64_t min, int64_t max);
  void optional(const char *key, bool *out);
  void optional(const char *key, nlohmann::json *out); // any value, kept as JSON
  // The object under `key` (empty object when absent); a non-object is an error.
  const nlohmann::json &object(const char *key);

private:
  const nlohmann::json *find(const char *key);
  void fail(const char *key, const char *expected);
  const nlohmann::json &obj_;
  std::string where_, error_;
};

} // namespace hotlines
