// PackedInts: block packing and unpacking (see packed_ints.h).
#include "formats/packed_ints.h"

#include <algorithm>
#include <bit>

namespace hotlines {

static_assert(std::endian::native == std::endian::little, "offsets are stored little-endian");

namespace {

// Unpacks m offsets of W bytes at p, adding `base` (mod 2^64). `end` is the end of the data:
// widths without a load of their own size load 8 bytes and mask, except within 8 bytes of it.
template <unsigned W>
void unpack(const uint8_t *p, size_t m, uint64_t base, const uint8_t *end, int64_t *out) {
  if constexpr (W == 0) {
    std::fill(out, out + m, static_cast<int64_t>(base));
  } else if constexpr (W == 1 || W == 2 || W == 4 || W == 8) {
    using U = std::conditional_t<
        W == 1, uint8_t,
        std::conditional_t<W == 2, uint16_t, std::conditional_t<W == 4, uint32_t, uint64_t>>>;
    for (size_t k = 0; k < m; k++) {
      U v;
      std::memcpy(&v, p + k * W, W);
      out[k] = static_cast<int64_t>(base + v);
    }
  } else {
    constexpr uint64_t mask = (uint64_t{1} << (8 * W)) - 1;
    const size_t room = static_cast<size_t>(end - p);
    const size_t fast = room >= 8 ? std::min(m, (room - 8) / W + 1) : 0;
    size_t k = 0;
    for (; k < fast; k++) {
      uint64_t v;
      std::memcpy(&v, p + k * W, sizeof v);
      out[k] = static_cast<int64_t>(base + (v & mask));
    }
    for (; k < m; k++) {
      uint64_t v = 0;
      std::memcpy(&v, p + k * W, W);
      out[k] = static_cast<int64_t>(base + v);
    }
  }
}

// Packs values[0, m) as W-byte offsets from `base` at p.
template <unsigned W>
void pack_offsets(const int64_t *values, size_t m, uint64_t base, uint8_t *p) {
  if constexpr (W > 0) {
    for (size_t k = 0; k < m; k++) {
      const uint64_t off = static_cast<uint64_t>(values[k]) - base;
      std::memcpy(p + k * W, &off, W);
    }
  }
}

void unpack_any(unsigned w, const uint8_t *p, size_t m, uint64_t base, const uint8_t *end,
                int64_t *out) {
  switch (w) {
  case 0:
    return unpack<0>(p, m, base, end, out);
  case 1:
    return unpack<1>(p, m, base, end, out);
  case 2:
    return unpack<2>(p, m, base, end, out);
  case 3:
    return unpack<3>(p, m, base, end, out);
  case 4:
    return unpack<4>(p, m, base, end, out);
  case 5:
    return unpack<5>(p, m, base, end, out);
  case 6:
    return unpack<6>(p, m, base, end, out);
  case 7:
    return unpack<7>(p, m, base, end, out);
  default:
    return unpack<8>(p, m, base, end, out);
  }
}

void pack_any(unsigned w, const int64_t *values, size_t m, uint64_t base, uint8_t *p) {
  switch (w) {
  case 0:
    return;
  case 1:
    return pack_offsets<1>(values, m, base, p);
  case 2:
    return pack_offsets<2>(values, m, base, p);
  case 3:
    return pack_offsets<3>(values, m, base, p);
  case 4:
    return pack_offsets<4>(values, m, base, p);
  case 5:
    return pack_offsets<5>(values, m, base, p);
  case 6:
    return pack_offsets<6>(values, m, base, p);
  case 7:
    return pack_offsets<7>(values, m, base, p);
  default:
    return pack_offsets<8>(values, m, base, p);
  }
}

} // namespace

unsigned PackedInts::width_of(uint64_t range) {
  return static_cast<unsigned>((std::bit_width(range) + 7) / 8);
}

uint64_t PackedInts::load_last(size_t pos, unsigned w) const {
  uint64_t raw = 0;
  if (w) std::memcpy(&raw, data_.data() + pos, w);
  return raw;
}

PackedInts::Shape PackedInts::shape_of(const int64_t *values, size_t n) {
  int64_t lo = values[0], hi = values[0];
  for (size_t k = 1; k < n; k++) {
    lo = std::min(lo, values[k]);
    hi = std::max(hi, values[k]);
  }
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  const unsigned w = width_of(range);
  return {lo, w, w ? static_cast<unsigned>(range >> (8 * (w - 1))) : 0};
}

void PackedInts::put_block(const int64_t *values, size_t n) {
  const Shape s = shape_of(values, n);
  const size_t offset = data_.size();
  if (offset + s.width * n > data_.capacity() && expect_ > packed_) { // room for the rest
    data_.reserve(std::max(offset + s.width * (expect_ - packed_), 2 * data_.capacity()));
  }
  data_.resize(offset + s.width * n);
  pack_any(s.width, values, n, static_cast<uint64_t>(s.base), data_.data() + offset);
  blocks_.push_back(Block{s.base, Block::make(offset, s.top, s.width)});
}

bool PackedInts::repack(size_t b, const int64_t *values, size_t n, size_t *write) {
  const Shape s = shape_of(values, n);
  const size_t end = blocks_[b].offset() + blocks_[b].width() * n;
  if (*write + s.width * n > end) return false;
  pack_any(s.width, values, n, static_cast<uint64_t>(s.base), data_.data() + *write);
  blocks_[b] = Block{s.base, Block::make(*write, s.top, s.width)};
  *write += s.width * n;
  return true;
}

void PackedInts::decode(size_t first, size_t n, int64_t *out) const {
  while (n > 0 && first < packed_) {
    const Block &b = blocks_[first >> kBlockShift];
    const size_t k = first & (kBlock - 1), m = std::min(n, kBlock - k);
    const unsigned w = b.width();
    unpack_any(w, data_.data() + b.offset() + k * w, m, static_cast<uint64_t>(b.base),
               data_.data() + data_.size(), out);
    first += m;
    out += m;
    n -= m;
  }
  if (n > 0) std::copy_n(tail_.data() + (first - packed_), n, out);
}

std::vector<int64_t> PackedInts::to_vector() const {
  std::vector<int64_t> out(size_);
  if (size_) decode(0, size_, out.data());
  return out;
}

int64_t PackedInts::max() const {
  int64_t hi = INT64_MIN;
  int64_t buf[kBlock];
  for (size_t b = 0; b < size_; b += kBlock) {
    const size_t m = std::min(kBlock, size_ - b);
    int64_t block_lo, block_hi;
    block_range(b, &block_lo, &block_hi);
    if (block_hi <= hi) continue; // nothing larger in this block
    decode(b, m, buf);
    for (size_t k = 0; k < m; k++) hi = std::max(hi, buf[k]);
  }
  return hi;
}

int64_t PackedInts::min() const {
  int64_t lo = INT64_MAX;
  for (const Block &b : blocks_) lo = std::min(lo, b.base);
  for (int64_t v : tail_) lo = std::min(lo, v);
  return lo;
}

bool PackedInts::contains(int64_t v) const {
  int64_t buf[kBlock];
  for (size_t b = 0; b < size_; b += kBlock) {
    const size_t m = std::min(kBlock, size_ - b);
    int64_t lo, hi;
    block_range(b, &lo, &hi);
    if (v < lo || v > hi) continue;
    decode(b, m, buf);
    if (std::find(buf, buf + m, v) != buf + m) return true;
  }
  return false;
}

void PackedInts::block_range(size_t i, int64_t *lo, int64_t *hi) const {
  if (i >= packed_) { // raw values of the block being filled: any range
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    return;
  }
  const Block &block = blocks_[i >> kBlockShift];
  const unsigned w = block.width();
  // The largest offset with its lower bytes all ones.
  const uint64_t bound =
      w == 0 ? 0 : std::min(kMask[w], ((uint64_t{block.top()} + 1) << (8 * (w - 1))) - 1);
  const uint64_t room = static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(block.base);
  *lo = block.base;
  *hi = bound > room ? INT64_MAX : static_cast<int64_t>(static_cast<uint64_t>(block.base) + bound);
}

void PackedInts::push_back(int64_t v) {
  open_tail();
  tail_.push_back(v);
  size_++;
  close_tail();
}

void PackedInts::append(size_t n, int64_t v) {
  while (n > 0) {
    if (size_ == packed_ && (size_ & (kBlock - 1)) == 0 && n >= kBlock) {
      blocks_.push_back(Block{v, Block::make(data_.size(), 0, 0)});
      size_ += kBlock;
      packed_ = size_;
      n -= kBlock;
      continue;
    }
    push_back(v);
    n--;
  }
}

void PackedInts::reopen_last() {
  const size_t first = (blocks_.size() - 1) << kBlockShift, m = size_ - first;
  tail_.resize(m);
  decode(first, m, tail_.data());
  data_.resize(blocks_.back().offset());
  blocks_.pop_back();
  packed_ = first;
}

void PackedInts::shrink_to_fit() {
  if (!tail_.empty()) {
    put_block(tail_.data(), tail_.size());
    packed_ = size_;
  }
  std::vector<int64_t>().swap(tail_);
  data_.shrink_to_fit();
  blocks_.shrink_to_fit();
  expect_ = 0;
}

bool PackedInts::operator==(const PackedInts &o) const {
  if (size_ != o.size_) return false;
  int64_t a[kBlock], b[kBlock];
  for (size_t i = 0; i < size_; i += kBlock) {
    const size_t m = std::min(kBlock, size_ - i);
    decode(i, m, a);
    o.decode(i, m, b);
    if (!std::equal(a, a + m, b)) return false;
  }
  return true;
}

} // namespace hotlines
