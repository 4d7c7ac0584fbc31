// weigh_hidden (see hidden_weights.h).
// Threading: Any thread; the sample pass (when one is needed) runs on parallel_ranges workers.
#include "server/engine/hidden_weights.h"

#include "server/engine/profile_index.h"
#include "server/engine/view_filter.h"

namespace hotlines {

PassTotals weigh_hidden(const ProfileIndex &index, const View &view, EventId event,
                        const StackTree &tree, const std::atomic<bool> *cancel, unsigned threads,
                        std::string *error) {
  View shown = view;
  shown.hide.clear();
  PassTotals out;
  SparseWeights filtered_self;
  const SparseWeights *stack_self = &filtered_self;
  std::shared_ptr<const ViewWeights> base;
  if (!view_filters(index.profile(), shown)) {
    base = index.unfiltered(event, view.measure);
    stack_self = &base->self();
    out.total = base->total;
    out.empty = base->empty;
    out.samples = base->samples;
  } else {
    SampleFilter filter;
    if (!filter.compile(index, shown, cancel, error)) {
      out.cancelled = *error == "cancelled";
      return out;
    }
    PassTotals by_stack = weigh_samples(filter, index.profile(), false, cancel, threads);
    if (by_stack.cancelled) {
      *error = "cancelled";
      out.cancelled = true;
      return out;
    }
    filtered_self = SparseWeights::of_dense(by_stack.self);
    out.total = by_stack.total;
    out.empty = by_stack.empty;
    out.samples = by_stack.samples;
  }
  out.self.assign(tree.size(), 0);
  const std::vector<uint32_t> &node_of_stack = tree.stack_map();
  stack_self->for_each([&](uint32_t s, int64_t w) {
    const uint32_t n = node_of_stack[s];
    if (n == kNoNode)
      out.empty += w;
    else
      out.self[n] += w;
  });
  return out;
}

} // namespace hotlines
