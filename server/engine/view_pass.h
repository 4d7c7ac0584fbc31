// weigh_samples: the one pass over an event's sample columns behind every computed view —
// per tree node self weights (and optionally per thread), split over worker threads, each
// with its own accumulators, merged at the end; 4 bytes a node where the event's weights
// allow. Callers own the result; thread-safe.
#pragma once

#include "formats/profile.h"
#include "server/engine/view.h"

#include <atomic>
#include <cstdint>
#include <variant>
#include <vector>

namespace hotlines {

class SampleFilter;

// Weights per tree node in 4 bytes each when the event's weights bound every sum below 2^32
// (weights_fit_32), else in 8: a tree of 14 M nodes takes 57 MB, not 113.
using NodeWeights = std::variant<std::vector<int64_t>, std::vector<uint32_t>>;

// Whether every sum of `event`'s weights under `measure` is in [0, 2^32): its weights are not
// negative and their total (Event::total_count or total_value) is below 2^32.
bool weights_fit_32(const Event &event, Measure measure);

// `nodes` zero weights, 4 bytes each when `narrow`.
NodeWeights zero_weights(size_t nodes, bool narrow);

struct PassTotals {
  NodeWeights self;            // per tree node
  std::vector<int64_t> thread; // per ThreadId, when asked for
  int64_t total = 0, empty = 0;
  uint64_t samples = 0;
  bool cancelled = false;
};

PassTotals weigh_samples(const SampleFilter &filter, const Profile &profile, bool want_threads,
                         const std::atomic<bool> *cancel, unsigned threads);

} // namespace hotlines
