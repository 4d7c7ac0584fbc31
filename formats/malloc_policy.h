// set_malloc_policy: how the process takes memory from glibc. Buffers of 1 MiB and more (a
// chunk's bytes, columns, per-node arrays) are mapped on their own and given back to the
// kernel when freed. glibc's default starts there too but raises the threshold to the largest
// buffer freed (up to 32 MiB), after which freed buffers stay in the heap, resident: 80 MB of
// the peak RSS of `hotlines hot -e cpu` on a 588 MB async-profiler recording. Call once at
// the start of main, before any thread.
#pragma once

#include <malloc.h>

namespace hotlines {

inline void set_malloc_policy() {
  mallopt(M_MMAP_THRESHOLD, 1 << 20); // a fixed threshold: no raising
}

} // namespace hotlines
