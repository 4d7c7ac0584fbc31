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
  // Each original stack's weight moves to its node in the tree without the hidden frames.
  const std::vector<uint32_t> &node_of_stack = tree.stack_map();
  auto move_to_node = [&](uint32_t s, int64_t w) {
    const uint32_t n = node_of_stack[s];
    if (n == kNoNode)
      out.empty += w;
    else
      out.self[n] += w;
  };
  if (!view_filters(index.profile(), shown)) {
    std::shared_ptr<const ViewWeights> base = index.unfiltered(event, view.measure);
    out.total = base->total;
    out.empty = base->empty;
    out.samples = base->samples;
    out.self.assign(tree.size(), 0);
    base->self().for_each(move_to_node);
    return out;
  }
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
  out.total = by_stack.total;
  out.empty = by_stack.empty;
  out.samples = by_stack.samples;
  out.self.assign(tree.size(), 0);
  for (size_t s = 0; s < by_stack.self.size(); s++)
    if (by_stack.self[s] != 0) move_to_node(static_cast<uint32_t>(s), by_stack.self[s]);
  return out;
}

} // namespace hotlines
