// Tests for IdTable: ids found by hash and key through growth from empty to hundreds of
// thousands, equal hashes told apart by the caller's compare, add_new and reserve, clear.
#include "formats/id_table.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_set>
#include <vector>

using namespace hotlines;

TEST(IdTable, FindsEveryIdThroughGrowthAndNoOther) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> keys; // id -> key
  IdTable t;
  EXPECT_EQ(t.find(mix64(1), [](uint32_t) { return true; }), IdTable::kNone);
  for (int i = 0; i < 300000; i++) {
    // Every fourth key repeats an earlier one: insert returns the first id.
    const uint64_t key = i % 4 == 3 ? keys[rng() % keys.size()] : rng();
    const auto same = [&](uint32_t id) { return keys[id] == key; };
    const uint32_t next = static_cast<uint32_t>(keys.size());
    const auto [id, added] = t.insert(mix64(key), next, same);
    if (added) {
      ASSERT_EQ(id, next);
      keys.push_back(key);
    } else {
      ASSERT_EQ(keys[id], key);
    }
  }
  EXPECT_EQ(t.size(), keys.size());
  for (uint32_t id = 0; id < keys.size(); id++)
    ASSERT_EQ(t.find(mix64(keys[id]), [&](uint32_t x) { return keys[x] == keys[id]; }), id);
  const std::unordered_set<uint64_t> known(keys.begin(), keys.end());
  for (int i = 0; i < 1000; i++) {
    const uint64_t absent = rng();
    if (known.count(absent)) continue;
    EXPECT_EQ(t.find(mix64(absent), [&](uint32_t x) { return keys[x] == absent; }), IdTable::kNone);
  }
  t.clear();
  EXPECT_EQ(t.size(), 0u);
  EXPECT_EQ(t.find(mix64(keys[0]), [](uint32_t) { return true; }), IdTable::kNone);
}

TEST(IdTable, EqualHashesAreToldApartByTheKeys) {
  // Every key has the same hash: one probe sequence, the caller's compare decides.
  IdTable t;
  for (uint32_t k = 0; k < 2000; k++) {
    const auto [id, added] = t.insert(42, k, [&](uint32_t x) { return x == k; });
    ASSERT_TRUE(added);
    ASSERT_EQ(id, k);
  }
  for (uint32_t k = 0; k < 2000; k++) ASSERT_EQ(t.find(42, [&](uint32_t x) { return x == k; }), k);
  EXPECT_EQ(t.find(42, [](uint32_t) { return false; }), IdTable::kNone);
  EXPECT_FALSE(t.insert(42, 5000, [](uint32_t x) { return x == 1999; }).second);
}

TEST(IdTable, AddNewAndReserve) {
  IdTable t;
  t.reserve(100000);
  for (uint32_t id = 0; id < 100000; id++) t.add_new(mix64(id), id);
  EXPECT_EQ(t.size(), 100000u);
  for (uint32_t id = 0; id < 100000; id += 997)
    EXPECT_EQ(t.find(mix64(id), [&](uint32_t x) { return x == id; }), id);
  EXPECT_EQ(t.find(mix64(100000), [](uint32_t x) { return x == 100000; }), IdTable::kNone);
}
