// Tests for NodeTotals (node_totals.h): totals that fit 32 bits are narrowed in place, with the
// pages past them given back; a negative total or one of 2^32 or more keeps them all wide.
#include "server/engine/node_totals.h"

#include <gtest/gtest.h>

using namespace hotlines;

namespace {

TEST(NodeTotals, NarrowsTotalsThatFitAndReadsThemBack) {
  std::vector<int64_t> wide(300000);
  for (size_t i = 0; i < wide.size(); i++) wide[i] = static_cast<int64_t>(i * 14311 % 4294967296u);
  wide[7] = UINT32_MAX;
  const std::vector<int64_t> want = wide;
  const NodeTotals t(std::move(wide));
  EXPECT_TRUE(t.narrow());
  ASSERT_EQ(t.size(), want.size());
  for (size_t i = 0; i < want.size(); i++) ASSERT_EQ(t[i], want[i]) << i;
}

TEST(NodeTotals, KeepsEveryTotalWideWhenOneDoesNotFit) {
  for (int64_t odd : {int64_t{-1}, int64_t{UINT32_MAX} + 1, INT64_MAX}) {
    std::vector<int64_t> wide(100000, 5);
    wide[99999] = odd;
    const NodeTotals t(std::move(wide));
    EXPECT_FALSE(t.narrow()) << odd;
    EXPECT_EQ(t[0], 5);
    EXPECT_EQ(t[99998], 5);
    EXPECT_EQ(t[99999], odd);
  }
  const NodeTotals empty{std::vector<int64_t>()};
  EXPECT_EQ(empty.size(), 0u);
}

} // namespace
