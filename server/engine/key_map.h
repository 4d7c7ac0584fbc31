// KeyMap: how frames group into the rows of a query (functions, lines, files, function+line),
// and the two sums every query is built from: self (samples whose leaf frame has the key) and
// total (samples with the key anywhere in the stack, counted once per sample). Totals use
// the stack tree: total[k] = sum of subtree weights of the nodes where k first appears on the
// path from the root. Pure functions over immutable data; thread-safe.
#pragma once

#include "server/engine/node_flags.h"
#include "server/engine/node_totals.h"
#include "server/engine/sparse_weights.h"
#include "server/engine/stack_tree.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace hotlines {

inline constexpr uint32_t kNoKey = UINT32_MAX;

struct KeyMap {
  std::vector<uint32_t> of_frame; // frame -> key, kNoKey when the frame has none
  uint32_t count = 0;             // keys are 0..count-1

  uint32_t key_of_node(const StackTree &t, uint32_t node) const { return of_frame[t.frame(node)]; }
};

// Subtree weights: cum[n] = self[n] + sum of cum over n's children, computed in self's array
// (of int64_t or uint32_t, which the caller knows holds every sum).
template <class T> std::vector<T> subtree_weights(const StackTree &tree, std::vector<T> self) {
  const size_t n = tree.size();
  std::vector<T> cum = std::move(self);
  cum.resize(n);
  for (size_t i = n; i-- > 0;) {
    uint32_t par = tree.parent(static_cast<uint32_t>(i));
    if (par != kNoNode) cum[par] += cum[i];
  }
  return cum;
}

// first[n] set when node n has a key that does not occur on the path above n (root side). On
// up to `threads` threads (0: both cores), each walking a part of the tree's chains.
NodeFlags first_on_path(const StackTree &tree, const KeyMap &keys, unsigned threads = 0);
// The same for several maps at once, in their order: one walk of the tree, which costs more
// than a map's flags, for all of them.
std::vector<NodeFlags> first_on_path(const StackTree &tree, std::span<const KeyMap *const> maps,
                                     unsigned threads = 0);

// True when every key's frames are all hidden or all shown (frames without a key aside).
bool hides_whole_keys(const std::vector<uint8_t> &hidden_frame, const KeyMap &keys);

// first_on_path(tree, keys) for a tree without hidden frames (StackTree::without_frames) whose
// keys are hidden whole (hides_whole_keys), from `profile_first`, the flags of the profile's
// own tree for the same keys: a shown key occurs above a node exactly when it occurs above the
// node's origin stack, so each node takes its origin's flag.
NodeFlags first_on_path_from_profile(const StackTree &tree, const KeyMap &keys,
                                     const NodeFlags &profile_first);

// first_on_path(tree, keys) computed into `flags` on the first call for `once` (the lazy
// tables of ProfileIndex); returns `flags`. Any thread.
using FirstOnPath = std::shared_ptr<const NodeFlags>;
const FirstOnPath &first_on_path_once(std::once_flag &once, FirstOnPath &flags,
                                      const StackTree &tree, const KeyMap &keys,
                                      unsigned threads = 0);

struct KeySums {
  std::vector<int64_t> self, total; // indexed by key
};

// Self and total per key for a weighted tree. `first` comes from first_on_path() for the
// same tree and keys.
KeySums sum_keys(const StackTree &tree, const SparseWeights &self, const NodeTotals &cum,
                 const KeyMap &keys, const NodeFlags &first);

} // namespace hotlines
