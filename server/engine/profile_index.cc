// Building a ProfileIndex (see profile_index.h).
// Threading: build() runs on one thread (its sample passes on both cores); the lazy parts,
// the other events' views among them, use call_once.
#include "server/engine/profile_index.h"

#include "server/engine/callee_shape.h"
#include "server/engine/function_line_keys.h"
#include "server/engine/parallel.h"
#include "server/engine/view_filter.h"
#include "server/engine/view_pass.h"

#include <algorithm>

namespace hotlines {

const FunctionKeys &ProfileIndex::functions(FunctionGrouping g) const {
  if (g == FunctionGrouping::name) return *by_name_;
  std::call_once(fqn_once_, [&] { by_fqn_ = std::make_unique<FunctionKeys>(*profile_, g); });
  return *by_fqn_;
}

FirstOnPath ProfileIndex::first_functions(FunctionGrouping g) const {
  if (g == FunctionGrouping::name)
    return first_on_path_once(once_name_, first_name_, *tree_, by_name_->map(), threads_);
  return first_on_path_once(once_fqn_, first_fqn_, *tree_, functions(g).map(), threads_);
}

FirstOnPath ProfileIndex::first_lines() const {
  return first_on_path_once(once_lines_, first_lines_, *tree_, lines_->lines(), threads_);
}

FirstOnPath ProfileIndex::first_files() const {
  return first_on_path_once(once_files_, first_files_, *tree_, lines_->files(), threads_);
}

const FunctionLineKeys &ProfileIndex::function_lines(FunctionGrouping g) const {
  const size_t i = g == FunctionGrouping::fqn;
  std::call_once(function_lines_once_[i], [&] {
    function_lines_[i] =
        std::make_unique<FunctionLineKeys>(function_line_keys(*profile_, functions(g), *lines_));
  });
  return *function_lines_[i];
}

FirstOnPath ProfileIndex::first_function_lines(FunctionGrouping g) const {
  const size_t i = g == FunctionGrouping::fqn;
  return first_on_path_once(first_function_lines_once_[i], first_function_lines_[i], *tree_,
                            function_lines(g).map, threads_);
}

std::shared_ptr<const CalleeShape> ProfileIndex::callee_shape(bool lines) const {
  std::call_once(shape_once_[lines],
                 [&] { shape_[lines] = build_callee_shape(*profile_, *tree_, *by_name_, lines); });
  return shape_[lines];
}

std::shared_ptr<const ViewWeights> ProfileIndex::unfiltered(EventId event, Measure measure) const {
  if (event >= profile_->events.size()) return nullptr;
  const size_t slot = 2 * event + (measure == Measure::value);
  std::call_once(unfiltered_once_[slot],
                 [&] { unfiltered_[slot] = unfiltered_view(event, measure, nullptr); });
  return unfiltered_[slot];
}

namespace {

// Keys with weight, ordered hottest first by `primary`, then by `secondary`, then by label.
std::vector<uint32_t> order_keys(const FunctionKeys &keys, const std::vector<int64_t> &primary,
                                 const std::vector<int64_t> &secondary) {
  std::vector<uint32_t> out;
  for (uint32_t k = 0; k < primary.size(); k++)
    if (primary[k] != 0 || secondary[k] != 0) out.push_back(k);
  std::sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) {
    if (primary[a] != primary[b]) return primary[a] > primary[b];
    if (secondary[a] != secondary[b]) return secondary[a] > secondary[b];
    return keys.label(a) < keys.label(b);
  });
  return out;
}

} // namespace

std::shared_ptr<const ViewWeights>
ProfileIndex::unfiltered_view(EventId e, Measure m, const std::atomic<bool> *cancel) const {
  const Profile &p = *profile_;
  if (m == Measure::value && p.events[e].samples.value.empty()) {
    // value == count: share the weights and tables, with the value measure's label.
    std::shared_ptr<const ViewWeights> counted = unfiltered(e, Measure::count);
    if (!counted) return nullptr;
    View v = counted->view;
    v.measure = m;
    auto w = share_weights(*counted, v);
    w->tables = counted->tables;
    return w;
  }
  View v;
  v.event = std::string(p.str(p.events[e].name));
  v.measure = m;
  // The flags first: computing them takes more memory than the weights, which are not
  // allocated yet.
  const FirstOnPath first = first_functions(FunctionGrouping::name);
  SampleFilter filter;
  std::string err;
  if (!filter.compile(p, v, tree_, &idle_, cancel, &err)) return nullptr;
  PassTotals pass = weigh_samples(filter, p, true, cancel, threads_);
  if (pass.cancelled) return nullptr;
  auto w = std::make_shared<ViewWeights>();
  w->index = this;
  w->view = v;
  w->event = e;
  w->measure = m;
  w->tree = tree_;
  set_weights(*w, std::move(pass.self));
  auto tables = std::make_shared<UnfilteredTables>();
  tables->functions = sum_keys(*tree_, w->self(), w->cum(), by_name_->map(), *first);
  tables->by_self = order_keys(*by_name_, tables->functions.self, tables->functions.total);
  tables->by_total = order_keys(*by_name_, tables->functions.total, tables->functions.self);
  tables->thread_weight = std::move(pass.thread);
  w->total = pass.total;
  w->empty = pass.empty;
  w->samples = pass.samples;
  w->tables = std::move(tables);
  return w;
}

std::shared_ptr<const ProfileIndex> ProfileIndex::build(std::shared_ptr<const Profile> profile,
                                                        const std::atomic<bool> *cancel,
                                                        unsigned threads, bool editor) {
  auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
  auto idx = std::shared_ptr<ProfileIndex>(new ProfileIndex());
  const Profile &p = *profile;
  idx->profile_ = std::move(profile);
  idx->tree_ = std::make_shared<const StackTree>(p);
  idx->by_name_ = std::make_unique<FunctionKeys>(p, FunctionGrouping::name);
  idx->lines_ = std::make_unique<LineKeys>(p);
  idx->idle_ = hotlines::idle_functions(p);
  if (cancelled()) return nullptr;

  int64_t end = p.metadata.duration_ns;
  for (const Event &e : p.events) {
    if (!e.samples.has_time()) continue;
    idx->has_time_ = true;
    const int64_t last = e.samples.time.max();
    end = std::max(end, last == INT64_MAX ? last : last + 1);
  }
  idx->end_ns_ = end;

  idx->threads_ = threads;
  idx->unfiltered_ = std::make_unique<std::shared_ptr<const ViewWeights>[]>(2 * p.events.size());
  idx->unfiltered_once_ = std::make_unique<std::once_flag[]>(2 * p.events.size());
  const EventId first = static_cast<EventId>(p.metadata.default_event);
  if (!editor || first >= p.events.size()) return idx;

  // What an editor's first requests read (the heat of a file: the default event's views by
  // value and by count, their line and file sums): the three maps' flags from one preorder
  // of the tree, then the views.
  const KeyMap *maps[] = {&idx->by_name_->map(), &idx->lines_->lines(), &idx->lines_->files()};
  std::vector<NodeFlags> firsts = first_on_path(*idx->tree_, maps, threads);
  std::once_flag *once[] = {&idx->once_name_, &idx->once_lines_, &idx->once_files_};
  FirstOnPath *flags[] = {&idx->first_name_, &idx->first_lines_, &idx->first_files_};
  for (size_t m = 0; m < 3; m++)
    std::call_once(*once[m],
                   [&] { *flags[m] = std::make_shared<const NodeFlags>(std::move(firsts[m])); });
  for (Measure m : {Measure::count, Measure::value}) {
    if (cancelled()) return nullptr;
    const size_t slot = 2 * first + (m == Measure::value);
    auto w = idx->unfiltered_view(first, m, cancel);
    if (!w) return nullptr;
    w->table_lines();
    w->table_files();
    std::call_once(idx->unfiltered_once_[slot], [&] { idx->unfiltered_[slot] = std::move(w); });
  }
  return idx;
}

} // namespace hotlines
