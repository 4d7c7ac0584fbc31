// Recorded file keys named by a workspace path or a user's file name (see file_keys.h).
#include "server/engine/file_keys.h"

#include <algorithm>

namespace hotlines {

size_t common_trailing_components(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (!a.empty() && !b.empty()) {
    size_t sa = a.find_last_of("/\\"), sb = b.find_last_of("/\\");
    std::string_view ca = sa == std::string_view::npos ? a : a.substr(sa + 1);
    std::string_view cb = sb == std::string_view::npos ? b : b.substr(sb + 1);
    if (ca != cb || ca.empty()) break;
    n++;
    a = sa == std::string_view::npos ? std::string_view() : a.substr(0, sa);
    b = sb == std::string_view::npos ? std::string_view() : b.substr(0, sb);
  }
  return n;
}

std::vector<std::string> file_keys_for_path(const LineKeys &keys, std::string_view path) {
  std::vector<std::string> out;
  size_t best = 0;
  for (uint32_t f = 0; f < keys.file_count(); f++) {
    const std::string &key = keys.file_name(f);
    size_t n = common_trailing_components(path, key);
    size_t key_parts =
        std::count_if(key.begin(), key.end(), [](char c) { return c == '/' || c == '\\'; }) +
        (key.empty() || key[0] == '/' ? 0 : 1);
    if (n == 0 || (n < key_parts && n < 2)) continue;
    if (n > best) best = n, out.clear();
    if (n == best) out.push_back(key);
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
  for (uint32_t f = 0; parts > 0 && f < keys.file_count(); f++)
    if (common_trailing_components(name, keys.file_name(f)) == parts)
      out.push_back(keys.file_name(f));
  return out;
}

} // namespace hotlines
