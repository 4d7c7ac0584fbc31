// Path text helpers for source resolution (see source_path.h). Pure; thread-safe.
#include "server/sources/source_path.h"

#include <cctype>

namespace hotlines {

namespace {

// Folds `.`, `..` and empty components; `..` above the root of an absolute path is dropped,
// above a relative path it is kept.
std::string fold(std::string_view text, bool absolute) {
  std::vector<std::string_view> out;
  for (std::string_view c : path_components(text)) {
    if (c == ".") continue;
    if (c == "..") {
      if (!out.empty() && out.back() != "..") {
        out.pop_back();
        continue;
      }
      if (absolute) continue;
    }
    out.push_back(c);
  }
  std::string s(absolute ? 1 : 0, '/'); // (not `s = "/"`: g++ 12 -Wrestrict false positive)
  for (size_t i = 0; i < out.size(); i++) {
    if (i) s += '/';
    s += out[i];
  }
  return s;
}

} // namespace

std::vector<std::string_view> path_components(std::string_view path) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

CleanPath clean_recorded_path(std::string_view raw) {
  CleanPath r;
  std::string_view v = raw;
  if (v.substr(0, 7) == "file://") v.remove_prefix(7);
  if (v.size() >= 3 && v[0] == '/' && v[2] == ':' && isalpha(static_cast<unsigned char>(v[1])))
    v.remove_prefix(1); // file:///C:/...
  if (v.size() >= 2 && v[1] == ':' && isalpha(static_cast<unsigned char>(v[0]))) {
    r.had_drive = true;
    v.remove_prefix(2);
  }
  r.windows = r.had_drive || v.find('\\') != std::string_view::npos;
  std::string s;
  s.reserve(v.size() + 1);
  if (r.had_drive && (v.empty() || (v[0] != '/' && v[0] != '\\'))) s.push_back('/');
  for (char c : v) s.push_back(c == '\\' ? '/' : c);
  static constexpr std::string_view kProcCwd = "/proc/self/cwd";
  std::string_view rest = s;
  if (path_has_prefix(rest, kProcCwd)) {
    r.from_proc_cwd = true;
    rest.remove_prefix(kProcCwd.size());
    while (!rest.empty() && rest[0] == '/') rest.remove_prefix(1);
  }
  r.absolute = !rest.empty() && rest[0] == '/';
  r.path = fold(rest, r.absolute);
  return r;
}

std::string normal_absolute_path(std::string_view dir, std::string_view cwd) {
  if (!dir.empty() && dir[0] == '/') return fold(dir, true);
  return fold(join_path(cwd, dir), true);
}

bool path_has_prefix(std::string_view path, std::string_view prefix) {
  while (prefix.size() > 1 && prefix.back() == '/') prefix.remove_suffix(1);
  if (prefix.empty() || prefix == "/") return !path.empty() && path[0] == '/';
  if (path.size() < prefix.size() || path.compare(0, prefix.size(), prefix) != 0) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '/';
}

bool apply_remap(const CleanPath &path, const PathRemap &remap, std::string *out) {
  CleanPath from = clean_recorded_path(remap.from);
  if (from.path.empty() || from.absolute != path.absolute) return false;
  if (!path_has_prefix(path.path, from.path)) return false;
  std::string_view rest =
      std::string_view(path.path).substr(from.path == "/" ? 1 : from.path.size());
  while (!rest.empty() && rest[0] == '/') rest.remove_prefix(1);
  std::string to = clean_recorded_path(remap.to).path;
  *out = rest.empty() ? to : join_path(to, rest);
  return true;
}

bool parse_remap(std::string_view text, PathRemap *out) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  out->from = std::string(text.substr(0, eq));
  out->to = std::string(text.substr(eq + 1));
  return true;
}

std::string leading_path(std::string_view path, size_t n) {
  std::string s(!path.empty() && path[0] == '/' ? 1 : 0, '/');
  size_t i = 0;
  for (std::string_view c : path_components(path)) {
    if (i++ == n) break;
    if (!s.empty() && s.back() != '/') s += '/';
    s += c;
  }
  return s;
}

std::string join_path(std::string_view dir, std::string_view rel) {
  if (dir.empty()) return std::string(rel);
  if (rel.empty()) return std::string(dir);
  std::string s(dir);
  if (s.back() != '/') s += '/';
  while (!rel.empty() && rel[0] == '/') rel.remove_prefix(1);
  s += rel;
  return s;
}

std::string_view path_basename(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view path_dirname(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {};
  if (slash == 0) return path.substr(0, 1);
  return path.substr(0, slash);
}

} // namespace hotlines
