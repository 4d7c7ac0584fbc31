// weigh_hidden: the self weights of a view with hidden frames (`--hide`) on its tree without
// them, summed per original stack first and then per node (a hidden frame's stack maps to its
// parent's node, so every stack's node is a lookup in the tree's stack map). When hiding is the
// view's only filter, the per-stack weights are the precomputed unfiltered view's and no sample
// is read; otherwise one pass over the samples weighs the view without hiding (on both cores,
// as every filtered view). Any thread; the caller owns the result.
#pragma once

#include "server/engine/stack_tree.h"
#include "server/engine/view.h"
#include "server/engine/view_pass.h"

#include <atomic>
#include <string>

namespace hotlines {

class ProfileIndex;

// The pass totals of `view` (which hides frames) on `tree`, the view's tree without the hidden
// frames: self per node of `tree`, the total, the weight of empty stacks (all-hidden ones
// included) and the passing sample rows. `event` is the view's resolved event. On failure
// (cancelled, or a filter error) *error says why and the totals are empty.
PassTotals weigh_hidden(const ProfileIndex &index, const View &view, EventId event,
                        const StackTree &tree, const std::atomic<bool> *cancel, unsigned threads,
                        std::string *error);

} // namespace hotlines
