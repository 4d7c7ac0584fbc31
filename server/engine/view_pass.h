// weigh_samples: the one pass over an event's sample columns behind every computed view —
// per tree node self weights (and optionally per thread), split over worker threads, each
// with its own accumulators, merged at the end. Callers own the result; thread-safe.
#pragma once

#include "formats/profile.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace hotlines {

class SampleFilter;

struct PassTotals {
  std::vector<int64_t> self;   // per tree node
  std::vector<int64_t> thread; // per ThreadId, when asked for
  int64_t total = 0, empty = 0;
  uint64_t samples = 0;
  bool cancelled = false;
};

PassTotals weigh_samples(const SampleFilter &filter, const Profile &profile, bool want_threads,
                         const std::atomic<bool> *cancel, unsigned threads);

} // namespace hotlines
