// parallel_ranges: splits [0, n) into contiguous ranges and runs fn(worker, begin, end) on
// up to `threads` threads (the caller's thread is worker 0); parallel_split runs it on ranges
// the caller chose (SampleFilter::split: equal shares of a window's samples). Each worker
// writes only its own accumulator; the caller merges after the call returns. Workers poll the
// cancel token themselves. Used by every filtered-view pass over sample columns.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace hotlines {

// Threads a filtered query uses by default: both cores of the target machine, at most.
inline unsigned query_threads() {
  unsigned hc = std::thread::hardware_concurrency();
  return std::clamp(hc, 1u, 2u);
}

// Runs fn(w, bounds[w], bounds[w + 1]) for each of the bounds.size() - 1 ranges, each on its
// own thread (worker 0 on the caller's).
template <class Fn> void parallel_split(const std::vector<size_t> &bounds, Fn &&fn) {
  const unsigned workers = static_cast<unsigned>(bounds.size() - 1);
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; w++)
    pool.emplace_back([&fn, w, b = bounds[w], e = bounds[w + 1]] { fn(w, b, e); });
  fn(0u, bounds[0], bounds[1]);
  for (std::thread &t : pool) t.join();
}

// Bounds of `threads` ranges of [0, n) of equal size.
inline std::vector<size_t> even_split(size_t n, unsigned threads) {
  std::vector<size_t> bounds(threads + 1);
  const size_t chunk = (n + threads - 1) / threads;
  for (unsigned w = 0; w <= threads; w++) bounds[w] = std::min(n, w * chunk);
  return bounds;
}

template <class Fn> void parallel_ranges(size_t n, unsigned threads, Fn &&fn) {
  if (threads == 0) threads = query_threads();
  // Small inputs are not worth a thread.
  if (n < 100000) threads = 1;
  parallel_split(even_split(n, threads), fn);
}

} // namespace hotlines
