// ViewWeights accessors and compute_view(): the parallel pass over an event's samples.
// Threading: Any thread; one worker per core, each with its own accumulators, merged by the caller.
#include "server/engine/view_weights.h"

#include "formats/huge_pages.h"
#include "server/engine/function_line_keys.h"
#include "server/engine/hidden_weights.h"
#include "server/engine/parallel.h"
#include "server/engine/profile_index.h"
#include "server/engine/view_filter.h"
#include "server/engine/view_pass.h"

namespace hotlines {

const Profile &ViewWeights::profile() const {
  return index->profile();
}
const FunctionKeys &ViewWeights::functions() const {
  return index->functions(view.grouping);
}
const LineKeys &ViewWeights::lines() const {
  return index->lines();
}

std::string_view ViewWeights::event_name() const {
  return profile().str(profile().events[event].name);
}

std::string totals_unavailable(const Profile &p) {
  if (!p.metadata.self_only) return {};
  return "totals and call trees are unavailable: this " + p.metadata.format +
         " profile lists only self weights (" + p.metadata.producer + ")";
}

std::string_view ViewWeights::unit() const {
  if (measure == Measure::count) return "samples";
  std::string_view u = profile().str(profile().events[event].unit);
  return u.empty() ? std::string_view("samples") : u;
}

namespace {

// First-on-path flags of a filtered view's tree for `keys`, computed once into `flags`: on a
// tree without hidden frames that hides whole keys, taken from the profile tree's flags
// (`profile_first()`, the index's, computed there once); else computed on the tree.
template <class ProfileFirst>
const NodeFlags &tree_first(std::once_flag &once, FirstOnPath &flags, const StackTree &tree,
                            const KeyMap &keys, ProfileFirst profile_first) {
  std::call_once(once, [&] {
    flags = std::make_shared<const NodeFlags>(
        !tree.hidden_frames().empty() && hides_whole_keys(tree.hidden_frames(), keys)
            ? first_on_path_from_profile(tree, keys, *profile_first())
            : first_on_path(tree, keys));
  });
  return *flags;
}

} // namespace

// On the profile's own tree, the index's flags (which it keeps as long as it lives).
const NodeFlags &ViewWeights::first_function() const {
  if (tree->is_profile_tree()) return *index->first_functions(view.grouping);
  return tree_first(once_fn_, first_fn_, *tree, functions().map(),
                    [&] { return index->first_functions(view.grouping); });
}

const NodeFlags &ViewWeights::first_line() const {
  if (tree->is_profile_tree()) return *index->first_lines();
  return tree_first(once_line_, first_line_, *tree, lines().lines(),
                    [&] { return index->first_lines(); });
}

const NodeFlags &ViewWeights::first_file() const {
  if (tree->is_profile_tree()) return *index->first_files();
  return tree_first(once_file_, first_file_, *tree, lines().files(),
                    [&] { return index->first_files(); });
}

const KeySums *ViewWeights::table_lines() const {
  if (!tables) return nullptr;
  std::call_once(tables->lines_once, [&] {
    tables->lines = sum_keys(*tree, self(), cum(), lines().lines(), first_line());
  });
  return &tables->lines;
}

const KeySums *ViewWeights::table_files() const {
  if (!tables) return nullptr;
  std::call_once(tables->files_once, [&] {
    tables->files = sum_keys(*tree, self(), cum(), lines().files(), first_file());
  });
  return &tables->files;
}

const NodeFlags &ViewWeights::first_function_line() const {
  if (tree->is_profile_tree()) return *index->first_function_lines(view.grouping);
  return tree_first(once_fn_line_, first_fn_line_, *tree, index->function_lines(view.grouping).map,
                    [&] { return index->first_function_lines(view.grouping); });
}

bool weights_fit_32(const Event &e, Measure m) {
  const SampleColumns &c = e.samples;
  // Counts are >= 1 (Profile::check), and without a value column the value is the count.
  if (m == Measure::count || c.value.empty()) return e.total_count <= int64_t{UINT32_MAX};
  return c.value.min() >= 0 && e.total_value <= int64_t{UINT32_MAX};
}

NodeWeights zero_weights(size_t nodes, bool narrow) {
  auto zeros = [&](auto zero) {
    std::vector<decltype(zero)> v;
    resize_huge(v, nodes);
    return NodeWeights(std::move(v));
  };
  return narrow ? zeros(uint32_t{0}) : zeros(int64_t{0});
}

namespace {

// weigh_samples accumulating into T per node, which holds every sum of the pass's weights.
template <class T>
PassTotals weigh(const SampleFilter &filter, const Profile &p, bool want_threads,
                 const std::atomic<bool> *cancel, unsigned threads) {
  const SampleColumns &cols = p.events[filter.event()].samples;
  const bool merged = p.events[filter.event()].merged; // a row counts count_at(i) samples
  const size_t nodes = filter.tree()->size();
  if (threads == 0) threads = query_threads();
  if (cols.size() < 100000) threads = 1;
  struct Acc {
    std::vector<T> self;
    std::vector<int64_t> thread;
    std::vector<std::pair<uint32_t, int64_t>> leaves; // (node, weight) of a sparse worker
    int64_t total = 0, empty = 0;
    uint64_t samples = 0;
  };
  std::vector<Acc> acc(threads);
  parallel_split(filter.split(threads), [&](unsigned w, size_t b, size_t e) {
    Acc &a = acc[w];
    // Worker 0's array becomes the view's. Another worker with far fewer samples than the tree
    // has nodes keeps (node, weight) pairs instead of an array of its own: on a tree of
    // millions of nodes that array was hundreds of MB for a few hundred thousand samples.
    const bool sparse = w > 0 && (e - b) * 2 < nodes;
    if (sparse)
      a.leaves.reserve(e - b);
    else
      resize_huge(a.self, nodes);
    if (want_threads) a.thread.assign(p.threads.size(), 0);
    T *self = a.self.data();
    int64_t total = 0, empty = 0;
    uint64_t samples = 0;
    // On a tree larger than the L2 cache, an add into the array is made kAhead samples after
    // its entry is prefetched: each add would otherwise wait for its own cache miss. (On a small
    // tree the queue only costs: 7.5 -> 10 ms for a window of the 1,509-stack JFR benchmark.)
    constexpr size_t kAhead = 16;
    const bool deferred = !sparse && nodes > (size_t{1} << 16);
    uint32_t ring_node[kAhead];
    T ring_wt[kAhead];
    size_t queued = 0;
    auto add = [&](size_t i, uint32_t node, int64_t wt) __attribute__((always_inline)) {
      if (node == kNoNode) {
        empty += wt;
      } else if (sparse) {
        a.leaves.emplace_back(node, wt);
      } else if (!deferred) {
        self[node] += static_cast<T>(wt);
      } else {
        __builtin_prefetch(self + node, 1);
        const size_t slot = queued++ % kAhead;
        if (queued > kAhead) self[ring_node[slot]] += ring_wt[slot];
        ring_node[slot] = node;
        ring_wt[slot] = static_cast<T>(wt);
      }
      total += wt;
      samples += merged ? static_cast<uint64_t>(cols.count_at(i)) : 1;
    };
    if (want_threads) {
      int64_t *th = a.thread.data();
      filter.for_each_sample(
          b, e, cancel,
          [&](size_t i, uint32_t node, int64_t wt, int64_t, ThreadId thread)
              __attribute__((always_inline)) {
                add(i, node, wt);
                th[thread] += wt;
              });
    } else {
      filter.for_each(
          b, e, cancel, [&](size_t i, uint32_t node, int64_t wt) __attribute__((always_inline)) {
            add(i, node, wt);
          });
    }
    for (size_t i = queued > kAhead ? queued - kAhead : 0; i < queued; i++)
      self[ring_node[i % kAhead]] += ring_wt[i % kAhead];
    a.total = total;
    a.empty = empty;
    a.samples = samples;
  });
  PassTotals out;
  out.cancelled = cancel && cancel->load(std::memory_order_relaxed);
  std::vector<T> self = std::move(acc[0].self);
  out.thread = std::move(acc[0].thread);
  out.total = acc[0].total;
  out.empty = acc[0].empty;
  out.samples = acc[0].samples;
  for (unsigned w = 1; w < threads; w++) {
    if (acc[w].self.empty()) {
      for (const auto &[n, wt] : acc[w].leaves) self[n] += static_cast<T>(wt);
    } else {
      for (size_t n = 0; n < nodes; n++) self[n] += acc[w].self[n];
    }
    for (size_t t = 0; t < out.thread.size(); t++) out.thread[t] += acc[w].thread[t];
    out.total += acc[w].total;
    out.empty += acc[w].empty;
    out.samples += acc[w].samples;
  }
  out.self = std::move(self);
  return out;
}

} // namespace

PassTotals weigh_samples(const SampleFilter &filter, const Profile &p, bool want_threads,
                         const std::atomic<bool> *cancel, unsigned threads) {
  return weights_fit_32(p.events[filter.event()], filter.measure())
             ? weigh<uint32_t>(filter, p, want_threads, cancel, threads)
             : weigh<int64_t>(filter, p, want_threads, cancel, threads);
}

void set_weights(ViewWeights &w, NodeWeights dense_self) {
  std::visit(
      [&](auto &self) {
        w.self_weights = std::make_shared<const SparseWeights>(SparseWeights::of_dense(self));
        w.cum_weights =
            std::make_shared<const NodeTotals>(subtree_weights(*w.tree, std::move(self)));
      },
      dense_self);
}

std::shared_ptr<ViewWeights> share_weights(const ViewWeights &base, const View &view) {
  auto w = std::make_shared<ViewWeights>();
  w->index = base.index;
  w->view = view;
  w->event = base.event;
  w->measure = view.measure;
  w->tree = base.tree;
  w->self_weights = base.self_weights;
  w->cum_weights = base.cum_weights;
  w->total = base.total;
  w->empty = base.empty;
  w->samples = base.samples;
  return w;
}

ViewResult compute_view(const ProfileIndex &index, const View &view,
                        const std::atomic<bool> *cancel, unsigned threads) {
  ViewResult r;
  const Profile &p = index.profile();
  SampleFilter filter;
  if (!filter.compile(index, view, cancel, &r.error)) {
    r.cancelled = r.error == "cancelled";
    return r;
  }
  if (filter.passes_everything()) {
    auto base = index.unfiltered(filter.event(), view.measure);
    if (view.grouping == base->view.grouping) {
      // The precomputed view, with the caller's View (same event, measure and grouping).
      r.weights = base;
      return r;
    }
    r.weights = share_weights(*base, view);
    return r;
  }
  // Hidden frames: weights per original stack first, then per node of the tree without them.
  PassTotals pass = view.hide.empty() ? weigh_samples(filter, p, false, cancel, threads)
                                      : weigh_hidden(index, view, filter.event(), *filter.tree(),
                                                     cancel, threads, &r.error);
  if (pass.cancelled || !r.error.empty()) {
    if (r.error.empty()) r.error = "cancelled";
    r.cancelled = r.error == "cancelled";
    return r;
  }
  auto w = std::make_shared<ViewWeights>();
  w->index = &index;
  w->view = view;
  w->event = filter.event();
  w->measure = view.measure;
  w->tree = filter.tree();
  set_weights(*w, std::move(pass.self));
  w->total = pass.total;
  w->empty = pass.empty;
  w->samples = pass.samples;
  r.weights = std::move(w);
  return r;
}

} // namespace hotlines
