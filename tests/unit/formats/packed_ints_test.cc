// Tests for PackedInts: every byte width (checked by the bytes it takes), negative values and
// the int64 extremes, all-equal blocks, a partial last block, append/push_back/pack building
// the same column, random round trips, and that building by appending never holds the column
// unpacked.
#include "formats/packed_ints.h"

#include <gtest/gtest.h>

#include <random>

using namespace hotlines;

namespace {

constexpr size_t kB = PackedInts::kBlock;

// Bytes of a packed column: the values and 16 per block header.
size_t packed_bytes(size_t value_bytes, size_t blocks) {
  return value_bytes + 16 * blocks;
}

std::vector<int64_t> decoded(const PackedInts &p, size_t first, size_t n) {
  std::vector<int64_t> out(n);
  p.decode(first, n, out.data());
  return out;
}

PackedInts appended(const std::vector<int64_t> &v) {
  PackedInts p;
  for (int64_t x : v) p.push_back(x);
  return p;
}

} // namespace

TEST(PackedInts, Empty) {
  PackedInts p;
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.size(), 0u);
  EXPECT_EQ(p.bytes(), 0u);
  EXPECT_TRUE(p.to_vector().empty());
  EXPECT_EQ(p.max(), INT64_MIN);
  EXPECT_EQ(p.min(), INT64_MAX);
  EXPECT_TRUE(p == PackedInts::pack(std::vector<int64_t>{}));
  p.shrink_to_fit();
  EXPECT_TRUE(p.empty());
}

// A block whose range needs exactly w bytes takes w bytes per value, for w = 0..8.
TEST(PackedInts, EveryWidth) {
  for (unsigned w = 0; w <= 8; w++) {
    const int64_t base = -1'000'000'007;
    const uint64_t range = w == 0 ? 0 : w == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * w)) - 1;
    std::vector<int64_t> v(kB);
    for (size_t i = 0; i < kB; i++) {
      // The range's two ends, and values in between.
      const uint64_t off = i == 0 ? 0 : i == 1 ? range : range / (i + 1) * (i % 5);
      v[i] = static_cast<int64_t>(static_cast<uint64_t>(base) + off);
    }
    SCOPED_TRACE("width " + std::to_string(w));
    PackedInts p = PackedInts::pack(v);
    EXPECT_EQ(p.bytes(), packed_bytes(w * kB, 1));
    ASSERT_EQ(p.size(), kB);
    EXPECT_EQ(p.to_vector(), v);
    for (size_t i = 0; i < kB; i++) ASSERT_EQ(p.at(i), v[i]) << i;
    EXPECT_EQ(decoded(p, 1, 3), std::vector<int64_t>(v.begin() + 1, v.begin() + 4));
    // One more than the range needs the next width (up to 8).
    if (w >= 1 && w < 8) {
      std::vector<int64_t> wider = v;
      wider[2] = static_cast<int64_t>(static_cast<uint64_t>(base) + range + 1);
      EXPECT_EQ(PackedInts::pack(wider).bytes(), packed_bytes((w + 1) * kB, 1));
      EXPECT_EQ(PackedInts::pack(wider).at(2), wider[2]);
    }
    // Built by appending: the same values and, once shrunk, the same bytes.
    PackedInts a = appended(v);
    a.shrink_to_fit();
    EXPECT_EQ(a.to_vector(), v);
    EXPECT_EQ(a.bytes(), p.bytes());
    EXPECT_TRUE(a == p);
  }
}

TEST(PackedInts, Boundaries) {
  EXPECT_EQ(PackedInts::pack(std::vector<int64_t>{0, 255}).bytes(), packed_bytes(2, 1));
  EXPECT_EQ(PackedInts::pack(std::vector<int64_t>{0, 256}).bytes(), packed_bytes(4, 1));
  EXPECT_EQ(PackedInts::pack(std::vector<int64_t>{-128, 127}).bytes(), packed_bytes(2, 1));
  EXPECT_EQ(PackedInts::pack(std::vector<int64_t>{5, 5, 5}).bytes(), packed_bytes(0, 1));
  EXPECT_EQ(PackedInts::pack(std::vector<int64_t>{0, INT64_MAX}).bytes(), packed_bytes(16, 1));
  EXPECT_EQ(PackedInts::pack(std::vector<int64_t>{-1, 0xffffffff}).bytes(), packed_bytes(10, 1));
}

TEST(PackedInts, NegativesAndExtremes) {
  const std::vector<int64_t> v = {INT64_MIN, INT64_MAX,     -1,           0, 1, INT64_MIN,
                                  INT64_MAX, INT64_MIN + 1, INT64_MAX - 1};
  for (const PackedInts &p : {PackedInts::pack(v), appended(v)}) {
    ASSERT_EQ(p.size(), v.size());
    for (size_t i = 0; i < v.size(); i++) EXPECT_EQ(p.at(i), v[i]) << i;
    EXPECT_EQ(p.to_vector(), v);
    EXPECT_EQ(p.max(), INT64_MAX);
    EXPECT_EQ(p.min(), INT64_MIN);
  }
  // All negative: base INT64_MIN, offsets below 2^8.
  const std::vector<int64_t> low = {INT64_MIN + 200, INT64_MIN, INT64_MIN + 7};
  PackedInts p = PackedInts::pack(low);
  EXPECT_EQ(p.bytes(), packed_bytes(3, 1));
  EXPECT_EQ(p.to_vector(), low);
  EXPECT_EQ(p.max(), INT64_MIN + 200);
  EXPECT_EQ(p.min(), INT64_MIN);
  // All at the top: base INT64_MAX - 3, offsets up to 3.
  const std::vector<int64_t> high = {INT64_MAX, INT64_MAX - 3, INT64_MAX - 1};
  EXPECT_EQ(PackedInts::pack(high).to_vector(), high);
  EXPECT_EQ(PackedInts::pack(high).bytes(), packed_bytes(3, 1));
}

TEST(PackedInts, AllEqualBlocksCostNoValueBytes) {
  std::vector<int64_t> v(10 * kB, -7);
  PackedInts p = PackedInts::pack(v);
  EXPECT_EQ(p.bytes(), packed_bytes(0, 10));
  EXPECT_EQ(p.at(0), -7);
  EXPECT_EQ(p.at(10 * kB - 1), -7);
  EXPECT_EQ(decoded(p, 1000, 100), std::vector<int64_t>(100, -7));

  PackedInts a;
  a.append(3 * kB + 5, 1); // three whole width-0 blocks, then 5 values into a fourth
  a.push_back(2);
  a.append(kB, 1); // the fourth block fills, then values into a fifth
  a.shrink_to_fit();
  ASSERT_EQ(a.size(), 4 * kB + 6);
  EXPECT_EQ(a.at(3 * kB + 4), 1);
  EXPECT_EQ(a.at(3 * kB + 5), 2);
  EXPECT_EQ(a.at(3 * kB + 6), 1);
  EXPECT_EQ(a.at(4 * kB + 5), 1);
  // Blocks 0-2 and 4 take no value bytes, block 3 one byte per value.
  EXPECT_EQ(a.bytes(), packed_bytes(kB, 5));
  std::vector<int64_t> want(4 * kB + 6, 1);
  want[3 * kB + 5] = 2;
  EXPECT_EQ(a.to_vector(), want);
}

TEST(PackedInts, PartialLastBlock) {
  std::vector<int64_t> v(2 * kB + 452);
  for (size_t i = 0; i < v.size(); i++) v[i] = 1'000'000 + static_cast<int64_t>(i % 300) * 3;
  v.back() = 70'000; // the last block's base, a negative offset from the rest
  for (PackedInts p : {PackedInts::pack(v), appended(v)}) {
    p.shrink_to_fit();
    ASSERT_EQ(p.size(), v.size());
    // Widths: 2, 2 (range 897), then 3 for the last block (1'000'000 - 70'000 < 2^24).
    EXPECT_EQ(p.bytes(), packed_bytes(2 * 2 * kB + 452 * 3, 3));
    EXPECT_EQ(p.at(v.size() - 1), 70'000);
    EXPECT_EQ(p.at(2 * kB), v[2 * kB]);
    EXPECT_EQ(decoded(p, kB - 3, kB + 10),
              std::vector<int64_t>(v.begin() + kB - 3, v.begin() + 2 * kB + 7));
    EXPECT_EQ(decoded(p, 2 * kB + 400, 52), std::vector<int64_t>(v.end() - 52, v.end()));
    EXPECT_EQ(p.to_vector(), v);
  }
}

// Appending after shrink_to_fit reopens the packed partial block.
TEST(PackedInts, AppendAfterShrink) {
  PackedInts p;
  std::vector<int64_t> want;
  for (int round = 0; round < 4; round++) {
    for (int k = 0; k < 700; k++) {
      const int64_t x = round * 100'000 + k * (round + 1);
      p.push_back(x);
      want.push_back(x);
    }
    p.shrink_to_fit();
    ASSERT_EQ(p.to_vector(), want) << round;
  }
  ASSERT_EQ(p.size(), 2800u);
  EXPECT_EQ(p.at(2799), 3 * 100'000 + 699 * 4);
  EXPECT_EQ(p.max(), 3 * 100'000 + 699 * 4);
}

// block_range: the block's minimum, and its maximum rounded up in the bytes below the top
// byte of the largest offset; the whole range while a block is still raw.
TEST(PackedInts, BlockRange) {
  std::vector<int64_t> v(3 * kB);
  for (size_t i = 0; i < kB; i++) v[i] = 100 + static_cast<int64_t>(i % 200);       // 1 byte
  for (size_t i = kB; i < 2 * kB; i++) v[i] = -5'000'000 + static_cast<int64_t>(i); // 2 bytes
  for (size_t i = 2 * kB; i < 3 * kB; i++) v[i] = 7;                                // 0 bytes
  v[2 * kB + 9] = 7 + 0x123456;                                                     // 3 bytes
  PackedInts p = PackedInts::pack(v);
  int64_t lo, hi;
  p.block_range(5, &lo, &hi);
  EXPECT_EQ(lo, 100);
  EXPECT_EQ(hi, 299); // exact for one byte
  p.block_range(kB, &lo, &hi);
  EXPECT_EQ(lo, -5'000'000 + static_cast<int64_t>(kB));
  // Largest offset 1023 = 0x3ff: top byte 3, so up to 0x3ff.
  EXPECT_EQ(hi, lo + 0x3ff);
  p.block_range(3 * kB - 1, &lo, &hi);
  EXPECT_EQ(lo, 7);
  EXPECT_EQ(hi, 7 + 0x12ffff); // top byte 0x12 of 0x123456
  // Near INT64_MAX the bound saturates instead of wrapping.
  PackedInts top = PackedInts::pack(std::vector<int64_t>{INT64_MAX - 300, INT64_MAX});
  top.block_range(0, &lo, &hi);
  EXPECT_EQ(lo, INT64_MAX - 300);
  EXPECT_EQ(hi, INT64_MAX);
  PackedInts all = PackedInts::pack(std::vector<int64_t>{INT64_MIN, INT64_MAX});
  all.block_range(1, &lo, &hi);
  EXPECT_EQ(lo, INT64_MIN);
  EXPECT_EQ(hi, INT64_MAX);
  // A block being filled has no known range yet; once packed it has.
  PackedInts open;
  open.push_back(40);
  open.push_back(41);
  open.block_range(0, &lo, &hi);
  EXPECT_EQ(lo, INT64_MIN);
  EXPECT_EQ(hi, INT64_MAX);
  open.shrink_to_fit();
  open.block_range(0, &lo, &hi);
  EXPECT_EQ(lo, 40);
  EXPECT_EQ(hi, 41);
}

TEST(PackedInts, SmallerTypes) {
  const std::vector<uint32_t> threads = {0, 3, UINT32_MAX, 7};
  PackedInts p = PackedInts::pack(threads);
  EXPECT_EQ(p.at(2), int64_t{UINT32_MAX}); // unsigned, not -1
  EXPECT_EQ(p.at(1), 3);
  EXPECT_EQ(p.bytes(), packed_bytes(16, 1));
  const std::vector<int32_t> neg = {-5, 5};
  EXPECT_EQ(PackedInts::pack(neg).to_vector(), (std::vector<int64_t>{-5, 5}));
}

TEST(PackedInts, Equality) {
  std::vector<int64_t> v(3 * kB + 1, 9);
  v[kB + 3] = -4;
  PackedInts a = PackedInts::pack(v), b = appended(v); // b's last block is still raw
  EXPECT_TRUE(a == b);
  EXPECT_NE(a.bytes(), b.bytes());
  std::vector<int64_t> w = v;
  w.back() = 10;
  EXPECT_FALSE(a == PackedInts::pack(w));
  w = v;
  w.pop_back();
  EXPECT_FALSE(a == PackedInts::pack(w));
  PackedInts c = a; // copies are independent
  c.push_back(1);
  EXPECT_EQ(a.size(), v.size());
  EXPECT_EQ(c.at(v.size()), 1);
  EXPECT_EQ(c.at(kB + 3), -4);
}

TEST(PackedInts, RandomRoundTrips) {
  std::mt19937_64 rng(19);
  for (int round = 0; round < 60; round++) {
    const size_t n = rng() % (5 * kB);
    std::vector<int64_t> v(n);
    // Runs of values with a random base and a random range width, crossing block edges.
    size_t i = 0;
    while (i < n) {
      const size_t run = 1 + rng() % 1500;
      const unsigned bits = static_cast<unsigned>(rng() % 65);
      const int64_t base = static_cast<int64_t>(rng());
      for (size_t k = 0; k < run && i < n; k++, i++) {
        const uint64_t off = bits == 0 ? 0 : bits == 64 ? rng() : rng() >> (64 - bits);
        v[i] = static_cast<int64_t>(static_cast<uint64_t>(base) + off);
      }
    }
    SCOPED_TRACE("round " + std::to_string(round) + ", n " + std::to_string(n));
    PackedInts p = PackedInts::pack(v), a = appended(v);
    ASSERT_EQ(p.to_vector(), v);
    ASSERT_EQ(a.to_vector(), v);
    for (int q = 0; q < 50 && n > 0; q++) {
      const size_t k = rng() % n;
      ASSERT_EQ(p.at(k), v[k]);
      ASSERT_EQ(a.at(k), v[k]);
      const size_t len = rng() % (n - k + 1);
      ASSERT_EQ(decoded(p, k, len), std::vector<int64_t>(v.begin() + k, v.begin() + k + len));
      ASSERT_EQ(decoded(a, k, len), std::vector<int64_t>(v.begin() + k, v.begin() + k + len));
    }
    a.shrink_to_fit();
    EXPECT_EQ(a.bytes(), p.bytes());
    EXPECT_TRUE(a == p);
    if (n) {
      EXPECT_EQ(p.max(), *std::max_element(v.begin(), v.end()));
      EXPECT_EQ(p.min(), *std::min_element(v.begin(), v.end()));
      EXPECT_EQ(appended(v).min(), p.min()); // with its last block still raw
    }
  }
}

// Appending a million one-byte values never holds them unpacked (8 MB): the column grows as
// packed blocks plus the one raw block being filled, and ends at its packed size.
TEST(PackedInts, BuilderPeakIsPacked) {
  const size_t n = 1'000'000, blocks = (n + kB - 1) / kB;
  PackedInts p;
  size_t peak = 0;
  std::mt19937_64 rng(7);
  for (size_t i = 0; i < n; i++) {
    p.push_back(1000 + static_cast<int64_t>(rng() % 200));
    peak = std::max(peak, p.bytes());
  }
  p.shrink_to_fit();
  const size_t packed = packed_bytes(n, blocks);
  EXPECT_EQ(p.bytes(), packed);
  // Growth by doubling: at most twice the packed values and headers plus the raw block.
  EXPECT_LE(peak, 2 * (packed + 8 * kB));
  EXPECT_LT(peak, n * 8 / 3);
  EXPECT_GE(p.at(n - 1), 1000);
  EXPECT_LT(p.at(n - 1), 1200);
}

// reserve() sizes the storage from the first blocks' widths; blocks that come out wider
// still fit, and the column is the one appending without it gives.
TEST(PackedInts, ReservedColumnsEqualGrownOnes) {
  std::vector<int64_t> v(20 * kB + 77);
  for (size_t i = 0; i < v.size(); i++)
    v[i] = i < 5 * kB ? static_cast<int64_t>(i % 200) : static_cast<int64_t>(i) * 1'000'003;
  PackedInts grown = appended(v), reserved;
  reserved.reserve(v.size());
  reserved.append(v.data(), 3 * kB + 11); // width 1 for these, then wider blocks
  for (size_t i = 3 * kB + 11; i < v.size(); i++) reserved.push_back(v[i]);
  grown.shrink_to_fit();
  reserved.shrink_to_fit();
  EXPECT_EQ(reserved.to_vector(), v);
  EXPECT_TRUE(reserved == grown);
  EXPECT_EQ(reserved.bytes(), grown.bytes());
}

// contains() finds a value in any block, the raw tail too, and not one that lies only within
// a block's range.
TEST(PackedInts, Contains) {
  PackedInts p;
  for (size_t i = 0; i < 3 * kB + 5; i++)
    p.push_back(i == 2 * kB + 9 ? 999'999 : int64_t(i % 50) * 2);
  EXPECT_TRUE(p.contains(999'999));
  EXPECT_TRUE(p.contains(98));
  EXPECT_FALSE(p.contains(97)); // within every block's range, in none
  EXPECT_FALSE(p.contains(-1));
  p.push_back(-7); // in the tail
  EXPECT_TRUE(p.contains(-7));
}

// replace() rewrites in place: the blocks from the first that held the value are packed again
// in the width their new values need (a block of ids and UINT32_MAX, 4 bytes wide, becomes 1
// byte wide), the blocks before keep their bytes, and seen() gets every index in order.
TEST(PackedInts, ReplaceRepacksInPlace) {
  std::vector<int64_t> v(4 * kB + 300);
  for (size_t i = 0; i < v.size(); i++) v[i] = static_cast<int64_t>(i % 200);
  const std::vector<size_t> at = {kB + 3, kB + 900, 3 * kB, 4 * kB + 299};
  for (size_t i : at) v[i] = UINT32_MAX;
  PackedInts p = appended(v);
  p.shrink_to_fit();
  // Blocks 1 and 3 and the last are 4 bytes wide, blocks 0 and 2 one.
  EXPECT_EQ(p.bytes(), packed_bytes(kB + 4 * kB + kB + 4 * kB + 4 * 300, 5));
  std::vector<size_t> seen;
  p.replace(UINT32_MAX, 250, [&](size_t i) { seen.push_back(i); });
  EXPECT_EQ(seen, at);
  for (size_t i : at) v[i] = 250;
  EXPECT_EQ(p.to_vector(), v);
  EXPECT_EQ(p.bytes(), packed_bytes(v.size(), 5));
  int64_t lo, hi;
  p.block_range(kB, &lo, &hi);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 250); // one byte wide: its top byte is the largest offset
  // Appending after a replace goes on from the packed column.
  p.push_back(7);
  EXPECT_EQ(p.at(v.size()), 7);
  // Nothing to replace: the column is unchanged.
  seen.clear();
  p.replace(12345, 1, [&](size_t i) { seen.push_back(i); });
  EXPECT_TRUE(seen.empty());
  EXPECT_EQ(p.at(kB + 3), 250);
}

// A block whose new values need more bytes than it had (the new value far from the others)
// cannot be packed in place: the column from it on is packed anew, the same values.
TEST(PackedInts, ReplaceThatWidensABlock) {
  std::vector<int64_t> v(3 * kB + 10);
  for (size_t i = 0; i < v.size(); i++)
    v[i] = i < kB ? static_cast<int64_t>(i % 40) : 1'000'000 + static_cast<int64_t>(i % 100);
  // Block 0 does not hold the value; block 1, 6 bytes wide, takes the new one in place; block
  // 2, one byte wide, cannot.
  v[kB] = -2'000'000'000'000;
  PackedInts p = appended(v);
  std::vector<size_t> seen;
  p.replace(1'000'050, -1'000'000'000'000, [&](size_t i) { seen.push_back(i); });
  std::vector<size_t> want;
  for (size_t i = 0; i < v.size(); i++)
    if (v[i] == 1'000'050) {
      want.push_back(i);
      v[i] = -1'000'000'000'000;
    }
  EXPECT_EQ(seen, want);
  EXPECT_EQ(p.to_vector(), v);
  PackedInts fresh = appended(v);
  fresh.shrink_to_fit();
  EXPECT_EQ(p.bytes(), fresh.bytes()); // every block in the width it needs
}
