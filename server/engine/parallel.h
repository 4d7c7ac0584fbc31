// parallel_ranges: splits [0, n) into contiguous ranges and runs fn(worker, begin, end) on
// up to `threads` threads (the caller's thread is worker 0). Each worker writes only its own
// accumulator; the caller merges after the call returns. Workers poll the cancel token
// themselves. Used by every filtered-view pass over sample columns.
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

template <class Fn> void parallel_ranges(size_t n, unsigned threads, Fn &&fn) {
  if (threads == 0) threads = query_threads();
  // Small inputs are not worth a thread.
  if (n < 100000) threads = 1;
  if (threads <= 1) {
    fn(0u, size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  size_t chunk = (n + threads - 1) / threads;
  for (unsigned w = 1; w < threads; w++) {
    size_t b = std::min(n, w * chunk), e = std::min(n, b + chunk);
    pool.emplace_back([&fn, w, b, e] { fn(w, b, e); });
  }
  fn(0u, size_t{0}, std::min(n, chunk));
  for (std::thread &t : pool) t.join();
}

} // namespace hotlines
