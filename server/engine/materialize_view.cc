// materialize_view (see materialize_view.h).
// Threading: Pure function; any thread (one pass, on the calling thread).
#include "server/engine/materialize_view.h"

#include "server/engine/view_filter.h"

namespace hotlines {

std::unique_ptr<Profile> materialize_view(const Profile &p, const View &view, std::string *error,
                                          const std::atomic<bool> *cancel) {
  std::string err;
  SampleFilter filter;
  if (!filter.compile(p, view, nullptr, nullptr, cancel, &err)) {
    if (error) *error = err;
    return nullptr;
  }
  auto out = std::make_unique<Profile>();
  out->strings = p.strings;
  out->functions = p.functions;
  out->frames = p.frames;
  out->threads = p.threads;
  out->label_sets = p.label_sets;
  out->states = p.states;
  out->metadata = p.metadata;
  out->metadata.default_event = 0;
  const StackTree &tree = *filter.tree();
  if (tree.is_profile_tree()) {
    out->stack_parent = p.stack_parent;
    out->stack_frame = p.stack_frame;
  } else {
    out->stack_parent.resize(tree.size());
    out->stack_frame.resize(tree.size());
    for (uint32_t n = 0; n < tree.size(); n++) {
      uint32_t par = tree.parent(n);
      out->stack_parent[n] = par;
      out->stack_frame[n] = tree.frame(n);
    }
  }
  const Event &src = p.events[filter.event()];
  Event ev;
  ev.name = src.name;
  ev.unit = src.unit;
  ev.count_label = src.count_label;
  ev.value_label = src.value_label;
  ev.sources = src.sources;
  ev.rule = src.rule;
  const SampleColumns &c = src.samples;
  SampleColumns &d = ev.samples;
  filter.for_each_sample(0, c.size(), cancel,
                         [&](size_t i, uint32_t node, int64_t, int64_t time, ThreadId thread) {
                           d.stack.push_back(node == kNoNode ? kNoStack : node);
                           if (!c.thread.empty()) d.thread.push_back(thread);
                           if (!c.time.empty()) d.time.push_back(time);
                           if (!c.count.empty()) d.count.push_back(c.count.at(i));
                           if (!c.value.empty()) d.value.push_back(c.value.at(i));
                           if (!c.labels.empty()) d.labels.push_back(c.labels.at(i));
                           if (!c.state.empty()) d.state.push_back(c.state_at(i));
                           if (!c.source.empty()) d.source.push_back(c.source_at(i));
                           ev.total_count += c.count_at(i);
                           ev.total_value += c.value_at(i);
                         });
  for (PackedInts *col :
       {&d.stack, &d.thread, &d.time, &d.count, &d.value, &d.labels, &d.state, &d.source})
    col->shrink_to_fit();
  ev.states = state_totals(d, out->states.size());
  if (cancel && cancel->load(std::memory_order_relaxed)) {
    if (error) *error = "cancelled";
    return nullptr;
  }
  out->events.push_back(std::move(ev));
  return out;
}

} // namespace hotlines
