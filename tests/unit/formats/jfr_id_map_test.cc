// JfrIdMap: values found by key across growths, the all-ones key (the empty slot's marker) kept
// aside, insert() of a present key keeping the first value, and clear() emptying the map (that
// key included) so that it fills again with new values; reserve() making room at once and
// keeping what is there.
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

TEST(JfrIdMap, ReserveMakesRoomAtOnceAndKeepsWhatIsThere) {
  JfrIdMap<uint32_t> m;
  for (uint64_t k = 0; k < 100; k++) m.insert(k * 3, static_cast<uint32_t>(k));
  const uint64_t n = 98304; // 3/4 of 2^17
  m.reserve(n);
  const size_t cap = m.capacity();
  EXPECT_EQ(cap, size_t{1} << 17);
  for (uint64_t k = 0; k < 100; k++) ASSERT_EQ(*m.find(k * 3), k);
  for (uint64_t k = 100; k < n; k++) m.insert(k * 3, static_cast<uint32_t>(k));
  EXPECT_EQ(m.capacity(), cap); // no growth on the way
  for (uint64_t k = 0; k < n; k++) ASSERT_EQ(*m.find(k * 3), k);
  m.reserve(10); // never shrinks
  EXPECT_EQ(m.capacity(), cap);
  m.insert(n * 3, 7); // one more than reserved
  EXPECT_EQ(m.capacity(), cap * 2);
  m.reserve(n + 1);
  EXPECT_EQ(m.capacity(), cap * 2);
}

} // namespace
} // namespace hotlines
