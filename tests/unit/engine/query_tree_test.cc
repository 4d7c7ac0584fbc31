// Tests for call trees, callers, callees of a line, hottest path and flame graphs on
// hand-built profiles: recursion, ordering, depth and pct limits, stable ids, frames.
#include "query_test_util.h"
#include "server/engine/query_tree.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <string>
#include <vector>

using namespace hotlines;
using namespace hotlines::test;

namespace {

struct Fixture {
  TestProfile t;
  FrameId main, run, calc10, calc11, work, sleep;
  std::shared_ptr<const ProfileIndex> idx;
  Fixture() {
    main = t.java("p/Main", "main", 5);
    run = t.java("p/Main", "run", 8);
    calc10 = t.java("p/Calc", "calc", 10);
    calc11 = t.java("p/Calc", "calc", 11);
    work = t.java("p/Work", "work", 20);
    sleep = t.java("java/lang/Thread", "sleep", 0);
    t.sample("cpu", {main, run, calc10}, "main", 0, 4);
    t.sample("cpu", {main, run, calc11, work}, "main", 0, 2);
    t.sample("cpu", {main, calc10, calc11}, "main", 0, 1); // recursion calc -> calc
    t.sample("cpu", {main, work}, "worker-1", 0, 3);
    t.sample("cpu", {main, sleep}, "worker-2", 0, 1);
    idx = index_of(t);
  }
};

TEST(QueryTree, CalleeTreeFromRootsIsSortedAndRecursionSafe) {
  Fixture f;
  CallTree t = call_tree(*view_of(*f.idx), {});
  EXPECT_EQ(dump(t), "p.Main.main 11/0\n"
                     "  p.Main.run 6/0\n"
                     "    p.Calc.calc 6/4\n"
                     "      p.Work.work 2/2\n"
                     "  p.Work.work 3/3\n"
                     "  java.lang.Thread.sleep 1/1\n" // ties by name
                     "  p.Calc.calc 1/0\n"
                     "    p.Calc.calc 1/1\n");
  EXPECT_EQ(t.top_total, 11);
  EXPECT_EQ(t.nodes[0].first_child, 1u);
  EXPECT_EQ(t.nodes[1].next_sibling, 4u);
}

TEST(QueryTree, CalleesOfAFunctionMergeOutermostOccurrences) {
  Fixture f;
  TreeOptions o;
  o.method = "Calc.calc";
  CallTree t = call_tree(*view_of(*f.idx), o);
  EXPECT_TRUE(t.anchor_found);
  EXPECT_EQ(dump(t), "p.Calc.calc 7/4\n"
                     "  p.Work.work 2/2\n"
                     "  p.Calc.calc 1/1\n");
  o.lines = true;
  t = call_tree(*view_of(*f.idx), o);
  ASSERT_EQ(t.nodes.size(), 4u);
  EXPECT_EQ(t.nodes[0].line, 10);
  EXPECT_EQ(t.nodes[0].total, 5);
  EXPECT_EQ(t.nodes[2].line, 11);
  EXPECT_EQ(t.nodes[2].total, 2);
}

TEST(QueryTree, CallersOfAFunctionAndOfALine) {
  Fixture f;
  TreeOptions o;
  o.direction = TreeDirection::callers;
  o.method = "p.Work.work";
  CallTree t = call_tree(*view_of(*f.idx), o);
  EXPECT_EQ(dump(t), "p.Work.work 5/5\n"
                     "  p.Main.main 3/0\n"
                     "  p.Calc.calc 2/0\n"
                     "    p.Main.run 2/0\n"
                     "      p.Main.main 2/0\n");
  o.max_depth = 2;
  EXPECT_EQ(call_tree(*view_of(*f.idx), o).nodes.size(), 3u);
  TreeOptions line;
  line.direction = TreeDirection::callers;
  line.file = "p/Calc.java";
  line.line = 11;
  t = call_tree(*view_of(*f.idx), line);
  EXPECT_EQ(dump(t), "p.Calc.calc 3/1\n"
                     "  p.Main.run 2/0\n"
                     "    p.Main.main 2/0\n"
                     "  p.Calc.calc 1/0\n"
                     "    p.Main.main 1/0\n");
  TreeOptions callees = line;
  callees.direction = TreeDirection::callees;
  EXPECT_EQ(dump(call_tree(*view_of(*f.idx), callees)), "p.Calc.calc 3/1\n"
                                                        "  p.Work.work 2/2\n");
  TreeOptions none = o;
  none.method = "Nope";
  t = call_tree(*view_of(*f.idx), none);
  EXPECT_TRUE(t.anchored);
  EXPECT_FALSE(t.anchor_found);
  EXPECT_TRUE(t.nodes.empty());
}

TEST(QueryTree, HottestPathFollowsHeaviestChild) {
  Fixture f;
  auto v = view_of(*f.idx);
  std::vector<TreeNode> path = hottest_path(*v, {});
  auto name = [&](const TreeNode &n) { return label_of(*v, n); };
  ASSERT_EQ(path.size(), 4u);
  EXPECT_EQ(name(path[0]), "p.Main.main");
  EXPECT_EQ(name(path[1]), "p.Main.run");
  EXPECT_EQ(name(path[2]), "p.Calc.calc");
  EXPECT_EQ(path[2].parent, 1u);
  EXPECT_EQ(name(path[3]), "p.Work.work");
  TreeOptions o;
  o.method = "Main.run";
  path = hottest_path(*view_of(*f.idx), o);
  ASSERT_EQ(path.size(), 3u);
  EXPECT_EQ(path[1].total, 6);
}

// Mixed-sign values (pprof diff profiles): a stack node whose subtree weighs 0 is not in the
// tree, nor is anything under it, whichever way the hottest path is found (from the index's
// callee shape for name grouping, from a merged tree for fqn grouping).
TEST(QueryTree, HottestPathSkipsSubtreesThatWeighNothing) {
  ProfileBuilder b;
  auto frame = [&](const char *name, int line) {
    Function fn;
    fn.name = b.intern(name);
    return b.frame(Frame{b.function(fn), line, -1, FrameKind::unknown});
  };
  FrameId r = frame("r", 1), a1 = frame("a", 1), a2 = frame("a", 2), x = frame("x", 1),
          z = frame("z", 1);
  EventId e = b.event("delta", "bytes");
  ThreadId th = b.thread("main", 1);
  auto sample = [&](std::vector<FrameId> frames, int64_t value) {
    b.add_sample(e, b.stack_from_root(frames), th, 0, 1, value);
  };
  sample({r, a1, x}, 5);
  sample({r, a1}, -5); // a at line 1 weighs 0 with x under it
  sample({r, a2}, 1);
  sample({r, a2, z}, 1);
  auto idx = ProfileIndex::build(std::shared_ptr<const Profile>(b.finish()));
  std::vector<uint64_t> ids;
  for (FunctionGrouping g : {FunctionGrouping::name, FunctionGrouping::fqn}) {
    View v;
    v.grouping = g;
    auto w = view_of(*idx, v);
    std::vector<TreeNode> path = hottest_path(*w, {});
    auto name = [&](const TreeNode &n) { return label_of(*w, n); };
    ASSERT_EQ(path.size(), 3u);
    EXPECT_EQ(name(path[0]), "r");
    EXPECT_EQ(path[0].total, 2);
    EXPECT_EQ(name(path[1]), "a");
    EXPECT_EQ(path[1].total, 2);
    EXPECT_EQ(path[1].self, 1);
    EXPECT_EQ(path[1].frame, a2);
    EXPECT_EQ(name(path[2]), "z");
    EXPECT_EQ(path[2].total, 1);
    std::vector<uint64_t> got;
    for (const TreeNode &n : path) got.push_back(n.id);
    if (ids.empty()) ids = got;
    EXPECT_EQ(got, ids);
  }
}

TEST(QueryTree, FlameGraphIdsAreStableAcrossViewsAndCarryFrames) {
  Fixture f;
  CallTree all = flame_graph(*view_of(*f.idx));
  View only_main;
  only_main.threads.names = {"main"};
  CallTree some = flame_graph(*view_of(*f.idx, only_main));
  std::map<std::string, uint64_t> ids;
  std::function<std::string(const CallTree &, uint32_t)> path = [&](const CallTree &t, uint32_t i) {
    return (t.nodes[i].parent == kNoNode ? "" : path(t, t.nodes[i].parent) + ";") +
           std::string(t.name(t.nodes[i]));
  };
  std::set<uint64_t> unique;
  for (uint32_t i = 0; i < all.nodes.size(); i++) {
    ids[path(all, i)] = all.nodes[i].id;
    unique.insert(all.nodes[i].id);
    EXPECT_LT(all.nodes[i].id, 1ull << 53);
  }
  EXPECT_EQ(unique.size(), all.nodes.size());
  for (uint32_t i = 0; i < some.nodes.size(); i++) EXPECT_EQ(some.nodes[i].id, ids[path(some, i)]);
  // The node p.Main.run > p.Calc.calc merges lines 10 (weight 4) and 11 (weight 2): the
  // frame is the heavier one.
  const Profile &p = f.idx->profile();
  EXPECT_EQ(all.name(all.nodes[2]), "p.Calc.calc");
  EXPECT_EQ(p.frames[all.nodes[2].frame].line, 10);
  EXPECT_EQ(all.nodes[2].line, 10);
}

TEST(QueryTree, MinPctAndMaxNodesPrune) {
  Fixture f;
  TreeOptions o;
  o.min_pct = 20; // 11 total: keeps >= 2.2
  CallTree t = call_tree(*view_of(*f.idx), o);
  EXPECT_EQ(dump(t), "p.Main.main 11/0\n"
                     "  p.Main.run 6/0\n"
                     "    p.Calc.calc 6/4\n"
                     "  p.Work.work 3/3\n");
  o = {};
  o.max_nodes = 2;
  EXPECT_EQ(call_tree(*view_of(*f.idx), o).nodes.size(), 2u);
  o = {};
  o.max_depth = 1;
  EXPECT_EQ(call_tree(*view_of(*f.idx), o).nodes.size(), 1u);
}

// A flame graph of 143,434 nodes, more than a query splits between two workers (its weights
// are gathered per node range on each): every node's total and self equal sums over the
// samples by path, and a cancelled query returns no node.
TEST(QueryTree, ALargeFlameGraphEqualsSumsByPath) {
  TestProfile t;
  std::vector<FrameId> fn;
  for (int i = 0; i < 100; i++) fn.push_back(t.native("f" + std::to_string(i)));
  const FrameId root = t.native("root");
  std::map<std::string, std::pair<int64_t, int64_t>> want; // path -> total, self
  for (int i = 0; i < 200000; i++) {
    const int k[3] = {i % 100, i / 100 % 100, i / 10000};
    const int64_t w = i % 7 + 1;
    std::vector<FrameId> frames = {root};
    std::string path = "root";
    want[path].first += w;
    for (int d = 0; d < (i % 3 == 0 ? 2 : 3); d++) { // a third of the stacks end a level up
      frames.push_back(fn[k[d]]);
      path += ";f" + std::to_string(k[d]);
      want[path].first += w;
    }
    want[path].second += w;
    t.sample("cpu", frames, "main", 0, w);
  }
  auto idx = index_of(t);
  auto v = view_of(*idx);
  CallTree g = flame_graph(*v);
  ASSERT_EQ(want.size(), 143434u); // 1 + 100 + 100 * 100 + two thirds of 200,000
  ASSERT_EQ(g.nodes.size(), want.size());
  std::vector<std::string> paths(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); i++) {
    const TreeNode &n = g.nodes[i];
    paths[i] = (n.parent == kNoNode ? "" : paths[n.parent] + ";") + std::string(g.name(n));
    auto it = want.find(paths[i]);
    ASSERT_NE(it, want.end()) << paths[i];
    EXPECT_EQ(n.total, it->second.first) << paths[i];
    EXPECT_EQ(n.self, it->second.second) << paths[i];
  }
  std::atomic<bool> cancel{true};
  EXPECT_TRUE(flame_graph(*v, {}, &cancel).nodes.empty());
}

TEST(QueryTree, HiddenFramesReshapeTheTree) {
  Fixture f;
  View v;
  v.hide = {"Main.run"};
  CallTree t = call_tree(*view_of(*f.idx, v), {});
  EXPECT_EQ(dump(t), "p.Main.main 11/0\n"
                     "  p.Calc.calc 7/4\n"
                     "    p.Work.work 2/2\n"
                     "    p.Calc.calc 1/1\n"
                     "  p.Work.work 3/3\n"
                     "  java.lang.Thread.sleep 1/1\n");
}

} // namespace
