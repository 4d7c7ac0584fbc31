// GrowingColumn: an append-only array of a trivially copyable type that grows in place, for a
// column whose final length nobody knows until it is built (the stack tree: 12 M nodes on a
// deep-stacks recording). A std::vector doubles by copying, so growing to n holds up to 3n at
// once and keeps up to 2n; here the pages are mapped and grown with mremap, which moves no
// bytes, and room not yet written costs no memory (its pages, huge ones once it is large, are
// faulted in as it is written). take() hands the column over as an exact std::vector,
// releasing each part once copied, so the two copies never coexist whole.
// Not thread-safe; one owner.
#pragma once

#include "formats/huge_pages.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>

namespace hotlines {

template <class T> class GrowingColumn {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  GrowingColumn() = default;
  GrowingColumn(const GrowingColumn &) = delete;
  GrowingColumn &operator=(const GrowingColumn &) = delete;
  GrowingColumn(GrowingColumn &&o) noexcept { swap(o); }
  GrowingColumn &operator=(GrowingColumn &&o) noexcept {
    clear();
    swap(o);
    return *this;
  }
  ~GrowingColumn() { clear(); }

  size_t size() const { return size_; }
  const T &operator[](size_t i) const { return data_[i]; }
  T &operator[](size_t i) { return data_[i]; }
  void push_back(T x) {
    if (size_ == capacity_) grow();
    data_[size_++] = x;
  }
  // Unmaps everything.
  void clear() {
    if (data_) munmap(data_, bytes_);
    data_ = nullptr;
    size_ = capacity_ = bytes_ = 0;
  }

  // The column as a vector of exactly size() elements; the column is empty afterwards. Copies
  // 1 MiB at a time and drops the pages copied, so the peak is the vector plus 1 MiB.
  std::vector<T> take() {
    std::vector<T> out;
    reserve_huge(out, size_);
    constexpr size_t kPiece = (size_t{1} << 20) / sizeof(T);
    auto *base = reinterpret_cast<char *>(data_);
    size_t dropped = 0; // bytes
    for (size_t at = 0; at < size_; at += kPiece) {
      const size_t end = std::min(size_, at + kPiece);
      out.insert(out.end(), data_ + at, data_ + end);
      const size_t whole = end * sizeof(T) / kPage * kPage;
      if (whole > dropped) madvise(base + dropped, whole - dropped, MADV_DONTNEED);
      dropped = std::max(dropped, whole);
    }
    clear();
    return out;
  }

private:
  static constexpr size_t kPage = 4096;
  void swap(GrowingColumn &o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
    std::swap(bytes_, o.bytes_);
  }
  // Doubles the mapping (16 pages at first). mremap moves no bytes, but only a mapping that is
  // one VMA: huge pages are advised for the whole mapping, never a part (advise_huge's whole 2
  // MiB pages inside it split a column whose start is not 2 MiB aligned in three, and the next
  // mremap failed: a load's bad_alloc at 2^20 stack nodes, now and then). Should the mapping be
  // split anyway, the column is copied to a new one.
  void grow() {
    const size_t bytes = bytes_ ? bytes_ * 2 : 16 * kPage;
    void *p = data_ ? mremap(data_, bytes_, bytes, MREMAP_MAYMOVE) : MAP_FAILED;
    if (p == MAP_FAILED) {
      p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      if (data_) {
        std::memcpy(p, data_, size_ * sizeof(T));
        munmap(data_, bytes_);
      }
    }
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    data_ = static_cast<T *>(p);
    bytes_ = bytes;
    capacity_ = bytes / sizeof(T);
  }

  T *data_ = nullptr;
  size_t size_ = 0, capacity_ = 0, bytes_ = 0;
};

} // namespace hotlines
