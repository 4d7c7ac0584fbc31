// Timeline buckets (see query_timeline.h).
// Threading: Any thread; the bucket pass splits the samples over both cores, one accumulator each.
#include "server/engine/query_timeline.h"

#include "server/engine/flat_map.h"
#include "server/engine/parallel.h"
#include "server/engine/view_filter.h"

#include <algorithm>

namespace hotlines {

namespace {

// A round bucket width (1, 2 or 5 times a power of ten ns) giving at most `target` buckets.
int64_t round_width(int64_t span, int64_t target) {
  int64_t raw = std::max<int64_t>(1, (span + target - 1) / target);
  for (int64_t pow = 1;; pow *= 10) {
    for (int64_t m : {1, 2, 5})
      if (m * pow >= raw) return m * pow;
    if (pow > INT64_MAX / 100) return raw;
  }
}

struct BucketAcc {
  std::vector<int64_t> weight;
  std::vector<int64_t> dense;           // bucket * keys + key, when small enough
  std::vector<FlatMap<int64_t>> sparse; // per bucket, otherwise
};

// The timeline's buckets: `count` of `width` ns from `from`.
struct Buckets {
  int64_t from = 0, width = 1;
  size_t count = 0;
  double inverse = 1; // 1 / width

  // The bucket of an offset from `from`, without a 64-bit division per sample (a
  // floating-point estimate corrected by one step).
  size_t of(int64_t offset) const {
    int64_t b = static_cast<int64_t>(static_cast<double>(offset) * inverse);
    if (b * width > offset)
      b--;
    else if ((b + 1) * width <= offset)
      b++;
    return static_cast<size_t>(b);
  }
};

// Whether and how the pass keys weight by leaf function too.
struct HotKeys {
  bool on = false;
  bool dense = false; // BucketAcc::dense, else BucketAcc::sparse
  size_t keys = 0;
  std::vector<uint32_t> leaf_key; // the leaf function of every tree node
};

// The window [from, to) and the bucket width, into *out; the buckets in *b. False with
// out->error when the samples have no timestamps or the buckets do not fit.
bool plan_buckets(const ProfileIndex &index, const View &view, const TimelineOptions &o,
                  const SampleColumns &cols, Timeline *out, Buckets *b) {
  if (!cols.has_time() && cols.size() > 0) {
    out->error = "the profile has no sample timestamps, so there is no timeline (" +
                 index.profile().metadata.format + " profiles have none)";
    return false;
  }
  out->from_ns = view.from_ns.value_or(0);
  out->to_ns = view.to_ns.value_or(index.end_ns());
  if (out->to_ns <= out->from_ns) {
    out->error = "empty time window";
    return false;
  }
  const int64_t span = out->to_ns - out->from_ns;
  if (o.resolution_ns > 0)
    out->bucket_ns = o.resolution_ns;
  else if (o.buckets > 0)
    out->bucket_ns = std::max<int64_t>(1, (span + o.buckets - 1) / o.buckets);
  else
    out->bucket_ns = round_width(span, 20);
  const size_t nb = static_cast<size_t>((span + out->bucket_ns - 1) / out->bucket_ns);
  if (nb > 100000) {
    out->error = "too many buckets (" + std::to_string(nb) + "); use a coarser resolution";
    return false;
  }
  b->from = out->from_ns;
  b->width = out->bucket_ns;
  b->count = nb;
  b->inverse = 1.0 / static_cast<double>(b->width);
  return true;
}

HotKeys hot_keys(const FunctionKeys &fk, const StackTree &tree, bool hot_functions, size_t nb) {
  HotKeys hot;
  hot.on = hot_functions;
  hot.keys = fk.size();
  hot.dense = hot.on && nb * hot.keys <= (1u << 21);
  if (hot.on) {
    hot.leaf_key.resize(tree.size());
    for (uint32_t n = 0; n < tree.size(); n++) hot.leaf_key[n] = fk.map().of_frame[tree.frame(n)];
  }
  return hot;
}

// The pass over the samples: per worker, the weight of each bucket and of each leaf function
// in it.
std::vector<BucketAcc> weigh_buckets(const SampleFilter &filter, const SampleColumns &cols,
                                     const Buckets &b, const HotKeys &hot, unsigned threads,
                                     const std::atomic<bool> *cancel) {
  std::vector<BucketAcc> acc(threads);
  const size_t nb = b.count, nkeys = hot.keys;
  const int64_t from = b.from;
  parallel_split(filter.split(threads), [&](unsigned w, size_t begin, size_t end) {
    BucketAcc &a = acc[w];
    a.weight.assign(nb, 0);
    if (hot.on) {
      if (hot.dense)
        a.dense.assign(nb * nkeys, 0);
      else
        a.sparse.resize(nb);
    }
    filter.for_each_sample(
        begin, end, cancel,
        [&](size_t, uint32_t node, int64_t wt, int64_t t, ThreadId) __attribute__((always_inline)) {
          if (t < from) return;
          size_t bucket = b.of(t - from);
          if (bucket >= nb) return;
          a.weight[bucket] += wt;
          if (!hot.on || node == kNoNode) return;
          uint32_t key = hot.leaf_key[node];
          if (hot.dense)
            a.dense[bucket * nkeys + key] += wt;
          else
            a.sparse[bucket].find_or_insert(key, 0) += wt;
        });
  });
  return acc;
}

// Bucket i's hottest function from the workers' accumulators.
void pick_hot(const std::vector<BucketAcc> &acc, size_t i, const HotKeys &hot,
              const FunctionKeys &fk, TimelineBucket *bk) {
  auto offer = [&](uint32_t key, int64_t wt) {
    if (wt > bk->hot_self || (wt == bk->hot_self && wt > 0 && fk.label(key) < bk->hot_name)) {
      bk->hot_self = wt;
      bk->hot_key = key;
      bk->hot_name = fk.label(key);
    }
  };
  const size_t nkeys = hot.keys;
  if (hot.dense) {
    for (size_t k = 0; k < nkeys; k++) {
      int64_t wt = 0;
      for (const BucketAcc &a : acc) wt += a.dense[i * nkeys + k];
      if (wt > 0) offer(static_cast<uint32_t>(k), wt);
    }
  } else {
    FlatMap<int64_t> merged(64);
    for (const BucketAcc &a : acc)
      a.sparse[i].for_each([&](uint64_t k, int64_t wt) { merged.find_or_insert(k, 0) += wt; });
    merged.for_each([&](uint64_t k, int64_t wt) { offer(static_cast<uint32_t>(k), wt); });
  }
}

// The buckets from the workers' accumulators: their span, weight, hottest function, and the
// total.
void sum_buckets(const std::vector<BucketAcc> &acc, const Buckets &b, const HotKeys &hot,
                 const FunctionKeys &fk, Timeline *out) {
  out->buckets.resize(b.count);
  for (size_t i = 0; i < b.count; i++) {
    TimelineBucket &bk = out->buckets[i];
    bk.start_ns = b.from + static_cast<int64_t>(i) * b.width;
    bk.end_ns = std::min(out->to_ns, bk.start_ns + b.width);
    for (const BucketAcc &a : acc) bk.weight += a.weight[i];
    out->total += bk.weight;
    if (hot.on) pick_hot(acc, i, hot, fk, &bk);
  }
}

// The median of the non-empty buckets' weights, and the peaks above twice it.
void mark_peaks(Timeline *out) {
  std::vector<int64_t> nonzero;
  for (const TimelineBucket &bk : out->buckets)
    if (bk.weight > 0) nonzero.push_back(bk.weight);
  if (nonzero.empty()) return;
  std::sort(nonzero.begin(), nonzero.end());
  out->median = nonzero[nonzero.size() / 2];
  for (TimelineBucket &bk : out->buckets) bk.peak = bk.weight > 2 * out->median;
}

// The compare event's weight on the same buckets.
void add_compare_event(const ProfileIndex &index, const View &view, const TimelineOptions &o,
                       const Buckets &b, unsigned threads, const std::atomic<bool> *cancel,
                       Timeline *out) {
  const Profile &p = index.profile();
  View cv = view;
  cv.event = o.compare_event;
  SampleFilter cf;
  if (!cf.compile(index, cv, cancel, &out->error)) return;
  const SampleColumns &cc = p.events[cf.event()].samples;
  out->compare_event = p.str(p.events[cf.event()].name);
  out->compare_unit = view.measure == Measure::count ? "samples" : p.str(p.events[cf.event()].unit);
  if (!cc.has_time() && cc.size() > 0) {
    out->error = "event '" + o.compare_event + "' has no sample timestamps";
    return;
  }
  const size_t nb = b.count;
  const int64_t from = b.from;
  std::vector<std::vector<int64_t>> cw(threads, std::vector<int64_t>(nb, 0));
  if (cc.size() < 100000) threads = 1;
  parallel_split(cf.split(threads), [&](unsigned w, size_t begin, size_t end) {
    cf.for_each_sample(
        begin, end, cancel,
        [&](size_t, uint32_t, int64_t wt, int64_t t, ThreadId) __attribute__((always_inline)) {
          if (t < from) return;
          size_t bucket = b.of(t - from);
          if (bucket < nb) cw[w][bucket] += wt;
        });
  });
  for (size_t i = 0; i < nb; i++) {
    for (const auto &v : cw) out->buckets[i].compare_weight += v[i];
    out->compare_total += out->buckets[i].compare_weight;
  }
}

} // namespace

Timeline timeline(const ProfileIndex &index, const View &view, const TimelineOptions &o,
                  const std::atomic<bool> *cancel, unsigned threads) {
  Timeline out;
  const Profile &p = index.profile();
  SampleFilter filter;
  if (!filter.compile(index, view, cancel, &out.error)) return out;
  const SampleColumns &cols = p.events[filter.event()].samples;
  out.event = p.str(p.events[filter.event()].name);
  out.unit = view.measure == Measure::count ? "samples" : p.str(p.events[filter.event()].unit);
  Buckets b;
  if (!plan_buckets(index, view, o, cols, &out, &b)) return out;

  const FunctionKeys &fk = index.functions(view.grouping);
  const HotKeys hot = hot_keys(fk, *filter.tree(), o.hot_functions, b.count);
  if (threads == 0) threads = query_threads();
  if (cols.size() < 100000) threads = 1;
  std::vector<BucketAcc> acc = weigh_buckets(filter, cols, b, hot, threads, cancel);
  if (cancel && cancel->load(std::memory_order_relaxed)) {
    out.error = "cancelled";
    return out;
  }
  sum_buckets(acc, b, hot, fk, &out);
  mark_peaks(&out);
  if (!o.compare_event.empty()) add_compare_event(index, view, o, b, threads, cancel, &out);
  return out;
}

} // namespace hotlines
