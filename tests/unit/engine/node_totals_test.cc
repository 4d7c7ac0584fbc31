// Tests for NodeTotals (node_totals.h): totals in 4 bytes or in 8 read back exactly, up to
// UINT32_MAX narrow and across the whole int64 range wide.
#include "server/engine/node_totals.h"

#include <gtest/gtest.h>

using namespace hotlines;

namespace {

TEST(NodeTotals, NarrowTotalsReadBackExactly) {
  std::vector<uint32_t> narrow(300000);
  for (size_t i = 0; i < narrow.size(); i++) narrow[i] = static_cast<uint32_t>(i * 14311);
  narrow[7] = UINT32_MAX;
  const std::vector<uint32_t> want = narrow;
  const NodeTotals t(std::move(narrow));
  EXPECT_TRUE(t.narrow());
  ASSERT_EQ(t.size(), want.size());
  for (size_t i = 0; i < want.size(); i++) ASSERT_EQ(t[i], int64_t{want[i]}) << i;
  EXPECT_EQ(t[7], int64_t{UINT32_MAX});
}

TEST(NodeTotals, WideTotalsReadBackExactly) {
  const std::vector<int64_t> want = {-1, 0, int64_t{UINT32_MAX} + 1, INT64_MAX, INT64_MIN};
  const NodeTotals t{std::vector<int64_t>(want)};
  EXPECT_FALSE(t.narrow());
  ASSERT_EQ(t.size(), want.size());
  for (size_t i = 0; i < want.size(); i++) EXPECT_EQ(t[i], want[i]) << i;
  EXPECT_EQ(NodeTotals{std::vector<int64_t>()}.size(), 0u);
  EXPECT_EQ(NodeTotals{std::vector<uint32_t>()}.size(), 0u);
  EXPECT_EQ(NodeTotals().size(), 0u);
}

} // namespace
