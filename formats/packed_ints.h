// PackedInts: a column of int64 values packed by frame of reference, for the sample columns
// (stack, thread, time, count, value, labels). Values sit in blocks of 1024; a block stores its
// minimum (the base) and every value as an unsigned little-endian offset from it in the
// fewest bytes that hold the block's range, 0 to 8 (0: every value equals the base). Offsets
// are computed and added back in unsigned arithmetic, so any int64 values round-trip and
// nothing overflows, whatever a hostile file holds.
//
// Built by appending (push_back, append): the values of the block being filled wait raw in a
// small tail buffer (8 KiB, reused) and are packed as soon as the block is full, so the column
// is never held unpacked; shrink_to_fit() packs the partial last block and trims the capacity
// (ProfileBuilder::finish does). A span of values is packed with exactly sized storage in one
// go. at() is a block lookup, one unaligned 8-byte load and a mask (a shorter load near the
// end of the data); decode() unpacks runs for the hot loops over millions of samples. Not
// thread-safe while appended to; a column no longer appended to may be read from any number
// of threads.
#pragma once

#include "formats/byte_buffer.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace hotlines {

class PackedInts {
public:
  static constexpr unsigned kBlockShift = 10;
  static constexpr size_t kBlock = size_t{1} << kBlockShift; // values per block

  PackedInts() = default;
  // Packs `values` (any integer type), with storage sized exactly.
  template <class T> static PackedInts pack(std::span<const T> values);
  template <class T> static PackedInts pack(const std::vector<T> &values) {
    return pack(std::span<const T>(values));
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Value i (< size()).
  int64_t at(size_t i) const {
    if (i >= packed_) [[unlikely]]
      return tail_[i - packed_];
    const Block &b = blocks_[i >> kBlockShift];
    const unsigned w = b.width();
    const size_t pos = b.offset() + (i & (kBlock - 1)) * w;
    uint64_t raw;
    if (pos + sizeof raw <= data_.size()) [[likely]]
      std::memcpy(&raw, data_.data() + pos, sizeof raw); // masked below
    else
      raw = load_last(pos, w);
    return static_cast<int64_t>(static_cast<uint64_t>(b.base) + (raw & kMask[w]));
  }
  int64_t operator[](size_t i) const { return at(i); }
  // Values [first, first + n) into out[0, n).
  void decode(size_t first, size_t n, int64_t *out) const;
  std::vector<int64_t> to_vector() const;
  // The largest value; INT64_MIN when empty.
  int64_t max() const;
  // The smallest value; INT64_MAX when empty. Reads only the blocks' minimums (and the tail).
  int64_t min() const;
  // Bounds of the values of the block holding value i: *lo is their minimum, *hi at least
  // their maximum (exact but for the lower bytes of wide offsets: within 2^16 for a block
  // 3 bytes wide, 2^24 for 4). Lets a pass skip or accept a whole block by its range.
  void block_range(size_t i, int64_t *lo, int64_t *hi) const;

  // Whether some value equals v (only the blocks whose range holds v are decoded).
  bool contains(int64_t v) const;

  // Appends a value (a full block is packed at once).
  void push_back(int64_t v);
  // Appends n copies of v (whole blocks of them cost no value bytes).
  void append(size_t n, int64_t v);
  // Appends values[0, n) (any integer type).
  template <class T> void append(const T *values, size_t n);
  // Expects about n values in all: storage grows once to what the first blocks' widths say
  // n values take, not by doubling and copying.
  void reserve(size_t n) {
    expect_ = n;
    blocks_.reserve((n + kBlock - 1) / kBlock);
  }
  // Packs the partial last block and frees unused capacity.
  void shrink_to_fit();
  // Every value equal to `from` becomes `to`, and seen(i) is called with the index of each, in
  // order. Packs the column (shrink_to_fit()), then its blocks again in place from the first
  // whose range holds `from`, each in the width its new values need: no second column is made
  // (ProfileBuilder gives samples without a stack their stack this way).
  template <class Seen> void replace(int64_t from, int64_t to, Seen seen);
  void clear() { *this = PackedInts(); }

  // Heap bytes held (values, block headers, the tail buffer, capacity not yet used).
  size_t bytes() const {
    return data_.capacity() + blocks_.capacity() * sizeof(Block) +
           tail_.capacity() * sizeof(int64_t);
  }
  // Equal values (however they are packed).
  bool operator==(const PackedInts &o) const;

private:
  // Low `w` bytes of a uint64, w = 0..8.
  static constexpr uint64_t kMask[9] = {0,           0xff,         0xffff,         0xffffff,
                                        0xffffffff,  0xffffffffff, 0xffffffffffff, 0xffffffffffffff,
                                        ~uint64_t{0}};
  struct Block {
    int64_t base = 0; // the block's minimum
    // byte offset into data_ << 12 | top byte of the largest offset << 4 | width
    uint64_t pos = 0;
    uint64_t offset() const { return pos >> 12; }
    unsigned top() const { return static_cast<unsigned>(pos >> 4 & 0xff); }
    unsigned width() const { return static_cast<unsigned>(pos & 15); }
    static uint64_t make(uint64_t offset, unsigned top, unsigned width) {
      return offset << 12 | uint64_t{top} << 4 | width;
    }
  };

  static unsigned width_of(uint64_t range);
  // How values[0, n) (n >= 1) pack: their minimum, the bytes an offset from it takes, and the
  // top byte of the largest offset (Block::top).
  struct Shape {
    int64_t base;
    unsigned width, top;
  };
  static Shape shape_of(const int64_t *values, size_t n);
  // The w-byte offset at pos, within 8 bytes of the end of data_.
  uint64_t load_last(size_t pos, unsigned w) const;
  // Packs values[0, n) (n <= kBlock) as a block at the end of data_ (which has room).
  void put_block(const int64_t *values, size_t n);
  // Packs values[0, n) as block b again, at byte `*write` (at most its offset), in the width
  // they need, and moves *write past it; false, with nothing written, when that would reach past
  // the block's bytes into the next block's.
  bool repack(size_t b, const int64_t *values, size_t n, size_t *write);
  // Unpacks a partial last block into the tail, to append to it.
  void reopen_last();
  // Before appending: the tail ready to take values.
  void open_tail() {
    if (size_ == packed_) {
      if (size_ & (kBlock - 1)) reopen_last(); // a partial last block was packed: unpack it
      if (tail_.capacity() < kBlock) tail_.reserve(kBlock);
    }
  }
  // After appending: a full tail packed.
  void close_tail() {
    if (tail_.size() == kBlock) {
      put_block(tail_.data(), kBlock);
      packed_ = size_;
      tail_.clear(); // keeps its capacity for the next block
    }
  }

  std::vector<Block> blocks_;
  // Packed values, block after block; grown by resize() right before the new bytes are written.
  ByteBuffer data_;
  size_t size_ = 0;
  size_t packed_ = 0;         // values in blocks_; the rest, [packed_, size_), are in tail_
  std::vector<int64_t> tail_; // raw values of the block being filled
  size_t expect_ = 0;         // values expected in all (reserve)
};

template <class T> void PackedInts::append(const T *values, size_t n) {
  static_assert(sizeof(T) <= sizeof(int64_t));
  while (n > 0) {
    open_tail();
    const size_t m = std::min(n, kBlock - tail_.size());
    tail_.insert(tail_.end(), values, values + m);
    size_ += m;
    values += m;
    n -= m;
    close_tail();
  }
}

template <class Seen> void PackedInts::replace(int64_t from, int64_t to, Seen seen) {
  shrink_to_fit();
  size_t b = 0;
  for (; b < blocks_.size(); b++) {
    int64_t lo, hi;
    block_range(b << kBlockShift, &lo, &hi);
    if (lo <= from && from <= hi) break;
  }
  if (b == blocks_.size()) return;
  size_t write = blocks_[b].offset();
  int64_t buf[kBlock];
  // Values [first, first + m) into buf, `from` replaced.
  auto substituted = [&](size_t first, size_t m) {
    decode(first, m, buf);
    for (size_t k = 0; k < m; k++)
      if (buf[k] == from) {
        buf[k] = to;
        seen(first + k);
      }
  };
  for (; b < blocks_.size(); b++) {
    const size_t first = b << kBlockShift, m = std::min(kBlock, size_ - first);
    substituted(first, m);
    if (repack(b, buf, m, &write)) continue;
    // A block that needs more bytes than it had (`to` far from its other values): the rest
    // of the column is packed anew behind the blocks done.
    PackedInts rest;
    rest.blocks_.assign(blocks_.begin(), blocks_.begin() + static_cast<ptrdiff_t>(b));
    rest.data_.resize(write);
    std::memcpy(rest.data_.data(), data_.data(), write);
    rest.size_ = rest.packed_ = first;
    rest.append(buf, m);
    for (size_t f = first + m; f < size_; f += kBlock) {
      const size_t n = std::min(kBlock, size_ - f);
      substituted(f, n);
      rest.append(buf, n);
    }
    rest.shrink_to_fit();
    *this = std::move(rest);
    return;
  }
  data_.resize(write);
  data_.shrink_to_fit();
}

template <class T> PackedInts PackedInts::pack(std::span<const T> values) {
  static_assert(sizeof(T) <= sizeof(int64_t));
  PackedInts p;
  const size_t n = values.size();
  if (n == 0) return p;
  // Pass 1: every block's width, to size the storage exactly.
  size_t bytes = 0;
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t m = std::min(kBlock, n - b);
    int64_t lo = static_cast<int64_t>(values[b]), hi = lo;
    for (size_t k = 1; k < m; k++) {
      const int64_t v = static_cast<int64_t>(values[b + k]);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    bytes += width_of(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)) * m;
  }
  p.blocks_.reserve((n + kBlock - 1) / kBlock);
  p.data_.reserve(bytes);
  // Pass 2: pack.
  int64_t buf[kBlock];
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t m = std::min(kBlock, n - b);
    for (size_t k = 0; k < m; k++) buf[k] = static_cast<int64_t>(values[b + k]);
    p.put_block(buf, m);
  }
  p.size_ = p.packed_ = n;
  return p;
}

} // namespace hotlines
