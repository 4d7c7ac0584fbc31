// Tests for NodeFlags (node_flags.h): packing bytes into bits across word boundaries, set(),
// and equality, which compares sizes as well as bits.
#include "server/engine/node_flags.h"

#include <gtest/gtest.h>

using namespace hotlines;

namespace {

TEST(NodeFlags, PacksBytesAcrossWordBoundaries) {
  std::vector<uint8_t> bytes(130, 0);
  for (size_t i : {0, 1, 63, 64, 100, 127, 128, 129}) bytes[i] = i == 100 ? 7 : 1; // any non-zero
  const NodeFlags f = NodeFlags::of_bytes(bytes);
  ASSERT_EQ(f.size(), 130u);
  size_t set = 0;
  for (size_t i = 0; i < f.size(); i++) {
    EXPECT_EQ(f[i], bytes[i] != 0) << i;
    set += f[i];
  }
  EXPECT_EQ(set, 8u);

  NodeFlags g(130);
  EXPECT_FALSE(g == f);
  for (size_t i = 0; i < bytes.size(); i++)
    if (bytes[i]) g.set(i);
  EXPECT_TRUE(g == f);
  EXPECT_FALSE(NodeFlags(129) == NodeFlags(130)); // same words, other sizes
  EXPECT_TRUE(NodeFlags::of_bytes({}) == NodeFlags());
}

} // namespace
