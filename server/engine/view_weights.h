// ViewWeights: a computed view — the stack tree its samples land on and, per node, the
// weight of the samples whose leaf is that node (self, kept where not zero) and of its whole
// subtree (cum). Every query reads these. Unfiltered views are computed once at load by
// ProfileIndex and carry precomputed tables (hot functions, lines, files, threads), so the
// frequent queries are lookups; filtered views are computed on demand by compute_view() on
// both cores.
// Immutable once built (lazy parts use call_once); share it between threads. It refers to its
// ProfileIndex, which must outlive it.
#pragma once

#include "server/engine/key_map.h"
#include "server/engine/node_totals.h"
#include "server/engine/sparse_weights.h"
#include "server/engine/stack_tree.h"
#include "server/engine/view.h"
#include "server/engine/view_pass.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

class ProfileIndex;
class FunctionKeys;
class LineKeys;

// Sums kept with an unfiltered view (name grouping), so that the frequent queries are lookups.
struct UnfilteredTables {
  KeySums functions;                  // by FunctionKeys(name) key
  std::vector<uint32_t> by_self;      // function keys with weight, hottest self first
  std::vector<uint32_t> by_total;     // function keys with weight, hottest total first
  std::vector<int64_t> thread_weight; // by ThreadId
  // By LineKeys::lines() and files() key: ViewWeights::table_lines() and table_files() fill
  // them on first use.
  mutable std::once_flag lines_once, files_once;
  mutable KeySums lines, files;
};

class ViewWeights {
public:
  const ProfileIndex *index = nullptr;
  View view;         // as asked
  EventId event = 0; // resolved event
  Measure measure = Measure::value;
  std::shared_ptr<const StackTree> tree;
  std::shared_ptr<const SparseWeights> self_weights; // per tree node, where not zero
  std::shared_ptr<const NodeTotals> cum_weights;     // per tree node
  int64_t total = 0;    // weight of every passing sample (empty stacks included)
  int64_t empty = 0;    // weight of passing samples with an empty stack
  uint64_t samples = 0; // passing sample rows
  std::shared_ptr<const UnfilteredTables> tables; // set for unfiltered views only

  const Profile &profile() const;
  const FunctionKeys &functions() const; // keys of view.grouping
  const LineKeys &lines() const;
  const SparseWeights &self() const { return *self_weights; }
  const NodeTotals &cum() const { return *cum_weights; }
  // First-on-path flags of the tree for function keys (view.grouping), lines and files.
  const NodeFlags &first_function() const;
  const NodeFlags &first_line() const;
  const NodeFlags &first_file() const;
  // An unfiltered view's line and file sums (null for a filtered view), computed on first use.
  const KeySums *table_lines() const;
  const KeySums *table_files() const;
  // ... and for hot lines' (function, line) keys (ProfileIndex::function_lines).
  const NodeFlags &first_function_line() const;
  std::string_view event_name() const;
  std::string_view unit() const; // "samples" for the count measure, else the event's unit

private:
  mutable std::once_flag once_fn_, once_line_, once_file_, once_fn_line_;
  mutable FirstOnPath first_fn_, first_line_, first_file_, first_fn_line_; // of a filtered
                                                                           // view's own tree
};

// Sets w's self and cum weights from the pass's dense self per node of w.tree: the non-zero
// entries are kept, then the same array becomes cum (one dense array at a time, 4 bytes a node
// when the pass's are).
void set_weights(ViewWeights &w, NodeWeights dense_self);

// A view of `base`'s tree and weights under another View of the same event and weights (its
// measure's label, its grouping); without base's tables, which the caller shares when they
// apply (name grouping).
std::shared_ptr<ViewWeights> share_weights(const ViewWeights &base, const View &view);

struct ViewResult {
  std::shared_ptr<const ViewWeights> weights; // set on success
  std::string error;                          // else why
  bool cancelled = false;
  bool ok() const { return weights != nullptr; }
};

// Computes a view: the precomputed one when nothing is filtered, else one parallel pass over
// the event's samples on `threads` threads (0: both cores). Checks `cancel` periodically.
ViewResult compute_view(const ProfileIndex &index, const View &view,
                        const std::atomic<bool> *cancel = nullptr, unsigned threads = 0);

// Why the profile cannot answer totals and call trees, "" when it can: a self-only profile
// (Metadata::self_only: a list of top self functions) knows each function's self weight only.
std::string totals_unavailable(const Profile &profile);

} // namespace hotlines

namespace hotlines {
// part as a percentage of whole (0 when whole is 0).
inline double percent(int64_t part, int64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}
} // namespace hotlines
