// Tests for StackChildren: every (parent, frame) added is found with its id through growth to
// hundreds of thousands of children, keys sharing a parent or a frame are told apart, absent
// keys are not found, clear empties it.
#include "formats/stack_children.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace hotlines;

TEST(StackChildren, FindsEveryChildThroughGrowthAndNoOther) {
  std::mt19937 rng(11);
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> want;
  StackChildren c;
  EXPECT_EQ(c.find(0, 0), StackChildren::kNone);
  uint32_t id = 0;
  while (want.size() < 300000) {
    // Few parents and frames: many keys share one or the other.
    const uint32_t parent = rng() % 2000, frame = rng() % 1000;
    if (!want.emplace(std::pair{parent, frame}, id).second) continue;
    c.add_new(parent, frame, id++);
  }
  EXPECT_EQ(c.size(), want.size());
  for (const auto &[key, v] : want) ASSERT_EQ(c.find(key.first, key.second), v);
  for (uint32_t parent = 0; parent < 2000; parent++)
    for (uint32_t frame : {1000u, 5000u, UINT32_MAX - 1})
      ASSERT_EQ(c.find(parent, frame), StackChildren::kNone);
  c.clear();
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(c.find(want.begin()->first.first, want.begin()->first.second), StackChildren::kNone);
}
