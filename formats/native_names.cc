// Native name demangling (see native_names.h). Rust's legacy scheme is Itanium's nested name
// `_ZN <len><ident>… 17h<16 hex digits> E` with its own escapes inside identifiers; it is
// decoded here (the C++ demangler would keep the hash and the escapes). Anything else that
// starts with `_Z` goes to abi::__cxa_demangle; Rust's v0 names (`_R…`) to libiberty's
// rust_demangle.
#include "formats/native_names.h"

#include <cxxabi.h>
#include <libiberty/demangle.h>

#include <cstdlib>
#include <memory>

namespace hotlines {

namespace {

bool is_hex(std::string_view s) {
  for (char c : s)
    if (!isxdigit(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

// One escaped identifier of a legacy Rust name into `out`.
void rust_ident(std::string_view id, std::string *out) {
  static constexpr std::pair<std::string_view, char> kEscapes[] = {
      {"$SP$", '@'}, {"$BP$", '*'}, {"$RF$", '&'}, {"$LT$", '<'},
      {"$GT$", '>'}, {"$LP$", '('}, {"$RP$", ')'}, {"$C$", ','}};
  if (id.size() > 1 && id[0] == '_' && id[1] == '$') id.remove_prefix(1);
  for (size_t i = 0; i < id.size();) {
    if (id[i] == '$') {
      bool done = false;
      for (auto [esc, c] : kEscapes)
        if (id.substr(i, esc.size()) == esc) {
          out->push_back(c);
          i += esc.size();
          done = true;
          break;
        }
      if (done) continue;
      size_t end = id.find('$', i + 1);
      std::string_view code =
          end == std::string_view::npos ? std::string_view() : id.substr(i + 1, end - i - 1);
      if (code.size() >= 2 && code[0] == 'u' && is_hex(code.substr(1)) && code.size() <= 7) {
        unsigned long cp = std::strtoul(std::string(code.substr(1)).c_str(), nullptr, 16);
        if (cp < 0x80) {
          out->push_back(static_cast<char>(cp));
          i = end + 1;
          continue;
        }
      }
      out->push_back('$');
      i++;
    } else if (id.substr(i, 2) == "..") {
      out->append("::");
      i += 2;
    } else {
      out->push_back(id[i++]);
    }
  }
}

// `_ZN…17h<hash>E[suffix]` -> `a::b::c[suffix]`; false when the name is not legacy Rust.
bool demangle_rust_legacy(std::string_view name, std::string *out) {
  if (name.substr(0, 3) != "_ZN") return false;
  std::string_view rest = name.substr(3);
  std::string text;
  bool hashed = false;
  while (!rest.empty() && rest[0] != 'E') {
    size_t digits = 0, len = 0;
    while (digits < rest.size() && digits < 6 && isdigit(static_cast<unsigned char>(rest[digits])))
      len = len * 10 + static_cast<size_t>(rest[digits++] - '0');
    if (digits == 0 || len == 0 || len > rest.size() - digits) return false;
    std::string_view id = rest.substr(digits, len);
    rest.remove_prefix(digits + len);
    if (!rest.empty() && rest[0] == 'E' && id.size() == 17 && id[0] == 'h' &&
        is_hex(id.substr(1))) {
      hashed = true;
      break;
    }
    if (!text.empty()) text += "::";
    rust_ident(id, &text);
  }
  if (!hashed || rest.empty() || rest[0] != 'E' || text.empty()) return false;
  rest.remove_prefix(1);
  // `.llvm.123` (LTO) carries nothing a reader wants; other suffixes (`.cold`) stay.
  if (rest.substr(0, 6) == ".llvm.") rest = {};
  *out = text + std::string(rest);
  return true;
}

// `double shop::twice<double>(double) const` -> `shop::twice<double>`: what perf prints
// (libiberty without DMGL_PARAMS). Brackets are matched by counting, never by recursion.
std::string without_signature(std::string s) {
  // Trailing qualifiers of a member function, then the parameter list.
  for (bool again = true; again;) {
    again = false;
    for (std::string_view q : {" const", " volatile", " &&", " &", " noexcept"})
      if (s.size() > q.size() && s.compare(s.size() - q.size(), q.size(), q) == 0) {
        s.resize(s.size() - q.size());
        again = true;
      }
  }
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    size_t i = s.size();
    while (i > 0) {
      char c = s[--i];
      if (c == ')') depth++;
      if (c == '(' && --depth == 0) break;
    }
    if (depth == 0 && i > 0) s.resize(i);
  }
  // A return type before the name (template functions): the last space outside <> and ().
  int angle = 0, paren = 0;
  size_t cut = std::string::npos;
  for (size_t i = 0; i < s.size(); i++) {
    char c = s[i];
    if (c == '<')
      angle++;
    else if (c == '>' && angle > 0)
      angle--;
    else if (c == '(')
      paren++;
    else if (c == ')' && paren > 0)
      paren--;
    else if (c == ' ' && angle == 0 && paren == 0)
      cut = i;
  }
  if (cut != std::string::npos && s.find("operator") == std::string::npos) s.erase(0, cut + 1);
  return s;
}

} // namespace

std::string demangle_native(std::string_view name) {
  if (name.size() < 3 || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R'))
    return std::string(name);
  std::string out;
  if (demangle_rust_legacy(name, &out)) return out;
  // A suffix (`.isra.0`, `.cold`, `@plt`) after the mangled name stays as it is.
  if (name.size() > 4096) return std::string(name); // no real name is this long
  size_t end = name.find_first_of(".@");
  std::string_view suffix = end == std::string_view::npos ? std::string_view() : name.substr(end);
  std::string mangled(name.substr(0, end));
  const bool v0 = name[1] == 'R';
  // v0: libiberty's Rust demangler, which perf uses too (its depth of generics and
  // back-references is bounded by the library); C++: the C++ runtime's.
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(
      v0 ? rust_demangle(mangled.c_str(), 0)
         : abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
      &std::free);
  if (status != 0 || !d) return std::string(name);
  if (v0 && suffix.substr(0, 6) == ".llvm.") suffix = {};
  return (v0 ? std::string(d.get()) : without_signature(d.get())) + std::string(suffix);
}

} // namespace hotlines
