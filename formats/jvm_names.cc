// JVM name helpers (see jvm_names.h).
#include "formats/jvm_names.h"

#include <algorithm>
#include <cctype>

namespace hotlines {

namespace {

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Length of a `0x<hex>` run at s[i], or 0.
size_t hex_address_at(std::string_view s, size_t i) {
  if (i + 2 >= s.size() || s[i] != '0' || (s[i + 1] != 'x' && s[i + 1] != 'X')) return 0;
  size_t j = i + 2;
  while (j < s.size() && is_hex(s[j])) j++;
  return j > i + 2 ? j - i : 0;
}

} // namespace

std::string normalize_jvm_class(std::string_view c) {
  std::string out;
  out.reserve(c.size());
  for (size_t i = 0; i < c.size();) {
    // `$$Lambda$14` -> `$$Lambda` (the number is per run).
    if (c.compare(i, 8, "$$Lambda") == 0) {
      out.append("$$Lambda");
      i += 8;
      if (i + 1 < c.size() && c[i] == '$' && is_digit(c[i + 1])) {
        i++;
        while (i < c.size() && is_digit(c[i])) i++;
      }
      // `$$Lambda.399573350`: an identity hash some producers append (no identifier starts
      // with a digit, so this cannot be a method or a nested name).
      if (i + 1 < c.size() && c[i] == '.' && is_digit(c[i + 1])) {
        size_t j = i + 1;
        while (j < c.size() && is_digit(c[j])) j++;
        if (j == c.size() || c[j] == '.' || c[j] == '/' || c[j] == '$') i = j;
      }
      continue;
    }
    // `.0x7f…`, `/0x7f…`, `+0x7f…` address suffixes of hidden classes are dropped.
    if ((c[i] == '.' || c[i] == '/' || c[i] == '+') && i + 1 < c.size()) {
      if (size_t n = hex_address_at(c, i + 1)) {
        i += 1 + n;
        // The JDK's Flight Recorder appends `/<identity hash>` to hidden class names:
        // `org.acme.Main$$Lambda$89+0x00007f9b40007c30/1616974404`.
        if (i + 1 < c.size() && c[i] == '/' && is_digit(c[i + 1])) {
          size_t j = i + 1;
          while (j < c.size() && is_digit(c[j])) j++;
          if (j == c.size() || c[j] == '.' || c[j] == '$') i = j;
        }
        continue;
      }
    }
    out.push_back(c[i]);
    i++;
  }
  return out;
}

std::string jvm_internal_class(std::string_view c) {
  std::string out = normalize_jvm_class(c);
  if (out.find('/') == std::string::npos) std::replace(out.begin(), out.end(), '.', '/');
  return out;
}

std::string jvm_display_name(std::string_view internal_class, std::string_view method) {
  if (internal_class.empty()) return std::string(method);
  std::string out = normalize_jvm_class(internal_class);
  for (char &ch : out)
    if (ch == '/') ch = '.';
  out.push_back('.');
  out.append(method);
  return out;
}

bool split_jvm_frame(std::string_view f, std::string_view *cls, std::string_view *method) {
  // The method is after the last '.', and it must be a plain identifier (or <init>/<clinit>).
  size_t dot = f.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= f.size()) return false;
  std::string_view m = f.substr(dot + 1);
  for (char ch : m)
    if (!(isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$' || ch == '<' ||
          ch == '>' || static_cast<unsigned char>(ch) >= 0x80))
      return false;
  std::string_view c = f.substr(0, dot);
  if (c.find('/') == std::string_view::npos || c.front() == '/') return false;
  for (char ch : c)
    if (ch == ' ' || ch == ':' || ch == '(' || ch == ')' || ch == ';' || ch == '\\') return false;
  *cls = c;
  *method = m;
  return true;
}

namespace {

bool is_java_identifier(std::string_view s) {
  if (s.empty() || is_digit(s[0])) return false;
  for (char ch : s)
    if (!(isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$' ||
          static_cast<unsigned char>(ch) >= 0x80))
      return false;
  return true;
}

} // namespace

std::string slashed_jvm_frame(std::string_view f) {
  const size_t dot = f.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  const std::string_view method = f.substr(dot + 1), cls = f.substr(0, dot);
  if (!is_java_identifier(method) && method != "<init>" && method != "<clinit>") return {};
  // Segments of the class: identifiers, or a hidden class's `0x…` address / number (after a
  // dot, or a slash on JDK 21: `Main$$Lambda/0x…`).
  std::string_view simple;
  for (size_t start = 0; start <= cls.size();) {
    size_t end = cls.find_first_of("./", start);
    if (end == std::string_view::npos) end = cls.size();
    const std::string_view seg = cls.substr(start, end - start);
    if (end < cls.size() && cls[end] == '/' && (end + 1 >= cls.size() || !is_digit(cls[end + 1])))
      return {};
    if (!seg.empty() && is_digit(seg[0])) {
      if (simple.empty()) return {}; // an address needs a class before it
      for (char ch : seg.substr(seg.size() > 1 && (seg[1] == 'x' || seg[1] == 'X') ? 2 : 0))
        if (!is_hex(ch)) return {};
    } else if (is_java_identifier(seg)) {
      simple = seg;
    } else {
      return {};
    }
    start = end + 1;
  }
  if (!(simple[0] >= 'A' && simple[0] <= 'Z') && simple.find('$') == std::string_view::npos)
    return {};
  std::string out(f);
  for (size_t i = 0; i < dot; i++)
    if (out[i] == '.' && !is_digit(out[i + 1])) out[i] = '/';
  return out;
}

} // namespace hotlines
