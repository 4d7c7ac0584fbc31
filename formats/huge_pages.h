// advise_huge, allocate_huge, reserve_huge, resize_huge, HugeVector: ask the kernel for transparent
// huge pages for a large buffer (this kernel gives them only where asked: THP "madvise"), so that
// filling hundreds of MB (a flame graph's nodes, per-node scratch arrays, hash tables) takes one
// page fault per 2 MiB instead of one per 4 KiB; on a virtual machine a fault costs microseconds.
// Only a hint: where the kernel declines, the buffer is the same, just slower to touch.
// unwritten_huge: an array that is not initialized, for passes that write every element from
// several threads (each thread's first touch zeroes its own pages, and nothing writes them twice).
// Any thread (each touches only the given buffer).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include <sys/mman.h>

namespace hotlines {

inline constexpr size_t kHugePage = size_t{2} << 20;

// Advises huge pages for the whole 2 MiB pages inside [at, at + bytes), if any; nothing is
// touched.
inline void advise_huge(const void *at, size_t bytes) {
#ifdef MADV_HUGEPAGE
  const uintptr_t a = reinterpret_cast<uintptr_t>(at);
  const uintptr_t begin = (a + kHugePage - 1) & ~(kHugePage - 1),
                  end = (a + bytes) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)at;
  (void)bytes;
#endif
}

// Gives back to the system the whole 2 MiB pages inside [at, at + bytes), if any: they read
// as zeros afterwards, faulted in again when written.
inline void give_back_huge(const void *at, size_t bytes) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(at);
  const uintptr_t begin = (a + kHugePage - 1) & ~(kHugePage - 1),
                  end = (a + bytes) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

// The bytes allocate_huge() gives for `bytes`: rounded up to whole huge pages from one up.
inline size_t huge_capacity(size_t bytes) {
  return bytes >= kHugePage ? (bytes + kHugePage - 1) / kHugePage * kHugePage : bytes;
}

// huge_capacity(bytes) bytes (at least one), not initialized, to be freed with std::free: from
// one huge page up, aligned to a huge page and advised huge pages. nullptr when out of memory.
inline void *allocate_huge(size_t bytes) {
  const size_t cap = std::max<size_t>(huge_capacity(bytes), 1);
  void *p = cap >= kHugePage ? std::aligned_alloc(kHugePage, cap) : std::malloc(cap);
  if (p) advise_huge(p, cap);
  return p;
}

// allocate_huge(), throwing std::bad_alloc when out of memory.
inline void *allocate_huge_or_throw(size_t bytes) {
  void *p = allocate_huge(bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

// Reserves room for n elements in an empty vector and advises huge pages for it.
template <class T> void reserve_huge(std::vector<T> &v, size_t n) {
  v.reserve(n);
  advise_huge(v.data(), n * sizeof(T));
}

struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};
template <class T> using Unwritten = std::unique_ptr<T[], FreeDeleter>;

// Room for n T (at least one), not initialized: the caller writes each element before reading
// it. T is an implicit-lifetime type (trivially copyable and destructible).
template <class T> Unwritten<T> unwritten_huge(size_t n) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  return Unwritten<T>(static_cast<T *>(allocate_huge_or_throw(n * sizeof(T))));
}

// The allocator of a vector that grows large one element at a time (a JFR slice's references,
// a hash table's slots): a buffer of a huge page or more comes from allocate_huge(), so the
// vector's growth faults in 2 MiB pages, not 4 KiB ones; smaller ones from malloc.
template <class T> struct HugeAllocator {
  using value_type = T;
  HugeAllocator() = default;
  template <class U> HugeAllocator(const HugeAllocator<U> &) noexcept {}
  T *allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T *>(allocate_huge_or_throw(n * sizeof(T)));
  }
  void deallocate(T *p, size_t) noexcept { std::free(p); }
  template <class U> bool operator==(const HugeAllocator<U> &) const noexcept { return true; }
};
template <class T> using HugeVector = std::vector<T, HugeAllocator<T>>;

// reserve_huge, then resize to n (value-initialized, as resize does).
template <class T> void resize_huge(std::vector<T> &v, size_t n) {
  reserve_huge(v, n);
  v.resize(n);
}

} // namespace hotlines
