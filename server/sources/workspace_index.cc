// The workspace file index (see workspace_index.h). Not synchronized; build() blocks.
#include "server/sources/workspace_index.h"

#include "server/sources/source_path.h"
#include "server/sources/source_scan.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace hotlines {

namespace {

std::string current_dir() {
  char buf[4096];
  return getcwd(buf, sizeof buf) ? std::string(buf) : std::string("/");
}

// The module path of a go.mod file: its `module` line (quotes and comments allowed).
std::string go_module_path(const std::string &go_mod) {
  std::ifstream in(go_mod);
  std::string line;
  for (int n = 0; n < 200 && std::getline(in, line); n++) {
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line.compare(i, 7, "module ") != 0) continue;
    std::string_view rest = std::string_view(line).substr(i + 7);
    size_t a = rest.find_first_not_of(" \t\"`");
    if (a == std::string_view::npos) return {};
    rest.remove_prefix(a);
    size_t b = rest.find_first_of(" \t\"`\r");
    return std::string(rest.substr(0, b));
  }
  return {};
}

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char &c : out) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return out;
}

bool has_upper_ascii(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

bool is_kotlin_file(std::string_view path) {
  return path.size() > 3 && path.substr(path.size() - 3) == ".kt";
}

} // namespace

WorkspaceIndex::WorkspaceIndex(WorkspaceOptions options) : options_(std::move(options)) {}

void WorkspaceIndex::add_root(std::string_view dir) {
  std::string root = normal_absolute_path(dir, current_dir());
  if (std::find(roots_.begin(), roots_.end(), root) == roots_.end()) roots_.push_back(root);
}

void WorkspaceIndex::clear() {
  files_.clear();
  comps_.clear();
  comp_ids_.clear();
  folded_comps_.clear();
  kotlin_jvm_names_.clear();
  by_rev_path_.clear();
  by_rev_dir_.clear();
  go_modules_.clear();
  live_ = 0;
}

uint32_t WorkspaceIndex::intern(std::string_view c) {
  auto it = comp_ids_.find(c);
  if (it != comp_ids_.end()) return it->second;
  uint32_t id = static_cast<uint32_t>(comp_ids_.size());
  comp_ids_.emplace(std::string(c), id);
  if (has_upper_ascii(c)) folded_comps_[lower_ascii(c)].push_back(id);
  return id;
}

std::vector<uint32_t> WorkspaceIndex::case_variants(std::string_view c) const {
  std::string lower = lower_ascii(c);
  std::vector<uint32_t> out;
  if (uint32_t id = find_component(lower); id != UINT32_MAX) out.push_back(id);
  if (auto it = folded_comps_.find(lower); it != folded_comps_.end())
    out.insert(out.end(), it->second.begin(), it->second.end());
  return out;
}

void WorkspaceIndex::scan_kotlin_file(WorkspaceFileId id) {
  std::string cls = kotlin_jvm_name_of_file(files_[id].path);
  if (cls.empty()) return;
  std::vector<WorkspaceFileId> &ids = kotlin_jvm_names_[cls];
  if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
}

std::vector<WorkspaceFileId>
WorkspaceIndex::kotlin_jvm_name_files(std::string_view internal_class) const {
  auto it = kotlin_jvm_names_.find(internal_class);
  if (it == kotlin_jvm_names_.end()) return {};
  std::vector<WorkspaceFileId> out = it->second;
  std::sort(out.begin(), out.end(),
            [&](WorkspaceFileId a, WorkspaceFileId b) { return files_[a].path < files_[b].path; });
  return out;
}

uint32_t WorkspaceIndex::find_component(std::string_view c) const {
  auto it = comp_ids_.find(c);
  return it == comp_ids_.end() ? UINT32_MAX : it->second;
}

WorkspaceFileId WorkspaceIndex::insert(std::string path) {
  File f;
  f.comp_begin = static_cast<uint32_t>(comps_.size());
  for (std::string_view c : path_components(path)) comps_.push_back(intern(c));
  f.comp_count = static_cast<uint32_t>(comps_.size() - f.comp_begin);
  f.path = std::move(path);
  f.live = true;
  files_.push_back(std::move(f));
  live_++;
  return static_cast<WorkspaceFileId>(files_.size() - 1);
}

int64_t WorkspaceIndex::rev_comp(WorkspaceFileId f, size_t k, size_t skip) const {
  const File &file = files_[f];
  if (k + skip >= file.comp_count) return -1;
  return comps_[file.comp_begin + file.comp_count - 1 - skip - k];
}

bool WorkspaceIndex::rev_less(WorkspaceFileId a, WorkspaceFileId b, size_t skip) const {
  for (size_t k = 0;; k++) {
    int64_t ca = rev_comp(a, k, skip), cb = rev_comp(b, k, skip);
    if (ca != cb) return ca < cb;
    if (ca < 0) return a < b; // same reversed path: by id, so the order is total
  }
}

void WorkspaceIndex::sort_orders() {
  by_rev_path_.clear();
  for (WorkspaceFileId f = 0; f < files_.size(); f++)
    if (files_[f].live) by_rev_path_.push_back(f);
  by_rev_dir_ = by_rev_path_;
  std::sort(by_rev_path_.begin(), by_rev_path_.end(),
            [&](WorkspaceFileId a, WorkspaceFileId b) { return rev_less(a, b, 0); });
  std::sort(by_rev_dir_.begin(), by_rev_dir_.end(),
            [&](WorkspaceFileId a, WorkspaceFileId b) { return rev_less(a, b, 1); });
}

WorkspaceIndex::Range WorkspaceIndex::narrow(const std::vector<WorkspaceFileId> &order, Range r,
                                             size_t k, size_t skip, uint32_t comp) const {
  auto first = order.begin() + static_cast<ptrdiff_t>(r.first);
  auto last = order.begin() + static_cast<ptrdiff_t>(r.second);
  const int64_t c = comp;
  auto lo = std::partition_point(first, last,
                                 [&](WorkspaceFileId f) { return rev_comp(f, k, skip) < c; });
  auto hi =
      std::partition_point(lo, last, [&](WorkspaceFileId f) { return rev_comp(f, k, skip) <= c; });
  return {static_cast<size_t>(lo - order.begin()), static_cast<size_t>(hi - order.begin())};
}

bool WorkspaceIndex::skipped(std::string_view name) const {
  for (const std::string &s : options_.skip_dirs)
    if (s == name) return true;
  return false;
}

void WorkspaceIndex::scan_go_mod(const std::string &path) {
  std::string module = go_module_path(path);
  if (module.empty()) return;
  go_modules_.push_back({module, std::string(path_dirname(path))});
}

void WorkspaceIndex::walk(const std::string &top, std::set<std::pair<dev_t, ino_t>> *seen,
                          const std::atomic<bool> *cancel, bool *cancelled) {
  // Folders reached through symlinks wait until every real folder is walked, so a file is
  // indexed under its real path when the tree has one.
  std::vector<std::string> stack{top}, linked;
  while (!stack.empty() || !linked.empty()) {
    if (stack.empty()) {
      std::sort(linked.begin(), linked.end(), std::greater<>());
      stack.swap(linked);
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      *cancelled = true;
      return;
    }
    if (live_ >= options_.max_files) return;
    std::string dir = std::move(stack.back());
    stack.pop_back();
    DIR *d = opendir(dir.c_str());
    if (!d) continue;
    struct stat st;
    if (fstat(dirfd(d), &st) != 0 || !seen->insert({st.st_dev, st.st_ino}).second) {
      closedir(d);
      continue;
    }
    dirs_walked_++;
    const size_t first_child = stack.size();
    while (struct dirent *e = readdir(d)) {
      const char *name = e->d_name;
      if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
      std::string path = dir == "/" ? "/" + std::string(name) : dir + "/" + name;
      unsigned char type = e->d_type;
      bool link = type == DT_LNK;
      if (type == DT_LNK || type == DT_UNKNOWN) {
        struct stat target;
        if (type == DT_UNKNOWN && lstat(path.c_str(), &target) == 0) link = S_ISLNK(target.st_mode);
        if (stat(path.c_str(), &target) != 0) continue; // dangling link
        type = S_ISDIR(target.st_mode) ? DT_DIR : S_ISREG(target.st_mode) ? DT_REG : DT_UNKNOWN;
      }
      if (type == DT_DIR) {
        if (!skipped(name)) (link ? linked : stack).push_back(std::move(path));
      } else if (type == DT_REG) {
        if (live_ >= options_.max_files) break;
        if (strcmp(name, "go.mod") == 0) scan_go_mod(path);
        insert(std::move(path));
      }
    }
    closedir(d);
    // Visit children in name order (the walk order decides which of two links to one folder
    // is indexed, so keep it independent of readdir order).
    std::sort(stack.begin() + static_cast<ptrdiff_t>(first_child), stack.end(), std::greater<>());
  }
}

bool WorkspaceIndex::build(const std::atomic<bool> *cancel) {
  auto start = std::chrono::steady_clock::now();
  clear();
  dirs_walked_ = 0;
  bool cancelled = false;
  // A folder reached from two roots (nested roots, links) is indexed once: under the first.
  std::set<std::pair<dev_t, ino_t>> seen;
  for (const std::string &root : roots_) {
    walk(root, &seen, cancel, &cancelled);
    if (cancelled) break;
  }
  // Files in path order (deterministic ids); a path seen twice is kept once.
  std::sort(files_.begin(), files_.end(),
            [](const File &a, const File &b) { return a.path < b.path; });
  {
    std::vector<File> unique;
    unique.reserve(files_.size());
    std::vector<uint32_t> comps;
    comps.reserve(comps_.size());
    for (File &f : files_) {
      if (!unique.empty() && unique.back().path == f.path) continue;
      uint32_t begin = static_cast<uint32_t>(comps.size());
      comps.insert(comps.end(), comps_.begin() + f.comp_begin,
                   comps_.begin() + f.comp_begin + f.comp_count);
      f.comp_begin = begin;
      unique.push_back(std::move(f));
    }
    files_ = std::move(unique);
    comps_ = std::move(comps);
    live_ = files_.size();
  }
  std::sort(go_modules_.begin(), go_modules_.end(), [](const GoModule &a, const GoModule &b) {
    return a.path.size() != b.path.size() ? a.path.size() > b.path.size() : a.dir < b.dir;
  });
  go_modules_.erase(std::unique(go_modules_.begin(), go_modules_.end(),
                                [](const GoModule &a, const GoModule &b) {
                                  return a.path == b.path && a.dir == b.dir;
                                }),
                    go_modules_.end());
  sort_orders();
  // Ids are final now: read the Kotlin files' heads for `@file:JvmName`.
  for (WorkspaceFileId f = 0; f < files_.size() && !cancelled; f++) {
    if ((f & 1023) == 0 && cancel && cancel->load(std::memory_order_relaxed)) cancelled = true;
    if (!cancelled && is_kotlin_file(files_[f].path)) scan_kotlin_file(f);
  }
  generation_++;
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return !cancelled;
}

const std::string *WorkspaceIndex::root_of(std::string_view path) const {
  for (const std::string &r : roots_)
    if (path_has_prefix(path, r)) return &r;
  return nullptr;
}

bool WorkspaceIndex::find(std::string_view path, WorkspaceFileId *id) const {
  std::vector<std::string_view> comps = path_components(path);
  size_t matched = 0;
  std::vector<WorkspaceFileId> ids = longest_suffix(comps, &matched);
  if (matched != comps.size()) return false;
  for (WorkspaceFileId f : ids)
    if (files_[f].path == path) {
      if (id) *id = f;
      return true;
    }
  return false;
}

bool WorkspaceIndex::add_file(std::string_view raw) {
  if (raw.empty() || raw[0] != '/') return false;
  std::string path = normal_absolute_path(raw, "/");
  const std::string *root = root_of(path);
  if (!root) return false;
  std::string_view rel = std::string_view(path).substr(root->size());
  for (std::string_view c : path_components(rel))
    if (skipped(c)) return false;
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return false;
  std::vector<std::string> added;
  if (S_ISDIR(st.st_mode)) {
    // A new folder: index what is in it.
    WorkspaceIndex sub(options_);
    sub.roots_ = {path};
    sub.build();
    for (WorkspaceFileId f : sub.all_files())
      if (!find(sub.path(f))) added.push_back(sub.path(f));
  } else if (S_ISREG(st.st_mode) && !find(path)) {
    added.push_back(path);
  }
  if (added.empty()) return false;
  for (std::string &p : added) {
    if (path_basename(p) == "go.mod") {
      scan_go_mod(p);
      std::stable_sort(
          go_modules_.begin(), go_modules_.end(),
          [](const GoModule &a, const GoModule &b) { return a.path.size() > b.path.size(); });
    }
    WorkspaceFileId id = insert(std::move(p));
    auto pos =
        std::upper_bound(by_rev_path_.begin(), by_rev_path_.end(), id,
                         [&](WorkspaceFileId a, WorkspaceFileId b) { return rev_less(a, b, 0); });
    by_rev_path_.insert(pos, id);
    pos = std::upper_bound(by_rev_dir_.begin(), by_rev_dir_.end(), id,
                           [&](WorkspaceFileId a, WorkspaceFileId b) { return rev_less(a, b, 1); });
    by_rev_dir_.insert(pos, id);
    if (is_kotlin_file(files_[id].path)) scan_kotlin_file(id);
  }
  generation_++;
  return true;
}

bool WorkspaceIndex::remove_path(std::string_view raw) {
  if (raw.empty() || raw[0] != '/') return false;
  std::string path = normal_absolute_path(raw, "/");
  size_t removed = 0;
  for (File &f : files_) {
    if (!f.live || !path_has_prefix(f.path, path)) continue;
    f.live = false;
    removed++;
    if (path_basename(f.path) == "go.mod") {
      std::string_view dir = path_dirname(f.path);
      std::erase_if(go_modules_, [&](const GoModule &m) { return m.dir == dir; });
    }
  }
  if (removed == 0) return false;
  live_ -= removed;
  auto dead = [&](WorkspaceFileId f) { return !files_[f].live; };
  std::erase_if(by_rev_path_, dead);
  std::erase_if(by_rev_dir_, dead);
  for (auto it = kotlin_jvm_names_.begin(); it != kotlin_jvm_names_.end();) {
    std::erase_if(it->second, dead);
    it = it->second.empty() ? kotlin_jvm_names_.erase(it) : std::next(it);
  }
  generation_++;
  return true;
}

std::vector<WorkspaceFileId> WorkspaceIndex::all_files() const {
  std::vector<WorkspaceFileId> out = by_rev_path_;
  std::sort(out.begin(), out.end(),
            [&](WorkspaceFileId a, WorkspaceFileId b) { return files_[a].path < files_[b].path; });
  return out;
}

std::vector<WorkspaceFileId>
WorkspaceIndex::longest_suffix(std::span<const std::string_view> components,
                               size_t *matched) const {
  Range r{0, by_rev_path_.size()};
  size_t k = 0;
  for (; k < components.size(); k++) {
    uint32_t c = find_component(components[components.size() - 1 - k]);
    if (c == UINT32_MAX) break;
    Range n = narrow(by_rev_path_, r, k, 0, c);
    if (n.first == n.second) break;
    r = n;
  }
  *matched = k;
  if (k == 0) return {};
  return {by_rev_path_.begin() + static_cast<ptrdiff_t>(r.first),
          by_rev_path_.begin() + static_cast<ptrdiff_t>(r.second)};
}

std::vector<WorkspaceFileId>
WorkspaceIndex::longest_suffix_ignoring_case(std::span<const std::string_view> components,
                                             size_t *matched) const {
  // Each case variant of a component narrows a range of by_rev_path_ to a sub-range of its
  // own, so the files matching k components ignoring case are a few disjoint ranges; each
  // remembers how many of its components matched in exact case.
  struct Candidates {
    Range range;
    size_t exact_case;
  };
  std::vector<Candidates> ranges{{{0, by_rev_path_.size()}, 0}}, next;
  size_t k = 0;
  for (; k < components.size(); k++) {
    std::string_view want = components[components.size() - 1 - k];
    const uint32_t exact = find_component(want);
    next.clear();
    for (uint32_t c : case_variants(want))
      for (const Candidates &r : ranges) {
        Range n = narrow(by_rev_path_, r.range, k, 0, c);
        if (n.first != n.second) next.push_back({n, r.exact_case + (c == exact ? 1 : 0)});
      }
    if (next.empty()) break;
    ranges.swap(next);
  }
  *matched = k;
  if (k == 0) return {};
  size_t best = 0;
  for (const Candidates &r : ranges) best = std::max(best, r.exact_case);
  std::vector<WorkspaceFileId> out;
  for (const Candidates &r : ranges)
    if (r.exact_case == best)
      out.insert(out.end(), by_rev_path_.begin() + static_cast<ptrdiff_t>(r.range.first),
                 by_rev_path_.begin() + static_cast<ptrdiff_t>(r.range.second));
  return out;
}

std::vector<WorkspaceFileId>
WorkspaceIndex::in_dirs_ending_with(std::span<const std::string_view> dir_components) const {
  Range r{0, by_rev_dir_.size()};
  for (size_t k = 0; k < dir_components.size(); k++) {
    uint32_t c = find_component(dir_components[dir_components.size() - 1 - k]);
    if (c == UINT32_MAX) return {};
    r = narrow(by_rev_dir_, r, k, 1, c);
    if (r.first == r.second) return {};
  }
  return {by_rev_dir_.begin() + static_cast<ptrdiff_t>(r.first),
          by_rev_dir_.begin() + static_cast<ptrdiff_t>(r.second)};
}

bool WorkspaceIndex::has_dir_ending_with(std::span<const std::string_view> dir_components) const {
  Range r{0, by_rev_dir_.size()};
  for (size_t k = 0; k < dir_components.size(); k++) {
    uint32_t c = find_component(dir_components[dir_components.size() - 1 - k]);
    if (c == UINT32_MAX) return false;
    r = narrow(by_rev_dir_, r, k, 1, c);
    if (r.first == r.second) return false;
  }
  return r.first != r.second;
}

} // namespace hotlines
