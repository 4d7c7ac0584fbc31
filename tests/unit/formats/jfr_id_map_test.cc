// JfrIdMap: values found by key across growths, the all-ones key (the empty slot's marker) kept
// aside, insert() of a present key keeping the first value, and clear() emptying the map (that
// key included) so that it fills again with new values.
#include "formats/jfr_id_map.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace hotlines {
namespace {

TEST(JfrIdMap, FindsWhatWasInsertedAcrossGrowths) {
  JfrIdMap<uint32_t> m;
  const uint64_t n = 300000; // 2^19 slots: a slot array of 8 MiB
  for (uint64_t k = 0; k < n; k++) {
    const auto [v, added] = m.insert(k * 7919, static_cast<uint32_t>(k));
    ASSERT_TRUE(added);
    ASSERT_EQ(*v, k);
  }
  EXPECT_EQ(m.insert(UINT64_MAX, 42).second, true);
  EXPECT_EQ(m.size(), n + 1);
  for (uint64_t k = 0; k < n; k++) ASSERT_EQ(*m.find(k * 7919), k);
  EXPECT_EQ(m.find(7918), nullptr);
  EXPECT_EQ(*m.find(UINT64_MAX), 42u);
  const auto [v, added] = m.insert(7919, 5);
  EXPECT_FALSE(added);
  EXPECT_EQ(*v, 1u);
}

TEST(JfrIdMap, ClearEmptiesItAndItFillsAgain) {
  JfrIdMap<uint32_t> m;
  for (uint64_t k = 0; k < 5000; k++) m.insert(k, static_cast<uint32_t>(k));
  m.insert(UINT64_MAX, 1);
  m.clear();
  EXPECT_EQ(m.size(), 0u);
  for (uint64_t k = 0; k < 5000; k++) ASSERT_EQ(m.find(k), nullptr) << k;
  EXPECT_EQ(m.find(UINT64_MAX), nullptr);
  for (uint64_t k = 0; k < 8000; k++)
    ASSERT_TRUE(m.insert(k + 3, static_cast<uint32_t>(k + 100)).second);
  EXPECT_EQ(m.size(), 8000u);
  for (uint64_t k = 0; k < 8000; k++) ASSERT_EQ(*m.find(k + 3), k + 100);
  EXPECT_EQ(m.find(0), nullptr);
  JfrIdMap<uint32_t> empty;
  empty.clear(); // no slots yet
  EXPECT_EQ(empty.find(1), nullptr);
  EXPECT_TRUE(empty.insert(1, 9).second);
  EXPECT_EQ(*empty.find(1), 9u);
}

} // namespace
} // namespace hotlines
