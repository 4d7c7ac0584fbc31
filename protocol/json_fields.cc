// FieldReader (see json_fields.h).
#include "protocol/json_fields.h"

namespace hotlines {

namespace {
const nlohmann::json &empty_object() {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  return kEmpty;
}
} // namespace

FieldReader::FieldReader(const nlohmann::json &obj, std::string where)
    : obj_(obj.is_null() ? empty_object() : obj), where_(std::move(where)) {
  if (!obj_.is_object()) error_ = where_ + " must be an object";
}

const nlohmann::json *FieldReader::find(const char *key) {
  if (!ok()) return nullptr;
  auto it = obj_.find(key);
  if (it == obj_.end() || it->is_null()) return nullptr;
  return &*it;
}

void FieldReader::fail(const char *key, const char *expected) {
  if (ok()) error_ = where_ + "." + key + " must be " + expected;
}

void FieldReader::required(const char *key, std::string *out) {
  const nlohmann::json *v = find(key);
  if (!ok()) return;
  if (!v) {
    error_ = where_ + "." + key + " is required";
    return;
  }
  if (!v->is_string()) return fail(key, "a string");
  *out = v->get<std::string>();
}

void FieldReader::optional(const char *key, std::string *out) {
  if (const nlohmann::json *v = find(key)) {
    if (!v->is_string()) return fail(key, "a string");
    *out = v->get<std::string>();
  }
}

void FieldReader::optional(const char *key, std::optional<std::string> *out) {
  if (const nlohmann::json *v = find(key)) {
    if (!v->is_string()) return fail(key, "a string");
    *out = v->get<std::string>();
  }
}

void FieldReader::optional(const char *key, int64_t *out, int64_t min, int64_t max) {
  if (const nlohmann::json *v = find(key)) {
    if (!v->is_number_integer()) return fail(key, "an integer");
    int64_t x = v->get<int64_t>();
    if (x < min || x > max) {
      error_ = where_ + "." + key + " must be between " + std::to_string(min) + " and " +
               std::to_string(max);
      return;
    }
    *out = x;
  }
}

void FieldReader::optional(const char *key, bool *out) {
  if (const nlohmann::json *v = find(key)) {
    if (!v->is_boolean()) return fail(key, "a boolean");
    *out = v->get<bool>();
  }
}

void FieldReader::optional(const char *key, nlohmann::json *out) {
  if (const nlohmann::json *v = find(key)) *out = *v;
}

const nlohmann::json &FieldReader::object(const char *key) {
  const nlohmann::json *v = find(key);
  if (!v) return empty_object();
  if (!v->is_object()) {
    fail(key, "an object");
    return empty_object();
  }
  return *v;
}

} // namespace hotlines
