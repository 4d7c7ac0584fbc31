// FlameSourcePaths (see flame_source_paths.h).
// Threading: Built and queried on one thread (the CLI's main thread).
#include "server/flame_source_paths.h"

#include <filesystem>
#include <system_error>

namespace hotlines {

namespace fs = std::filesystem;

namespace {

std::vector<std::string_view> split_path(std::string_view p) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= p.size(); i++) {
    if (i == p.size() || p[i] == '/' || p[i] == '\\') {
      if (i > start) out.push_back(p.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

std::string basename_of(std::string_view p) {
  std::vector<std::string_view> parts = split_path(p);
  return parts.empty() ? std::string() : std::string(parts.back());
}

} // namespace

std::string jvm_class_file_stem(std::string_view cls, bool *kotlin) {
  *kotlin = false;
  size_t slash = cls.rfind('/');
  size_t dollar = cls.find('$', slash == std::string_view::npos ? 0 : slash + 1);
  std::string_view outer = cls.substr(0, dollar);
  if (outer.size() > 2 && outer.substr(outer.size() - 2) == "Kt") {
    *kotlin = true;
    outer.remove_suffix(2);
  }
  return std::string(outer);
}

FlameSourcePaths::FlameSourcePaths(std::string root, size_t max_files) : root_(std::move(root)) {
  std::error_code ec;
  fs::path r = fs::absolute(root_, ec);
  if (!ec) r = r.lexically_normal();
  if (ec || !fs::is_directory(r, ec)) {
    error_ = "source root " + root_ + " is not a folder";
    return;
  }
  root_ = r.string();
  if (root_.size() > 1 && root_.back() == '/') root_.pop_back();
  size_t files = 0;
  auto it = fs::recursive_directory_iterator(r, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::directory_entry &e = *it;
    std::string name = e.path().filename().string();
    std::error_code type_ec;
    if (e.is_directory(type_ec)) {
      if (name.empty() || name[0] == '.' || name == "node_modules") it.disable_recursion_pending();
      continue;
    }
    if (!e.is_regular_file(type_ec)) continue;
    by_basename_[name].push_back(e.path().string());
    if (++files >= max_files) break;
  }
}

std::string FlameSourcePaths::best_suffix_match(const std::string &relative,
                                                size_t *matched) const {
  *matched = 0;
  auto it = by_basename_.find(basename_of(relative));
  if (it == by_basename_.end()) return {};
  std::vector<std::string_view> want = split_path(relative);
  std::string best;
  for (const std::string &candidate : it->second) {
    std::vector<std::string_view> have = split_path(candidate);
    size_t n = 0;
    while (n < want.size() && n < have.size() &&
           want[want.size() - 1 - n] == have[have.size() - 1 - n])
      n++;
    // Longest suffix wins; among equals the shorter (less nested) path, then the first.
    if (n > *matched || (n == *matched && candidate.size() < best.size())) {
      *matched = n;
      best = candidate;
    }
  }
  return best;
}

SourcePath FlameSourcePaths::resolve(const Profile &p, const Function &f) const {
  SourcePath out;
  std::vector<std::string> tries; // relative paths, best first
  size_t need = 1;                // components that must match
  if (f.file != 0) {
    std::string recorded(p.str(f.file));
    out.relative = recorded;
    std::error_code ec;
    if (!recorded.empty() && recorded[0] == '/' && fs::is_regular_file(recorded, ec)) {
      out.path = recorded;
      return out;
    }
    tries.push_back(recorded);
  } else if (f.class_name != 0) {
    bool kotlin = false;
    std::string stem = jvm_class_file_stem(p.str(f.class_name), &kotlin);
    need = split_path(stem).size();
    if (kotlin) tries.push_back(stem + ".kt");
    for (const char *ext : {".java", ".kt", ".scala", ".groovy"}) tries.push_back(stem + ext);
    out.relative = tries.front();
  } else {
    std::string_view lib = f.library ? p.str(f.library) : std::string_view();
    out.why = lib.empty() ? "no source file recorded for this frame (native or runtime code)"
                          : "native code in " + std::string(lib) + ": no source file recorded";
    return out;
  }
  if (!error_.empty()) {
    out.why = error_;
    return out;
  }
  for (const std::string &rel : tries) {
    size_t matched = 0;
    std::string best = best_suffix_match(rel, &matched);
    if (!best.empty() && matched >= need) {
      out.path = best;
      return out;
    }
  }
  out.why = "no file " + out.relative + " under " + root_;
  return out;
}

} // namespace hotlines
