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

} // namespace

Timeline timeline(const ProfileIndex &index, const View &view, const TimelineOptions &o,
                  const std::atomic<bool> *cancel, unsigned threads) {
  Timeline out;
  const Profile &p = index.profile();
  SampleFilter filter;
  if (!filter.compile(p, view, index.tree(), &index.idle_functions(), cancel, &out.error))
    return out;
  const SampleColumns &cols = p.events[filter.event()].samples;
  out.event = p.str(p.events[filter.event()].name);
  out.unit = view.measure == Measure::count ? "samples" : p.str(p.events[filter.event()].unit);
  if (!cols.has_time() && cols.size() > 0) {
    out.error = "the profile has no sample timestamps, so there is no timeline (" +
                p.metadata.format + " profiles have none)";
    return out;
  }
  out.from_ns = view.from_ns.value_or(0);
  out.to_ns = view.to_ns.value_or(index.end_ns());
  if (out.to_ns <= out.from_ns) {
    out.error = "empty time window";
    return out;
  }
  const int64_t span = out.to_ns - out.from_ns;
  if (o.resolution_ns > 0)
    out.bucket_ns = o.resolution_ns;
  else if (o.buckets > 0)
    out.bucket_ns = std::max<int64_t>(1, (span + o.buckets - 1) / o.buckets);
  else
    out.bucket_ns = round_width(span, 20);
  const size_t nb = static_cast<size_t>((span + out.bucket_ns - 1) / out.bucket_ns);
  if (nb > 100000) {
    out.error = "too many buckets (" + std::to_string(nb) + "); use a coarser resolution";
    return out;
  }

  const FunctionKeys &fk = index.functions(view.grouping);
  const StackTree &tree = *filter.tree();
  const size_t nkeys = fk.size();
  const bool dense = o.hot_functions && nb * nkeys <= (1u << 21);
  if (threads == 0) threads = query_threads();
  if (cols.size() < 100000) threads = 1;
  std::vector<BucketAcc> acc(threads);
  const int64_t from = out.from_ns, width = out.bucket_ns;
  // The leaf function of every tree node, and a bucket index without a 64-bit division per
  // sample (a floating-point estimate corrected by one step).
  std::vector<uint32_t> leaf_key;
  if (o.hot_functions) {
    leaf_key.resize(tree.size());
    for (uint32_t n = 0; n < tree.size(); n++) leaf_key[n] = fk.map().of_frame[tree.frame(n)];
  }
  const double inverse = 1.0 / static_cast<double>(width);
  auto bucket_of = [&](int64_t offset) {
    int64_t b = static_cast<int64_t>(static_cast<double>(offset) * inverse);
    if (b * width > offset)
      b--;
    else if ((b + 1) * width <= offset)
      b++;
    return static_cast<size_t>(b);
  };
  parallel_ranges(cols.size(), threads, [&](unsigned w, size_t b, size_t e) {
    BucketAcc &a = acc[w];
    a.weight.assign(nb, 0);
    if (o.hot_functions) {
      if (dense)
        a.dense.assign(nb * nkeys, 0);
      else
        a.sparse.resize(nb);
    }
    filter.for_each(b, e, cancel, [&](size_t i, uint32_t node, int64_t wt) {
      int64_t t = cols.time[i];
      if (t < from) return;
      size_t bucket = bucket_of(t - from);
      if (bucket >= nb) return;
      a.weight[bucket] += wt;
      if (!o.hot_functions || node == kNoNode) return;
      uint32_t key = leaf_key[node];
      if (dense)
        a.dense[bucket * nkeys + key] += wt;
      else
        a.sparse[bucket].find_or_insert(key, 0) += wt;
    });
  });
  if (cancel && cancel->load(std::memory_order_relaxed)) {
    out.error = "cancelled";
    return out;
  }
  out.buckets.resize(nb);
  for (size_t i = 0; i < nb; i++) {
    TimelineBucket &bk = out.buckets[i];
    bk.start_ns = from + static_cast<int64_t>(i) * width;
    bk.end_ns = std::min(out.to_ns, bk.start_ns + width);
    for (const BucketAcc &a : acc) bk.weight += a.weight[i];
    out.total += bk.weight;
    if (!o.hot_functions) continue;
    auto offer = [&](uint32_t key, int64_t wt) {
      if (wt > bk.hot_self || (wt == bk.hot_self && wt > 0 && fk.label(key) < bk.hot_name)) {
        bk.hot_self = wt;
        bk.hot_key = key;
        bk.hot_name = fk.label(key);
      }
    };
    if (dense) {
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
  std::vector<int64_t> nonzero;
  for (const TimelineBucket &bk : out.buckets)
    if (bk.weight > 0) nonzero.push_back(bk.weight);
  if (!nonzero.empty()) {
    std::sort(nonzero.begin(), nonzero.end());
    out.median = nonzero[nonzero.size() / 2];
    for (TimelineBucket &bk : out.buckets) bk.peak = bk.weight > 2 * out.median;
  }

  if (!o.compare_event.empty()) {
    View cv = view;
    cv.event = o.compare_event;
    SampleFilter cf;
    if (!cf.compile(p, cv, index.tree(), &index.idle_functions(), cancel, &out.error)) return out;
    const SampleColumns &cc = p.events[cf.event()].samples;
    out.compare_event = p.str(p.events[cf.event()].name);
    out.compare_unit =
        view.measure == Measure::count ? "samples" : p.str(p.events[cf.event()].unit);
    if (!cc.has_time() && cc.size() > 0) {
      out.error = "event '" + o.compare_event + "' has no sample timestamps";
      return out;
    }
    std::vector<std::vector<int64_t>> cw(threads, std::vector<int64_t>(nb, 0));
    if (cc.size() < 100000) threads = 1;
    parallel_ranges(cc.size(), threads, [&](unsigned w, size_t b, size_t e) {
      cf.for_each(b, e, cancel, [&](size_t i, uint32_t, int64_t wt) {
        int64_t t = cc.time[i];
        if (t < from) return;
        size_t bucket = bucket_of(t - from);
        if (bucket < nb) cw[w][bucket] += wt;
      });
    });
    for (size_t i = 0; i < nb; i++) {
      for (const auto &v : cw) out.buckets[i].compare_weight += v[i];
      out.compare_total += out.buckets[i].compare_weight;
    }
  }
  return out;
}

} // namespace hotlines
