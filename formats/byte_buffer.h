// ByteBuffer: a growable array of bytes kept with malloc/realloc, for PackedInts' packed values.
// Under set_malloc_policy() a buffer of 1 MiB or more is a mapping of its own, which glibc's
// realloc grows and shrinks with mremap: no byte is copied and no page is touched twice. A
// std::vector copies on every reserve() and shrink_to_fit(), and with DefaultInitAllocator it
// copies byte by byte: shrinking a load's packed columns once cost 14% of a 260 MB load.
// resize() leaves the new bytes unwritten (the caller writes them next). Not advised huge pages:
// the columns are written once, in order, while a load takes fresh memory, and on a virtual
// machine that gives freed memory back to its host a fresh huge page cost 2-5 times as much
// to fill as 4 KiB pages (README, Performance). Not thread-safe; one owner.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace hotlines {

class ByteBuffer {
public:
  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer &o) {
    if (o.size_ == 0) return;
    data_ = static_cast<uint8_t *>(std::malloc(o.size_));
    if (!data_) throw std::bad_alloc();
    std::memcpy(data_, o.data_, o.size_);
    size_ = capacity_ = o.size_;
  }
  ByteBuffer(ByteBuffer &&o) noexcept { swap(o); }
  ByteBuffer &operator=(ByteBuffer o) noexcept {
    swap(o);
    return *this;
  }
  ~ByteBuffer() { std::free(data_); }

  uint8_t *data() { return data_; }
  const uint8_t *data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  // Room for n bytes in all (never less than size()).
  void reserve(size_t n) {
    if (n > capacity_) move_to(n);
  }
  // n bytes; new ones are not written. Grows by doubling when past the capacity.
  void resize(size_t n) {
    if (n > capacity_) move_to(std::max(n, 2 * capacity_));
    size_ = n;
  }
  // Capacity down to size().
  void shrink_to_fit() {
    if (capacity_ == size_) return;
    if (size_ == 0) {
      std::free(data_);
      data_ = nullptr;
      capacity_ = 0;
      return;
    }
    move_to(size_);
  }

private:
  void swap(ByteBuffer &o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
  }
  void move_to(size_t cap) {
    void *p = std::realloc(data_, cap);
    if (!p) throw std::bad_alloc();
    data_ = static_cast<uint8_t *>(p);
    capacity_ = cap;
  }

  uint8_t *data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

} // namespace hotlines
