// Tests for format_weight, the one rule of bytes and durations (README "Units"): concrete
// values, and every case of tests/data/units.json, which the web view and Neovim tests share.
#include "server/engine/units.h"

#include <cstdint>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace hotlines;

namespace {

TEST(Units, BytesInBinaryUnits) {
  EXPECT_EQ(format_weight(2177226384, "bytes"), "2.03 GiB");
  EXPECT_EQ(format_weight(1536, "bytes"), "1.50 KiB");
  EXPECT_EQ(format_weight(999, "bytes"), "999 B");
  EXPECT_EQ(format_weight(1023, "bytes"), "1023 B");
  EXPECT_EQ(format_weight(5 * 1048576 + 1048576 / 4, "bytes"), "5.25 MiB");
  EXPECT_EQ(format_weight(int64_t{3} << 40, "bytes"), "3.00 TiB");
  EXPECT_EQ(format_weight(-1536, "bytes"), "-1.50 KiB");
}

TEST(Units, Durations) {
  EXPECT_EQ(format_weight(1500, "nanoseconds"), "1.50 \u00B5s");
  EXPECT_EQ(format_weight(1500, "ns"), "1.50 \u00B5s");
  EXPECT_EQ(format_weight(999, "nanoseconds"), "999 ns");
  EXPECT_EQ(format_weight(12500000, "nanoseconds"), "12.50 ms");
  EXPECT_EQ(format_weight(2180000000, "nanoseconds"), "2.18 s");
}

// Half away from zero on the exact value, not printf's half-to-even on the double: 1.125 KiB
// and 1.125 µs are exact ties.
TEST(Units, RoundsHalfAwayFromZero) {
  EXPECT_EQ(format_weight(1152, "bytes"), "1.13 KiB");
  EXPECT_EQ(format_weight(-1152, "bytes"), "-1.13 KiB");
  EXPECT_EQ(format_weight(1125, "nanoseconds"), "1.13 \u00B5s");
}

// A value that rounds up to the next unit is printed in it: never "1024.00 KiB".
TEST(Units, RoundsIntoTheNextUnit) {
  EXPECT_EQ(format_weight(1048575, "bytes"), "1.00 MiB");
  EXPECT_EQ(format_weight(999995, "nanoseconds"), "1.00 ms");
  EXPECT_EQ(format_weight(999994, "nanoseconds"), "999.99 \u00B5s");
  EXPECT_EQ(format_weight(int64_t{1} << 50, "bytes"), "1024.00 TiB");
}

TEST(Units, ExtremesDoNotOverflow) {
  EXPECT_EQ(format_weight(INT64_MAX, "bytes"), "8388608.00 TiB");
  EXPECT_EQ(format_weight(INT64_MIN, "bytes"), "-8388608.00 TiB");
  EXPECT_EQ(format_weight(INT64_MAX, "nanoseconds"), "9223372036.85 s");
}

TEST(Units, SamplesAndCountsAreIntegers) {
  EXPECT_EQ(format_weight(2530, "samples"), "2530");
  EXPECT_EQ(format_weight(2530, ""), "2530");
}

TEST(Units, SharedCases) {
  std::ifstream in(HOTLINES_SOURCE_DIR "/tests/data/units.json");
  ASSERT_TRUE(in) << "tests/data/units.json";
  nlohmann::json cases = nlohmann::json::parse(in)["cases"];
  ASSERT_GE(cases.size(), 20u);
  for (const auto &c : cases)
    EXPECT_EQ(format_weight(c[1].get<int64_t>(), c[0].get<std::string>()), c[2].get<std::string>())
        << c.dump();
}

} // namespace
