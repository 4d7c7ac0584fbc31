// Recorded file keys named by a workspace path or a user's file name (see file_keys.h).
#include "server/engine/file_keys.h"

#include <algorithm>
#include <cctype>

namespace hotlines {

namespace {

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return tolower(static_cast<unsigned char>(x)) == tolower(static_cast<unsigned char>(y));
         });
}

struct TrailingMatch {
  size_t components = 0; // trailing components in common
  size_t exact_case = 0; // of which the same in case too
};

// The trailing components `a` and the recorded `key` share; ignoring case when the key looks
// recorded on Windows.
TrailingMatch trailing_match(std::string_view a, std::string_view key) {
  const bool fold = looks_windows_recorded(key);
  TrailingMatch m;
  while (!a.empty() && !key.empty()) {
    size_t sa = a.find_last_of("/\\"), sb = key.find_last_of("/\\");
    std::string_view ca = sa == std::string_view::npos ? a : a.substr(sa + 1);
    std::string_view cb = sb == std::string_view::npos ? key : key.substr(sb + 1);
    if (ca.empty()) break;
    if (ca == cb) {
      m.exact_case++;
    } else if (!fold || !same_ignoring_case(ca, cb)) {
      break;
    }
    m.components++;
    a = sa == std::string_view::npos ? std::string_view() : a.substr(0, sa);
    key = sb == std::string_view::npos ? std::string_view() : key.substr(0, sb);
  }
  return m;
}

} // namespace

bool looks_windows_recorded(std::string_view path) {
  if (path.substr(0, 8) == "file:///") path.remove_prefix(8);
  return (path.size() >= 2 && path[1] == ':' && isalpha(static_cast<unsigned char>(path[0]))) ||
         path.find('\\') != std::string_view::npos;
}

size_t common_trailing_components(std::string_view a, std::string_view b) {
  return trailing_match(a, b).components;
}

std::vector<std::string> file_keys_for_path(const LineKeys &keys, std::string_view path) {
  std::vector<std::string> out;
  TrailingMatch best;
  for (uint32_t f = 0; f < keys.file_count(); f++) {
    const std::string &key = keys.file_name(f);
    TrailingMatch m = trailing_match(path, key);
    size_t n = m.components;
    size_t key_parts =
        std::count_if(key.begin(), key.end(), [](char c) { return c == '/' || c == '\\'; }) +
        (key.empty() || key[0] == '/' ? 0 : 1);
    if (n == 0 || (n < key_parts && n < 2)) continue;
    // The most components; among those, the most in exact case.
    if (n > best.components || (n == best.components && m.exact_case > best.exact_case))
      best = m, out.clear();
    if (n == best.components && m.exact_case == best.exact_case) out.push_back(key);
  }
  return out;
}

std::vector<std::string> recorded_keys_named(const LineKeys &keys, std::string_view name) {
  if (keys.find_file(name) != kNoKey) return {std::string(name)};
  size_t parts = 0;
  for (size_t i = 0; i < name.size(); i++)
    if (name[i] != '/' && name[i] != '\\' && (i == 0 || name[i - 1] == '/' || name[i - 1] == '\\'))
      parts++;
  std::vector<std::string> out;
  size_t best_exact = 0;
  for (uint32_t f = 0; parts > 0 && f < keys.file_count(); f++) {
    TrailingMatch m = trailing_match(name, keys.file_name(f));
    if (m.components != parts || m.exact_case < best_exact) continue;
    if (m.exact_case > best_exact) best_exact = m.exact_case, out.clear();
    out.push_back(keys.file_name(f));
  }
  return out;
}

} // namespace hotlines
