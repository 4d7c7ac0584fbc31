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
  PassTotals by_stack, out;
  std::span<const int64_t> stack_self;
  std::shared_ptr<const ViewWeights> base;
  if (!view_filters(index.profile(), shown)) {
    base = index.unfiltered(event, view.measure);
    stack_self = base->self();
    out.total = base->total;
    out.empty = base->empty;
    out.samples = base->samples;
  } else {
    SampleFilter filter;
    if (!filter.compile(index, shown, cancel, error)) {
      out.cancelled = *error == "cancelled";
      return out;
    }
    by_stack = weigh_samples(filter, index.profile(), false, cancel, threads);
    if (by_stack.cancelled) {
      *error = "cancelled";
      out.cancelled = true;
      return out;
    }
    stack_self = by_stack.self;
    out.total = by_stack.total;
    out.empty = by_stack.empty;
    out.samples = by_stack.samples;
  }
  out.self.assign(tree.size(), 0);
  const std::vector<uint32_t> &node_of_stack = tree.stack_map();
  for (size_t s = 0; s < stack_self.size(); s++) {
    const int64_t w = stack_self[s];
    if (w == 0) continue;
    const uint32_t n = node_of_stack[s];
    if (n == kNoNode)
      out.empty += w;
    else
      out.self[n] += w;
  }
  return out;
}

} // namespace hotlines
