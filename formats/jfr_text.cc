// UTF-8, Latin-1 and UTF-16 conversions for JFR strings (see jfr_text.h).
#include "formats/jfr_text.h"

namespace hotlines {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is invalid.
size_t utf8_sequence(std::string_view s, size_t i) {
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  size_t n = s.size();
  unsigned char c = p[i];
  if (c < 0x80) return 1;
  auto cont = [&](size_t k) { return i + k < n && (p[i + k] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    unsigned char c1 = p[i + 1];
    if (c == 0xE0 && c1 < 0xA0) return 0;  // overlong
    if (c == 0xED && c1 >= 0xA0) return 0; // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    unsigned char c1 = p[i + 1];
    if (c == 0xF0 && c1 < 0x90) return 0;
    if (c == 0xF4 && c1 >= 0x90) return 0;
    return 4;
  }
  return 0;
}

} // namespace

void append_code_point(std::string *out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool is_valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      i++;
      continue;
    }
    size_t n = utf8_sequence(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void append_sanitized_utf8(std::string *out, std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8_sequence(s, i);
    if (n == 0) {
      append_code_point(out, 0xFFFD);
      i++;
    } else {
      out->append(s.data() + i, n);
      i += n;
    }
  }
}

void append_latin1_as_utf8(std::string *out, std::string_view s) {
  for (char ch : s) append_code_point(out, static_cast<unsigned char>(ch));
}

void append_utf16_as_utf8(std::string *out, const uint16_t *u, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint32_t c = u[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF) {
      append_code_point(out, 0x10000 + ((c - 0xD800) << 10) + (u[i + 1] - 0xDC00));
      i++;
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      append_code_point(out, 0xFFFD);
    } else {
      append_code_point(out, c);
    }
  }
}

} // namespace hotlines
