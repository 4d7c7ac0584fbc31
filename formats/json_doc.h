// JsonDoc: a read-only JSON document for the readers of JSON profiles (V8 .cpuprofile and
// .heapprofile) and source maps. Parsed without recursion (an explicit stack, so a hostile
// nesting depth costs memory, never the call stack) into one flat array of values in document
// order; strings and numbers stay in the input and are decoded when asked for. Errors give the
// byte offset. The formats layer takes no JSON library (README "Layout"): this is the whole of
// what its readers need. A JsonDoc is immutable once parsed: any thread may read it, and it
// must not outlive the text it was parsed from.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

enum class JsonType : uint8_t { null, boolean, number, string, array, object };

std::string_view json_type_name(JsonType t);

class JsonDoc {
public:
  static constexpr uint32_t npos = UINT32_MAX;

  // Parses `text` (UTF-8, an optional byte order mark); on failure returns false with a
  // message and the byte offset of the fault. Polls `cancel` now and then.
  bool parse(std::string_view text, std::string *error, int64_t *offset,
             const std::atomic<bool> *cancel = nullptr);

  // Value 0 is the document's top value. Values are numbered in document order; an object's
  // members are (key string, value) pairs.
  JsonType type(uint32_t v) const { return values_[v].type; }
  int64_t offset(uint32_t v) const { return static_cast<int64_t>(values_[v].offset); }
  // Elements of an array, members of an object.
  uint32_t size(uint32_t v) const { return values_[v].count; }
  // The first element of an array (npos when empty); next() goes to the following one.
  uint32_t first(uint32_t array) const { return values_[array].count ? array + 1 : npos; }
  uint32_t next(uint32_t element) const { return values_[element].end; }
  // The value of an object's member `key` (the first one of that name), npos when absent.
  uint32_t member(uint32_t object, std::string_view key) const;
  // An object's members in order: key k, value k + 1, next key next(k + 1).
  uint32_t first_key(uint32_t object) const { return first(object); }

  bool boolean(uint32_t v) const { return text_[values_[v].offset] == 't'; }
  // A number that is an integer in int64 range (written with a fraction or exponent too, as
  // long as its value is whole); false otherwise.
  bool integer(uint32_t v, int64_t *out) const;
  bool number(uint32_t v, double *out) const;
  // A string's decoded UTF-8 text (escapes resolved).
  std::string string(uint32_t v) const;
  // A string's raw text between its quotes: equal to string() when it has no `\`.
  std::string_view raw_string(uint32_t v) const;

private:
  struct Value {
    JsonType type;
    uint32_t count = 0;  // elements or members
    uint32_t end = 0;    // the value after this one and everything inside it
    uint64_t offset = 0; // first byte in the text
    uint32_t length = 0; // bytes of a string's inside or a number's token
  };
  std::string_view text_;
  std::vector<Value> values_;
};

} // namespace hotlines
