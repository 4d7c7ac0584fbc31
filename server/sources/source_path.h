// Path text helpers for source resolution: turning a recorded path (pprof, collapsed frames,
// possibly from another machine or OS) into a clean slash-separated form, splitting paths
// into components, prefix tests on component boundaries and configured prefix remaps.
// Pure functions over strings (no file system access); thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

// A configured prefix rewrite, like pprof's -trim_path/-source_path: a recorded path starting
// with `from` (on a component boundary) is looked up as `to` + the rest.
struct PathRemap {
  std::string from, to;
};

// A recorded path made comparable: `file://` dropped, `\` turned into `/`, a drive letter
// (`C:`) dropped (the path stays absolute), a leading `/proc/self/cwd/` dropped (the path
// becomes relative to the build's working directory), and `.`, `..` and repeated slashes
// folded. Relative paths stay relative; the result has no trailing slash.
struct CleanPath {
  std::string path;
  bool absolute = false;
  bool had_drive = false;     // `C:\...` or `C:/...`
  bool from_proc_cwd = false; // `/proc/self/cwd/...`
  bool windows = false;       // a drive letter or backslashes: recorded on Windows, so its
                              // components match workspace files ignoring case
};
CleanPath clean_recorded_path(std::string_view raw);

// Lexically normal absolute path: `dir` made absolute against `cwd` (when relative), `.`, `..`
// and repeated slashes folded, no trailing slash (except "/").
std::string normal_absolute_path(std::string_view dir, std::string_view cwd);

// Components of a slash-separated path ("/a/b/c" and "a/b/c" -> a, b, c).
std::vector<std::string_view> path_components(std::string_view path);

// True when `path` is `prefix` or starts with `prefix` followed by `/` (component boundary).
// An empty prefix or "/" matches every absolute path.
bool path_has_prefix(std::string_view path, std::string_view prefix);

// The path with `remap` applied when it matches (see PathRemap); returns false otherwise.
// Both sides are compared after clean_recorded_path().
bool apply_remap(const CleanPath &path, const PathRemap &remap, std::string *out);

// Parses `FROM=TO` (the CLI's --remap); false when there is no `=` or FROM is empty.
bool parse_remap(std::string_view text, PathRemap *out);

// The leading `n` components of a path as a path ("/a/b/c", 2 -> "/a/b").
std::string leading_path(std::string_view path, size_t n);

// Joins a directory and a relative path with one slash.
std::string join_path(std::string_view dir, std::string_view rel);

// The last component ("a/b/c.go" -> "c.go").
std::string_view path_basename(std::string_view path);

// The directory part ("a/b/c.go" -> "a/b", "c.go" -> "", "/c.go" -> "/").
std::string_view path_dirname(std::string_view path);

} // namespace hotlines
