// resize_huge: sizes a large vector after asking the kernel for transparent huge pages for its
// buffer, so that filling hundreds of MB (a flame graph's nodes, per-node scratch arrays) takes
// one page fault per 2 MiB instead of one per 4 KiB. Only a hint: where the kernel declines, the
// vector is the same, just slower to touch. Any thread (it touches only the given vector).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <sys/mman.h>

namespace hotlines {

// Reserves room for n elements in an empty vector and advises huge pages for the whole 2 MiB
// pages inside that room (when it spans at least two); nothing is touched yet.
template <class T> void reserve_huge(std::vector<T> &v, size_t n) {
  v.reserve(n);
#ifdef MADV_HUGEPAGE
  const size_t huge = size_t{2} << 20, bytes = n * sizeof(T);
  if (bytes >= 2 * huge) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(v.data());
    const uintptr_t begin = (at + huge - 1) & ~(huge - 1), end = (at + bytes) & ~(huge - 1);
    if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
  }
#endif
}

// reserve_huge, then resize to n (value-initialized, as resize does).
template <class T> void resize_huge(std::vector<T> &v, size_t n) {
  reserve_huge(v, n);
  v.resize(n);
}

} // namespace hotlines
