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
  // Without other filters, the per-stack weights are the unfiltered view's; else a pass's.
  std::shared_ptr<const ViewWeights> base;
  PassTotals by_stack;
  if (!view_filters(index.profile(), shown)) {
    base = index.unfiltered(event, view.measure);
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
    out.total = by_stack.total;
    out.empty = by_stack.empty;
    out.samples = by_stack.samples;
  }
  // Each original stack's weight moves to its node in the tree without the hidden frames.
  out.self = zero_weights(tree.size(), weights_fit_32(index.profile().events[event], view.measure));
  std::visit(
      [&](auto &self) {
        using T = typename std::decay_t<decltype(self)>::value_type;
        const std::vector<uint32_t> &node_of_stack = tree.stack_map();
        auto move_to_node = [&](uint32_t s, int64_t w) {
          const uint32_t n = node_of_stack[s];
          if (n == kNoNode)
            out.empty += w;
          else
            self[n] += static_cast<T>(w);
        };
        if (base) {
          base->self().for_each(move_to_node);
          return;
        }
        std::visit(
            [&](const auto &by) {
              for (size_t s = 0; s < by.size(); s++)
                if (by[s] != 0) move_to_node(static_cast<uint32_t>(s), static_cast<int64_t>(by[s]));
            },
            by_stack.self);
      },
      out.self);
  return out;
}

} // namespace hotlines
