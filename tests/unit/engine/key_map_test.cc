// Tests for the sums behind every query (key_map.h): first-on-path flags against a naive walk
// up each node's path on random trees with recursion, on the profile's tree and on trees
// without hidden frames (computed, and taken from the profile's flags where keys are hidden
// whole), on one or two threads (split inside a chain too), and on a path far deeper than
// any recursion could go.
#include "query_test_util.h"
#include "server/engine/stack_tree.h"

#include <gtest/gtest.h>

#include <random>

using namespace hotlines;
using namespace hotlines::test;

namespace {

// first[n] by walking up from n.
NodeFlags naive_first(const StackTree &t, const KeyMap &keys) {
  NodeFlags first(t.size());
  for (uint32_t n = 0; n < t.size(); n++) {
    const uint32_t k = keys.of_frame[t.frame(n)];
    if (k == kNoKey) continue;
    bool above = false;
    for (uint32_t a = t.parent(n); a != kNoNode && !above; a = t.parent(a))
      above = keys.of_frame[t.frame(a)] == k;
    if (!above) first.set(n);
  }
  return first;
}

void expect_naive_on_one_and_two_threads(const StackTree &tree,
                                         std::span<const KeyMap *const> maps) {
  const std::vector<NodeFlags> one = first_on_path(tree, maps, 1),
                               two = first_on_path(tree, maps, 2);
  for (size_t m = 0; m < maps.size(); m++) {
    const NodeFlags want = naive_first(tree, *maps[m]);
    EXPECT_EQ(one[m], want) << "map " << m;
    EXPECT_EQ(two[m], want) << "map " << m;
  }
}

TEST(KeyMap, FirstOnPathMatchesANaiveWalkWithAndWithoutHiddenFrames) {
  std::mt19937 rng(5);
  TestProfile t;
  std::vector<FrameId> frames;
  for (int c = 0; c < 4; c++)
    for (int m = 0; m < 3; m++)
      for (int line = 1; line <= 2; line++)
        frames.push_back(t.java("p/C" + std::to_string(c), "m" + std::to_string(m), 10 * m + line));
  for (int i = 0; i < 400; i++) {
    std::vector<FrameId> root_first(1 + rng() % 12);
    for (FrameId &f : root_first) f = frames[rng() % (root_first.size() < 3 ? 4 : frames.size())];
    t.sample("cpu", root_first);
  }
  auto idx = index_of(t);
  const Profile &p = idx->profile();
  const KeyMap *maps[] = {&idx->functions(FunctionGrouping::name).map(), &idx->lines().lines(),
                          &idx->lines().files()};
  const NodeFlags profile_first[] = {*idx->first_functions(FunctionGrouping::name),
                                     *idx->first_lines(), *idx->first_files()};
  for (int m = 0; m < 3; m++) {
    EXPECT_EQ(first_on_path(*idx->tree(), *maps[m]), naive_first(*idx->tree(), *maps[m]));
    EXPECT_EQ(profile_first[m], naive_first(*idx->tree(), *maps[m]));
  }
  // Hiding a method (whole functions; lines and files of class C1 half hidden) and a class.
  for (const char *hide : {"C1.m1", "C2.", "m0"}) {
    std::vector<uint8_t> hidden(p.frames.size());
    for (size_t f = 0; f < p.frames.size(); f++)
      hidden[f] = p.str(p.functions[p.frames[f].function].name).find(hide) != std::string::npos;
    auto tree = StackTree::without_frames(p, hidden, nullptr);
    ASSERT_NE(tree, nullptr);
    EXPECT_LT(tree->size(), idx->tree()->size());
    const std::vector<NodeFlags> all = first_on_path(*tree, maps); // one preorder
    ASSERT_EQ(all.size(), 3u);
    for (int m = 0; m < 3; m++) {
      const NodeFlags want = naive_first(*tree, *maps[m]);
      EXPECT_EQ(first_on_path(*tree, *maps[m]), want) << hide << " map " << m;
      EXPECT_EQ(all[m], want) << hide << " map " << m;
      if (hides_whole_keys(hidden, *maps[m])) {
        EXPECT_EQ(first_on_path_from_profile(*tree, *maps[m], profile_first[m]), want)
            << hide << " map " << m;
      }
    }
    EXPECT_TRUE(hides_whole_keys(hidden, *maps[0]));
  }
  std::vector<uint8_t> c1_m1(p.frames.size());
  for (size_t f = 0; f < p.frames.size(); f++)
    c1_m1[f] = p.str(p.functions[p.frames[f].function].name) == "p.C1.m1";
  EXPECT_FALSE(hides_whole_keys(c1_m1, *maps[2])); // C1.java's other methods are shown
}

// A tree big enough to be split between threads: each range of preorder positions starts
// from the path above it, recursion included.
TEST(KeyMap, FirstOnPathIsTheSameOnOneOrTwoThreads) {
  std::mt19937 rng(11);
  TestProfile t;
  std::vector<FrameId> frames;
  for (int c = 0; c < 4; c++)
    for (int m = 0; m < 6; m++)
      frames.push_back(t.java("p/C" + std::to_string(c), "m" + std::to_string(m), m + 1));
  for (int i = 0; i < 60000; i++) {
    std::vector<FrameId> root_first(1 + rng() % 14);
    for (FrameId &f : root_first) f = frames[rng() % frames.size()];
    t.sample("cpu", root_first);
  }
  auto idx = index_of(t);
  ASSERT_GT(idx->tree()->size(), 200000u); // first_on_path splits from 100,000
  const KeyMap *maps[] = {&idx->functions(FunctionGrouping::name).map(), &idx->lines().lines(),
                          &idx->lines().files()};
  expect_naive_on_one_and_two_threads(*idx->tree(), maps);
}

// Two parts split inside a long chain: the first part's chain goes on below the node where
// the second part's first chain hangs, and its last nodes (new frames) are firsts that only
// the first part may set.
TEST(KeyMap, FirstOnPathSplitBelowANodeOfAChainThatGoesOn) {
  TestProfile t;
  const FrameId a = t.java("p/A", "a", 1), b = t.java("p/B", "b", 2), c = t.java("p/C", "c", 3);
  std::vector<FrameId> deep;
  for (int i = 0; i < 10; i++) deep.push_back(t.java("p/R", "r" + std::to_string(i), i + 1));
  while (deep.size() < 149980) deep.push_back(deep.size() % 2 ? b : a);
  for (int i = 0; i < 20; i++) deep.push_back(t.java("p/E", "e" + std::to_string(i), i + 1));
  t.sample("cpu", deep);
  for (int s = 0; s < 100; s++) { // 100 chains of 1,601 nodes below node 10
    std::vector<FrameId> branch(deep.begin(), deep.begin() + 11);
    branch.push_back(t.java("p/S", "s" + std::to_string(s), 1));
    for (int i = 0; i < 1600; i++) branch.push_back(i % 2 ? c : a);
    t.sample("cpu", branch);
  }
  auto idx = index_of(t);
  ASSERT_EQ(idx->tree()->size(), 150000u + 100 * 1601);
  const KeyMap *maps[] = {&idx->functions(FunctionGrouping::name).map(), &idx->lines().lines()};
  expect_naive_on_one_and_two_threads(*idx->tree(), maps);
  for (const KeyMap *keys : maps) EXPECT_TRUE(naive_first(*idx->tree(), *keys)[149999]); // e19
}

TEST(KeyMap, FirstOnPathOnAPathDeeperThanAnyRecursion) {
  TestProfile t;
  FrameId a = t.java("p/A", "a", 1), b = t.java("p/B", "b", 2);
  std::vector<FrameId> deep;
  for (int i = 0; i < 300000; i++) deep.push_back(i % 2 ? b : a);
  t.sample("cpu", deep, "main", 0, 3);
  t.sample("cpu", {b}, "main", 0, 4);
  auto idx = index_of(t);
  const KeyMap &keys = idx->functions(FunctionGrouping::name).map();
  const NodeFlags first = first_on_path(*idx->tree(), keys);
  ASSERT_EQ(first.size(), 300001u);
  EXPECT_TRUE(first[0]); // a at the root
  EXPECT_TRUE(first[1]); // b under it
  size_t firsts = 0;
  for (size_t n = 0; n < first.size(); n++) firsts += first[n];
  EXPECT_EQ(firsts, 3u); // and the root b of the second sample
  std::vector<uint32_t> self(first.size(), 0);
  self[299999] = 3;
  self[300000] = 4;
  SparseWeights sparse = SparseWeights::of_dense(self);
  ASSERT_EQ(sparse.entries(), 2u);
  const NodeTotals cum(subtree_weights(*idx->tree(), self));
  EXPECT_TRUE(cum.narrow());
  EXPECT_EQ(cum[0], 3); // the deep sample's root
  KeySums sums = sum_keys(*idx->tree(), sparse, cum, keys, first);
  EXPECT_EQ(sums.total[keys.of_frame[a]], 3);
  EXPECT_EQ(sums.total[keys.of_frame[b]], 7);
  EXPECT_EQ(sums.self[keys.of_frame[b]], 7);
}

} // namespace
