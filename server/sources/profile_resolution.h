// ProfileResolution: every function of one profile resolved to source once, and the inverse
// (a workspace file -> the functions and frames of the profile that live in it). Built from
// a SourceResolver in one pass that resolves each distinct SourceKey once, then:
//  - breaks ties (several equally good files) by the candidate sharing the most leading path
//    components with the files other frames resolved to (then by path), and lists them;
//  - resolves path keys that matched nothing under a prefix mapping learned from the
//    resolved path-suffix matches (`/build/proj` -> `/home/me/proj`): rule inferred-prefix;
//  - turns "no root has package org.acme.x" into unresolved when sibling packages of the
//    same two leading components (org.acme) resolved (probably a missing source root);
//  - gives functions without a recorded start line the line of their declaration, found by
//    scanning the file (each file scanned once).
// Threading: build() blocks (run it on a worker thread, it checks `cancel`); the result is
// immutable, share it between threads as shared_ptr<const ProfileResolution>. It keeps the
// profile and the workspace snapshot it was built from alive.
#pragma once

#include "formats/profile.h"
#include "server/engine/line_keys.h"
#include "server/sources/source_resolver.h"

#include <atomic>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

struct Resolution {
  ResolutionStatus status = ResolutionStatus::external;
  std::string_view rule;      // kRule* (see source_resolver.h)
  std::string_view path;      // absolute path of the workspace file; "" unless resolved
  int32_t line = 0;           // the function's first line (recorded or declaration); 0 unknown
  std::string_view line_from; // "recorded", "declaration" or "" (no line)
  std::string_view reason;    // why external/unresolved; for ties, which candidates there were
  std::string_view recorded;  // what the profile names: recorded path or top-level JVM class
  bool tie = false;           // picked among several equally good files
};

// A recorded path or class that matched several files.
struct ResolutionTie {
  std::string recorded;                // recorded path or JVM class
  std::string_view rule;               // the rule that found the candidates
  std::vector<std::string> candidates; // sorted
  std::string chosen;
  size_t functions = 0; // functions of the profile with this key
};

class ProfileResolution {
public:
  static std::shared_ptr<const ProfileResolution> build(std::shared_ptr<const Profile> profile,
                                                        const SourceResolver &resolver,
                                                        const std::atomic<bool> *cancel = nullptr);

  const Profile &profile() const { return *profile_; }
  const WorkspaceIndex &workspace() const { return *workspace_; }
  const std::shared_ptr<const WorkspaceIndex> &shared_workspace() const { return workspace_; }
  // WorkspaceIndex::generation() of the snapshot it was built from.
  uint64_t workspace_generation() const { return generation_; }
  const ResolverOptions &options() const { return options_; }

  // The resolution of a function (one per FunctionId).
  const Resolution &of(FunctionId f) const { return by_function_[f]; }
  // A frame's source line: its own line, else its function's line (0 when unknown).
  int32_t line_of_frame(FrameId frame) const;

  // Workspace files some function resolved to, sorted.
  const std::vector<std::string> &files() const { return files_; }
  // The functions (increasing ids) and frames of the profile in a workspace file; empty when
  // none. `path` is absolute; a path through a symlink to a resolved file also finds it.
  std::span<const FunctionId> functions_in(std::string_view path) const;
  std::span<const FrameId> frames_in(std::string_view path) const;
  // The recorded file keys (LineKeys::file_name, server/engine/line_keys.h) of those functions:
  // `org/acme/shop/Pricing.java`, `/build/go-shop/internal/shop/shop.go`. Sorted.
  std::span<const std::string> recorded_files_in(std::string_view path) const;

  const std::vector<ResolutionTie> &ties() const { return ties_; }
  // Functions per status.
  size_t count(ResolutionStatus s) const { return counts_[static_cast<size_t>(s)]; }

private:
  ProfileResolution() = default;
  // Index into files_ of a path (also through symlinks), or -1.
  int64_t file_index(std::string_view path) const;

  std::shared_ptr<const Profile> profile_;
  std::shared_ptr<const WorkspaceIndex> workspace_;
  uint64_t generation_ = 0;
  ResolverOptions options_;
  std::vector<Resolution> by_function_;
  std::deque<std::string> text_; // storage behind the string_views of by_function_
  std::vector<std::string> files_;
  std::unordered_map<std::string, uint32_t> canonical_;      // realpath -> index into files_
  std::vector<uint32_t> fn_begin_, frame_begin_, key_begin_; // per file, CSR offsets
  std::vector<FunctionId> fn_ids_;
  std::vector<FrameId> frame_ids_;
  std::vector<std::string> keys_;
  std::vector<ResolutionTie> ties_;
  size_t counts_[3] = {0, 0, 0};
};

// The recorded file keys of a workspace file: those of the functions resolved to it, else
// (a file outside the indexed roots, or no resolution yet) the keys sharing the most trailing
// path components with it (file_keys_for_path).
std::vector<std::string> recorded_keys_for_path(const ProfileResolution *resolution,
                                                const LineKeys &keys, const std::string &path);

} // namespace hotlines
