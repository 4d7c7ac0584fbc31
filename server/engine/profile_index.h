// ProfileIndex: everything queries need that depends only on the loaded profile, built once
// after load: the stack tree, function/line/file key tables, idle flags, and for every event
// and measure the unfiltered view with its hot-function, line, file and thread tables (the
// default event's at build, as an editor's first requests need them; the others when first
// asked for, since each holds two weights per stack tree node). The
// LSP server builds one per loaded profile on a worker thread and then shares it read-only
// between any number of query threads. Owns (shares) the profile.
#pragma once

#include "formats/profile.h"
#include "server/engine/function_keys.h"
#include "server/engine/line_keys.h"
#include "server/engine/stack_tree.h"
#include "server/engine/view_weights.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace hotlines {

struct CalleeShape;
struct FunctionLineKeys;

class ProfileIndex {
public:
  // Builds the index on up to `threads` threads (0: both cores). With `editor`, also what an
  // editor's first requests read (the default event's views, their line and file sums); the
  // CLI, which asks one question, leaves everything to first use. Null when cancelled.
  static std::shared_ptr<const ProfileIndex> build(std::shared_ptr<const Profile> profile,
                                                   const std::atomic<bool> *cancel = nullptr,
                                                   unsigned threads = 0, bool editor = true);

  const Profile &profile() const { return *profile_; }
  const std::shared_ptr<const Profile> &shared_profile() const { return profile_; }
  const std::shared_ptr<const StackTree> &tree() const { return tree_; }
  const FunctionKeys &functions(FunctionGrouping g) const;
  const LineKeys &lines() const { return *lines_; }
  const std::vector<uint8_t> &idle_functions() const { return idle_; }
  // First-on-path flags of the profile's own tree.
  FirstOnPath first_functions(FunctionGrouping g) const;
  FirstOnPath first_lines() const;
  FirstOnPath first_files() const;
  // The keys of hot lines' rows under a grouping and their flags on the profile's own tree,
  // built on first use.
  const FunctionLineKeys &function_lines(FunctionGrouping g) const;
  FirstOnPath first_function_lines(FunctionGrouping g) const;
  // The unfiltered view of an event (name grouping): computed by build() (see there) or on
  // first use (not cancellable; a caller waits while another thread computes it).
  std::shared_ptr<const ViewWeights> unfiltered(EventId event, Measure measure) const;
  // The merged callee tree of the profile's stacks (name grouping), built on first use.
  std::shared_ptr<const CalleeShape> callee_shape(bool lines) const;
  // The end of the profile in ns since its start: the duration, or past the last sample.
  int64_t end_ns() const { return end_ns_; }
  // True when some event has sample timestamps.
  bool has_time() const { return has_time_; }

private:
  ProfileIndex() = default;
  // Computes an unfiltered view; null when cancelled.
  std::shared_ptr<const ViewWeights> unfiltered_view(EventId e, Measure m,
                                                     const std::atomic<bool> *cancel) const;

  std::shared_ptr<const Profile> profile_;
  std::shared_ptr<const StackTree> tree_;
  std::unique_ptr<FunctionKeys> by_name_;
  mutable std::unique_ptr<FunctionKeys> by_fqn_;
  mutable std::once_flag fqn_once_;
  std::unique_ptr<LineKeys> lines_;
  std::vector<uint8_t> idle_;
  mutable std::once_flag once_name_, once_fqn_, once_lines_, once_files_;
  mutable FirstOnPath first_name_, first_fqn_, first_lines_, first_files_;
  // Unfiltered views by 2 * event + (measure == value), each set once.
  mutable std::unique_ptr<std::shared_ptr<const ViewWeights>[]> unfiltered_;
  std::unique_ptr<std::once_flag[]> unfiltered_once_;
  unsigned threads_ = 0;
  mutable std::once_flag function_lines_once_[2], first_function_lines_once_[2];
  mutable std::unique_ptr<FunctionLineKeys> function_lines_[2];
  mutable FirstOnPath first_function_lines_[2];
  mutable std::once_flag shape_once_[2];
  mutable std::shared_ptr<const CalleeShape> shape_[2];
  int64_t end_ns_ = 0;
  bool has_time_ = false;
};

} // namespace hotlines
