// Helpers for the source-resolution tests: a temporary folder tree built from
// {relative path, contents} pairs, and the workspace/resolver/resolution stack over it.
#pragma once

#include "formats/jvm_names.h"
#include "formats/profile_builder.h"
#include "server/sources/profile_resolution.h"
#include "server/sources/source_resolver.h"
#include "server/sources/workspace_index.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hotlines::test {

class TempTree {
public:
  TempTree() {
    char tmpl[] = "/tmp/hotlines-src-XXXXXX";
    const char *d = mkdtemp(tmpl);
    root_ = d ? d : "/tmp/hotlines-src-fallback";
  }
  TempTree(const TempTree &) = delete;
  TempTree &operator=(const TempTree &) = delete;
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  // Writes a file (creating folders); returns its absolute path.
  std::string write(const std::string &rel, const std::string &text = "") {
    std::string path = root_ + "/" + rel;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  // A symlink at `rel` pointing to `target` (absolute, or relative to the link's folder).
  void link(const std::string &rel, const std::string &target) {
    std::string path = root_ + "/" + rel;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::filesystem::create_symlink(target, path);
  }
  std::string path(const std::string &rel = "") const {
    return rel.empty() ? root_ : root_ + "/" + rel;
  }

private:
  std::string root_;
};

// A built index over roots.
inline std::shared_ptr<WorkspaceIndex> index_roots(const std::vector<std::string> &roots,
                                                   WorkspaceOptions options = {}) {
  auto ix = std::make_shared<WorkspaceIndex>(std::move(options));
  for (const std::string &r : roots) ix->add_root(r);
  ix->build();
  return ix;
}

// A hand-built profile with JVM, path and native frames.
class SourceProfile {
public:
  FunctionId java(std::string_view cls, std::string_view method) {
    Function f;
    f.name = b_.intern(jvm_display_name(cls, method));
    f.class_name = b_.intern(cls);
    f.method = b_.intern(method);
    return b_.function(f);
  }
  FunctionId path(std::string_view name, std::string_view file, int32_t start_line = 0) {
    Function f;
    f.name = b_.intern(name);
    f.file = b_.intern(file);
    f.start_line = start_line;
    return b_.function(f);
  }
  FunctionId native(std::string_view name) {
    Function f;
    f.name = b_.intern(name);
    return b_.function(f);
  }
  FrameId frame(FunctionId fn, int32_t line = 0) { return b_.frame(Frame{fn, line, -1, {}}); }
  // A sample of `weight` on frames given root first.
  void sample(const std::vector<FrameId> &root_first, int64_t weight = 1) {
    EventId e = b_.event("cpu", "samples");
    b_.add_sample(e, b_.stack_from_root(root_first), b_.thread("main"), weight, weight);
  }
  std::shared_ptr<const Profile> finish() { return std::shared_ptr<const Profile>(b_.finish()); }

private:
  ProfileBuilder b_;
};

// Resolves a profile against an index.
inline std::shared_ptr<const ProfileResolution>
resolve_profile(std::shared_ptr<const Profile> profile, std::shared_ptr<const WorkspaceIndex> ix,
                ResolverOptions options = {}) {
  SourceResolver resolver(std::move(ix), std::move(options));
  return ProfileResolution::build(std::move(profile), resolver);
}

} // namespace hotlines::test
