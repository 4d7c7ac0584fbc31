// SparseWeights: the non-zero entries of a dense array (negative ones too), read back by
// lookup, in order, and by an ascending scan that skips nodes.
#include "server/engine/sparse_weights.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace hotlines {
namespace {

TEST(SparseWeights, KeepsTheNonZeroEntriesAndReadsThemBack) {
  std::vector<int64_t> dense(1000, 0);
  dense[0] = 5;
  dense[17] = -3;
  dense[18] = 9;
  dense[999] = 1;
  const SparseWeights w = SparseWeights::of_dense(dense);
  EXPECT_EQ(w.entries(), 4u);
  for (uint32_t n = 0; n < dense.size(); n++) ASSERT_EQ(w.at(n), dense[n]) << n;
  EXPECT_EQ(w.at(5000), 0);
  std::vector<std::pair<uint32_t, int64_t>> seen;
  w.for_each([&](uint32_t n, int64_t x) { seen.emplace_back(n, x); });
  EXPECT_EQ(seen, (std::vector<std::pair<uint32_t, int64_t>>{{0, 5}, {17, -3}, {18, 9}, {999, 1}}));
  // A scan asked for every third node, then one far past the end.
  SparseWeights::Scan scan(w);
  for (uint32_t n = 0; n < dense.size(); n += 3) ASSERT_EQ(scan(n), dense[n]) << n;
  EXPECT_EQ(scan(999), 1);
  EXPECT_EQ(scan(2000), 0);
  EXPECT_EQ(SparseWeights::of_dense(std::vector<int64_t>(10, 0)).entries(), 0u);
}

} // namespace
} // namespace hotlines
