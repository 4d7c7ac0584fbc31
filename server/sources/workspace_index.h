// WorkspaceIndex: the files under the workspace's source roots, indexed for source
// resolution. Every file is kept with the components of its absolute path, in two orders:
// by reversed path (longest path-suffix matches, basename lookups) and by reversed directory
// (which folders end with a given package path). build() walks the roots, skipping
// configured folder names (.git, build, target, ...), following symlinks to folders once each
// (by device and inode, so links cannot loop); add_file/remove_path keep it current from
// file events. Also records the Go modules (go.mod `module` lines) found in the tree, and the
// Kotlin files whose `@file:JvmName("Bar")` renames their file facade (read from each .kt
// file's head). Suffix lookups can ignore ASCII case, for paths recorded on Windows.
// Threading: not synchronized. build() blocks (run it on a worker thread); build or mutate on
// one thread, then share the result as const (shared_ptr<const WorkspaceIndex>); to apply
// file events to a shared index, copy it, mutate the copy and swap the pointer.
#pragma once

#include <atomic>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <sys/types.h>

namespace hotlines {

using WorkspaceFileId = uint32_t;

struct WorkspaceOptions {
  // Folder names never entered (anywhere in the tree).
  std::vector<std::string> skip_dirs = {".git", "build",        "target",  "out",
                                        "bin",  "node_modules", ".gradle", ".idea"};
  size_t max_files = 2'000'000; // stop indexing past this many files
};

struct GoModule {
  std::string path; // module path from go.mod (`example.com/gows`)
  std::string dir;  // absolute folder holding the go.mod
};

class WorkspaceIndex {
public:
  explicit WorkspaceIndex(WorkspaceOptions options = {});

  // Adds a source root (made absolute against the current directory, normalised). Roots are
  // walked in the order added; a folder reached from two roots is indexed once.
  void add_root(std::string_view dir);
  const std::vector<std::string> &roots() const { return roots_; }
  const WorkspaceOptions &options() const { return options_; }

  // Walks every root and replaces the index. Blocking; checks `cancel` between folders.
  // Returns false when cancelled (the index is then partial).
  bool build(const std::atomic<bool> *cancel = nullptr);

  // File events. add_file indexes one file under a root (false when outside every root, in a
  // skipped folder, or already indexed); remove_path drops a file or every file under a
  // folder (false when nothing was indexed there). Paths are absolute.
  bool add_file(std::string_view path);
  bool remove_path(std::string_view path);

  // Bumped by build, add_file and remove_path: resolutions made against an older
  // generation may be stale.
  uint64_t generation() const { return generation_; }

  size_t size() const { return live_; }
  // The absolute path of a file.
  const std::string &path(WorkspaceFileId id) const { return files_[id].path; }
  // The file with this absolute (normalised) path, or false.
  bool find(std::string_view path, WorkspaceFileId *id = nullptr) const;
  // Every indexed file, in path order.
  std::vector<WorkspaceFileId> all_files() const;

  // The files whose paths end with the most trailing components of `components` (a path
  // split by path_components). `*matched` gets how many components matched (0: none, and
  // the result is empty).
  std::vector<WorkspaceFileId> longest_suffix(std::span<const std::string_view> components,
                                              size_t *matched) const;
  // The same with components compared ignoring ASCII case (a path recorded on Windows):
  // the files matching the most trailing components, and among those the ones matching
  // the most of them in exact case.
  std::vector<WorkspaceFileId>
  longest_suffix_ignoring_case(std::span<const std::string_view> components, size_t *matched) const;
  // The files whose folder path ends with all of `dir_components` (e.g. a package path
  // `org/acme/shop`); empty components match every file.
  std::vector<WorkspaceFileId>
  in_dirs_ending_with(std::span<const std::string_view> dir_components) const;
  // True when some folder path ends with all of `dir_components`.
  bool has_dir_ending_with(std::span<const std::string_view> dir_components) const;

  // The Go modules found (go.mod files with a `module` line), longest module path first.
  const std::vector<GoModule> &go_modules() const { return go_modules_; }

  // The Kotlin files whose `@file:JvmName` names the JVM class `internal_class`
  // (`org/acme/Bar`: package line + name), by path.
  std::vector<WorkspaceFileId> kotlin_jvm_name_files(std::string_view internal_class) const;

  // Time the last build() took, in seconds, and the folders it entered.
  double build_seconds() const { return build_seconds_; }
  size_t dirs_walked() const { return dirs_walked_; }

private:
  struct File {
    std::string path;
    uint32_t comp_begin = 0, comp_count = 0; // into comps_
    bool live = false;
  };
  using Range = std::pair<size_t, size_t>;

  void clear();
  WorkspaceFileId insert(std::string path);
  void sort_orders();
  uint32_t intern(std::string_view component);
  uint32_t find_component(std::string_view component) const;
  // The components equal to `component` ignoring ASCII case.
  std::vector<uint32_t> case_variants(std::string_view component) const;
  // Reads a .kt file's head for `@file:JvmName` and records it for file `id`.
  void scan_kotlin_file(WorkspaceFileId id);
  // The k-th component from the end of file `f` (skipping `skip` trailing ones), or -1.
  int64_t rev_comp(WorkspaceFileId f, size_t k, size_t skip) const;
  bool rev_less(WorkspaceFileId a, WorkspaceFileId b, size_t skip) const;
  // Narrows a range of `order` to entries whose k-th reversed component is `comp`.
  Range narrow(const std::vector<WorkspaceFileId> &order, Range r, size_t k, size_t skip,
               uint32_t comp) const;
  void walk(const std::string &root, std::set<std::pair<dev_t, ino_t>> *seen,
            const std::atomic<bool> *cancel, bool *cancelled);
  bool skipped(std::string_view name) const;
  void scan_go_mod(const std::string &path);
  const std::string *root_of(std::string_view path) const;

  WorkspaceOptions options_;
  std::vector<std::string> roots_;
  std::vector<File> files_;
  std::vector<uint32_t> comps_;
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> comp_ids_;
  // Lower-cased component -> the components with upper-case ASCII letters that fold to it
  // (an all-lower-case component is found in comp_ids_ itself).
  std::unordered_map<std::string, std::vector<uint32_t>, Hash, std::equal_to<>> folded_comps_;
  // JVM class (`org/acme/Bar`) -> the live .kt files whose `@file:JvmName` names it.
  std::unordered_map<std::string, std::vector<WorkspaceFileId>, Hash, std::equal_to<>>
      kotlin_jvm_names_;
  std::vector<WorkspaceFileId> by_rev_path_, by_rev_dir_;
  std::vector<GoModule> go_modules_;
  size_t live_ = 0;
  uint64_t generation_ = 0;
  double build_seconds_ = 0;
  size_t dirs_walked_ = 0;
};

} // namespace hotlines
