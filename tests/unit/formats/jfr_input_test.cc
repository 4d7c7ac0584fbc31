// JfrInput's raw varint helpers: jfr_skip_varints (eight bytes at a time) lands where skipping
// one varint at a time does, for varints of every length from 1 to 9 bytes (the 9th byte of
// the longest keeps all 8 bits, top bit included), from every start, and fails at the end.
#include "formats/jfr_input.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace hotlines;

namespace {

// A JFR varint of exactly `len` bytes (1..9) with random payload bits.
void put_varint(std::vector<uint8_t> &out, unsigned len, std::mt19937_64 &rng) {
  for (unsigned i = 0; i + 1 < len; i++) out.push_back(static_cast<uint8_t>(0x80 | (rng() & 0x7f)));
  if (len == 9)
    out.push_back(static_cast<uint8_t>(rng())); // any byte, top bit too
  else
    out.push_back(static_cast<uint8_t>(rng() & 0x7f));
}

const uint8_t *skip_one_by_one(const uint8_t *p, const uint8_t *end, uint64_t n) {
  for (; n > 0 && p; n--) p = p < end ? jfr_skip_varint(p, end) : nullptr;
  return p;
}

} // namespace

TEST(JfrInput, SkippingManyVarintsLandsWhereSkippingEachDoes) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; round++) {
    std::vector<uint8_t> bytes;
    std::vector<size_t> starts;
    const int count = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < count; i++) {
      starts.push_back(bytes.size());
      // Mostly short ones, as in frames; long and 9-byte ones mixed in.
      const unsigned len = rng() % 4 ? 1 + rng() % 3 : 1 + rng() % 9;
      put_varint(bytes, len, rng);
    }
    starts.push_back(bytes.size());
    const uint8_t *const base = bytes.data(), *const end = base + bytes.size();
    for (int q = 0; q < 20; q++) {
      const size_t first = rng() % count;
      const size_t n = rng() % (count - first + 1);
      const uint8_t *got = jfr_skip_varints(base + starts[first], end, n);
      ASSERT_EQ(got, base + starts[first + n]) << "round " << round;
      ASSERT_EQ(got, skip_one_by_one(base + starts[first], end, n));
      // One more than there are runs off the end.
      EXPECT_EQ(jfr_skip_varints(base + starts[first], end, count - first + 1), nullptr);
      // Cut inside the last varint: it is not complete.
      if (starts[count] - starts[count - 1] > 1) {
        EXPECT_EQ(jfr_skip_varints(base + starts[first], end - 1, count - first), nullptr);
      }
    }
  }
}
