// The JSON parser and accessors (see json_doc.h). One loop over the text with a stack of the
// open arrays and objects; RFC 8259 grammar, strictly (no comments, no trailing commas).
#include "formats/json_doc.h"

#include "formats/jfr_text.h" // append_code_point

#include <charconv>
#include <cmath>

namespace hotlines {

std::string_view json_type_name(JsonType t) {
  switch (t) {
  case JsonType::null:
    return "null";
  case JsonType::boolean:
    return "a boolean";
  case JsonType::number:
    return "a number";
  case JsonType::string:
    return "a string";
  case JsonType::array:
    return "an array";
  case JsonType::object:
    return "an object";
  }
  return "?";
}

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

} // namespace

bool JsonDoc::parse(std::string_view text, std::string *error, int64_t *offset,
                    const std::atomic<bool> *cancel) {
  text_ = text;
  values_.clear();
  size_t pos = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  const size_t n = text.size();
  std::vector<uint32_t> open; // the arrays and objects being read, innermost last
  enum class Want { value, value_or_close, key, key_or_close, colon, comma_or_close, done };
  Want want = Want::value;
  auto fail = [&](std::string message, size_t at) {
    *error = std::move(message);
    *offset = static_cast<int64_t>(at);
    values_.clear();
    return false;
  };
  auto add = [&](JsonType t, size_t at, size_t length) {
    const uint32_t id = static_cast<uint32_t>(values_.size());
    values_.push_back({t, 0, id + 1, at, static_cast<uint32_t>(length)});
    return id;
  };
  auto done_value = [&] {
    if (open.empty()) {
      want = Want::done;
    } else {
      values_[open.back()].count++;
      want = Want::comma_or_close;
    }
  };
  auto close = [&] {
    values_[open.back()].end = static_cast<uint32_t>(values_.size());
    open.pop_back();
    pos++;
    done_value();
  };
  // Scans the string starting at pos (a '"'); false when it is not well formed.
  auto scan_string = [&](std::string *why, size_t *at) {
    size_t i = pos + 1;
    while (true) {
      if (i >= n) return *why = "a string without its closing quote", *at = pos, false;
      const unsigned char c = static_cast<unsigned char>(text[i]);
      if (c == '"') break;
      if (c < 0x20) return *why = "a control character inside a string", *at = i, false;
      if (c != '\\') {
        i++;
        continue;
      }
      if (i + 1 >= n) return *why = "a string without its closing quote", *at = pos, false;
      const char e = text[i + 1];
      if (e == 'u') {
        for (size_t k = 2; k < 6; k++)
          if (i + k >= n || hex_digit(text[i + k]) < 0)
            return *why = "a \\u escape without 4 hex digits", *at = i, false;
        i += 6;
      } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                 e == 'r' || e == 't') {
        i += 2;
      } else {
        return *why = "an unknown escape in a string", *at = i, false;
      }
    }
    if (i - pos - 1 > UINT32_MAX) return *why = "a string over 4 GiB", *at = pos, false;
    add(JsonType::string, pos, i - pos - 1);
    pos = i + 1;
    return true;
  };
  while (true) {
    while (pos < n &&
           (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\r' || text[pos] == '\t'))
      pos++;
    if (want == Want::done) {
      if (pos != n) return fail("text after the end of the JSON value", pos);
      break;
    }
    if (pos >= n)
      return fail(values_.empty() ? "no JSON value" : "the JSON text ends inside a value", pos);
    if (cancel && (values_.size() & 0xfffff) == 0 && cancel->load(std::memory_order_relaxed))
      return fail("cancelled", pos);
    if (values_.size() >= UINT32_MAX - 1) return fail("more than 4 billion JSON values", pos);
    const char c = text[pos];
    std::string why;
    size_t at = pos;
    switch (want) {
    case Want::key_or_close:
      if (c == '}') {
        close();
        break;
      }
      [[fallthrough]];
    case Want::key:
      if (c != '"') return fail("expected a member name in double quotes", pos);
      if (!scan_string(&why, &at)) return fail(why, at);
      want = Want::colon;
      break;
    case Want::colon:
      if (c != ':') return fail("expected ':' after the member name", pos);
      pos++;
      want = Want::value;
      break;
    case Want::comma_or_close: {
      const bool object = values_[open.back()].type == JsonType::object;
      if (c == ',') {
        pos++;
        want = object ? Want::key : Want::value;
      } else if (c == (object ? '}' : ']')) {
        close();
      } else {
        return fail(object ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array",
                    pos);
      }
      break;
    }
    case Want::value_or_close:
      if (c == ']') {
        close();
        break;
      }
      [[fallthrough]];
    case Want::value:
      if (c == '{' || c == '[') {
        open.push_back(add(c == '{' ? JsonType::object : JsonType::array, pos, 0));
        pos++;
        want = c == '{' ? Want::key_or_close : Want::value_or_close;
      } else if (c == '"') {
        if (!scan_string(&why, &at)) return fail(why, at);
        done_value();
      } else if (c == '-' || is_digit(c)) {
        size_t i = pos + (c == '-');
        if (i >= n || !is_digit(text[i])) return fail("a '-' without digits", pos);
        if (text[i] == '0') {
          i++;
        } else {
          while (i < n && is_digit(text[i])) i++;
        }
        if (i < n && text[i] == '.') {
          if (++i >= n || !is_digit(text[i])) return fail("a '.' without digits after it", i);
          while (i < n && is_digit(text[i])) i++;
        }
        if (i < n && (text[i] == 'e' || text[i] == 'E')) {
          i++;
          if (i < n && (text[i] == '+' || text[i] == '-')) i++;
          if (i >= n || !is_digit(text[i])) return fail("an exponent without digits", i);
          while (i < n && is_digit(text[i])) i++;
        }
        if (i - pos > 4096) return fail("a number over 4096 characters long", pos);
        add(JsonType::number, pos, i - pos);
        pos = i;
        done_value();
      } else if (text.substr(pos, 4) == "true" || text.substr(pos, 5) == "false") {
        add(JsonType::boolean, pos, c == 't' ? 4 : 5);
        pos += c == 't' ? 4 : 5;
        done_value();
      } else if (text.substr(pos, 4) == "null") {
        add(JsonType::null, pos, 4);
        pos += 4;
        done_value();
      } else {
        return fail("expected a JSON value", pos);
      }
      break;
    case Want::done:
      break;
    }
  }
  return true;
}

uint32_t JsonDoc::member(uint32_t object, std::string_view key) const {
  if (values_[object].type != JsonType::object) return npos;
  uint32_t k = first(object);
  for (uint32_t i = 0; i < values_[object].count; i++) {
    const uint32_t v = k + 1;
    const std::string_view raw = raw_string(k);
    if (raw.find('\\') == std::string_view::npos ? raw == key : string(k) == key) return v;
    k = values_[v].end;
  }
  return npos;
}

bool JsonDoc::integer(uint32_t v, int64_t *out) const {
  if (values_[v].type != JsonType::number) return false;
  const std::string_view tok = text_.substr(values_[v].offset, values_[v].length);
  if (tok.find_first_of(".eE") == std::string_view::npos) {
    auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), *out);
    return ec == std::errc() && p == tok.data() + tok.size();
  }
  double d;
  if (!number(v, &d) || d != std::floor(d) || d < -9.2e18 || d > 9.2e18) return false;
  *out = static_cast<int64_t>(d);
  return true;
}

bool JsonDoc::number(uint32_t v, double *out) const {
  if (values_[v].type != JsonType::number) return false;
  const std::string_view tok = text_.substr(values_[v].offset, values_[v].length);
  auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), *out);
  return ec == std::errc() && std::isfinite(*out);
}

std::string_view JsonDoc::raw_string(uint32_t v) const {
  if (values_[v].type != JsonType::string) return {};
  return text_.substr(values_[v].offset + 1, values_[v].length);
}

std::string JsonDoc::string(uint32_t v) const {
  const std::string_view raw = raw_string(v);
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); i++) {
    if (raw[i] != '\\') {
      out.push_back(raw[i]);
      continue;
    }
    const char e = raw[++i];
    switch (e) {
    case 'b':
      out.push_back('\b');
      break;
    case 'f':
      out.push_back('\f');
      break;
    case 'n':
      out.push_back('\n');
      break;
    case 'r':
      out.push_back('\r');
      break;
    case 't':
      out.push_back('\t');
      break;
    case 'u': {
      auto hex4 = [&](size_t at) {
        uint32_t cp = 0;
        for (size_t k = 0; k < 4; k++) cp = cp * 16 + static_cast<uint32_t>(hex_digit(raw[at + k]));
        return cp;
      };
      uint32_t cp = hex4(i + 1);
      i += 4;
      if (cp >= 0xd800 && cp < 0xdc00 && raw.substr(i + 1, 2) == "\\u") { // escapes were checked
        const uint32_t low = hex4(i + 3);
        if (low >= 0xdc00 && low < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
      if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd; // a lone surrogate
      append_code_point(&out, cp);
      break;
    }
    default: // '"', '\\', '/'
      out.push_back(e);
    }
  }
  return out;
}

} // namespace hotlines
