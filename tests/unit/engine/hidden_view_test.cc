// Tests for views with hidden frames (--hide) on hand-built profiles: the rebuilt stack tree
// (merges, origins, stacks that become empty), weights summed per stack then per node, with
// and without other filters, and first-on-path flags taken from the profile's tree only where
// a key is hidden whole (recursion, a hidden root, every frame hidden, keys half hidden).
#include "query_test_util.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/query_tree.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

View hiding(std::vector<std::string> hide) {
  View v;
  v.hide = std::move(hide);
  return v;
}

TEST(HiddenView, RecursionThroughAHiddenFrameMergesTheRepeats) {
  TestProfile t;
  FrameId a = t.java("p/A", "a", 1), b = t.java("p/B", "b", 2), c = t.java("p/C", "c", 3);
  t.sample("cpu", {a, b, a, b, c}, "main", 0, 1); // a a c
  t.sample("cpu", {a, b, a}, "main", 0, 2);       // a a
  t.sample("cpu", {b, a, c}, "worker", 0, 4);     // a c
  auto idx = index_of(t);
  auto w = view_of(*idx, hiding({"B.b"}));
  EXPECT_EQ(w->total, 7);
  EXPECT_EQ(w->empty, 0);
  EXPECT_EQ(w->tree->size(), 4u); // a, a>a, a>a>c, a>c
  auto m = rows_of(hot_functions(*w, {}));
  EXPECT_EQ(m.count("p.B.b"), 0u);
  EXPECT_EQ(m["p.A.a"], std::make_pair(int64_t{2}, int64_t{7})); // once per sample
  EXPECT_EQ(m["p.C.c"], std::make_pair(int64_t{5}, int64_t{5}));
  EXPECT_EQ(dump(flame_graph(*w)), "p.A.a 7/0\n"
                                   "  p.C.c 4/4\n"
                                   "  p.A.a 3/2\n"
                                   "    p.C.c 1/1\n");
  FileLines a_java = file_lines(*w, "p/A.java");
  ASSERT_EQ(a_java.lines.size(), 1u);
  EXPECT_EQ(a_java.lines[0].line, 1);
  EXPECT_EQ(a_java.lines[0].self, 2);
  EXPECT_EQ(a_java.lines[0].total, 7);
  EXPECT_EQ(a_java.total, 7);
  EXPECT_EQ(file_lines(*w, "p/B.java").total, 0);
  HotOptions a_only;
  a_only.method = "A.a";
  HotLines lines = hot_lines(*w, a_only);
  ASSERT_EQ(lines.rows.size(), 1u);
  EXPECT_EQ(lines.rows[0].function, "p.A.a");
  EXPECT_EQ(lines.rows[0].line, 1);
  EXPECT_EQ(lines.rows[0].self, 2);
  EXPECT_EQ(lines.rows[0].total, 7);
  EXPECT_EQ(hot_lines(*w, {}).rows.size(), 2u); // A.a:1 and C.c:3

  // The same through a sample pass (a thread filter besides the hiding).
  View main_only = hiding({"B.b"});
  main_only.threads.names = {"main"};
  auto f = view_of(*idx, main_only);
  EXPECT_EQ(f->total, 3);
  EXPECT_EQ(f->samples, 2u);
  auto fm = rows_of(hot_functions(*f, {}));
  EXPECT_EQ(fm["p.A.a"], std::make_pair(int64_t{2}, int64_t{3}));
  EXPECT_EQ(fm["p.C.c"], std::make_pair(int64_t{1}, int64_t{1}));
  EXPECT_EQ(dump(flame_graph(*f)), "p.A.a 3/0\n"
                                   "  p.A.a 3/2\n"
                                   "    p.C.c 1/1\n");
}

TEST(HiddenView, AHiddenRootLeavesItsChildrenAsRootsMergedWithTheirTwins) {
  TestProfile t;
  FrameId r = t.java("p/R", "r"), x = t.java("p/X", "x"), y = t.java("p/Y", "y");
  t.sample("cpu", {r, x, y}, "main", 0, 1);
  t.sample("cpu", {x, y}, "main", 0, 2);
  t.sample("cpu", {r, y}, "main", 0, 4);
  t.sample("cpu", {r}, "main", 0, 8); // all hidden: an empty stack
  auto idx = index_of(t);
  auto w = view_of(*idx, hiding({"R.r"}));
  EXPECT_EQ(w->total, 15);
  EXPECT_EQ(w->empty, 8);
  EXPECT_EQ(w->samples, 4u);
  // Stacks in creation order: r, r>x, r>x>y, x, x>y, r>y.
  const StackTree &tree = *w->tree;
  ASSERT_EQ(tree.size(), 3u); // x, x>y, y
  EXPECT_EQ(tree.node_of_stack(0), kNoNode);
  EXPECT_EQ(tree.node_of_stack(1), tree.node_of_stack(3)); // x under r joins the root x
  EXPECT_EQ(tree.node_of_stack(2), tree.node_of_stack(4));
  EXPECT_EQ(tree.origin(tree.node_of_stack(3)), 1u); // the first stack of the node
  EXPECT_EQ(tree.origin(tree.node_of_stack(5)), 5u);
  EXPECT_EQ(tree.parent(tree.node_of_stack(5)), kNoNode);
  auto m = rows_of(hot_functions(*w, {}));
  EXPECT_EQ(m.count("p.R.r"), 0u);
  EXPECT_EQ(m["p.X.x"], std::make_pair(int64_t{0}, int64_t{3}));
  EXPECT_EQ(m["p.Y.y"], std::make_pair(int64_t{7}, int64_t{7}));
  CallTree fg = flame_graph(*w);
  EXPECT_EQ(dump(fg), "p.Y.y 4/4\n"
                      "p.X.x 3/0\n"
                      "  p.Y.y 3/3\n");
  EXPECT_EQ(fg.top_total, 7);
  std::vector<TreeNode> path = hottest_path(*w, {});
  ASSERT_EQ(path.size(), 1u);
  EXPECT_EQ(w->functions().label(path[0].function_key), "p.Y.y");
  EXPECT_EQ(path[0].total, 4);
}

TEST(HiddenView, HidingEveryFrameLeavesOnlyEmptyStacks) {
  TestProfile t;
  FrameId a = t.java("p/A", "a", 1), b = t.java("p/B", "b", 2);
  t.sample("cpu", {a, b}, "main", 0, 3);
  t.sample("cpu", {b, a, b}, "main", 0, 5);
  t.sample("cpu", {a}, "worker", 0, 7);
  auto idx = index_of(t);
  for (View v : {hiding({"p.A.a", "p.B.b"}), hiding({"."})}) {
    auto w = view_of(*idx, v);
    EXPECT_EQ(w->total, 15);
    EXPECT_EQ(w->empty, 15);
    EXPECT_EQ(w->samples, 3u);
    EXPECT_EQ(w->tree->size(), 0u);
    HotFunctions h = hot_functions(*w, {});
    EXPECT_EQ(h.view_total, 15);
    EXPECT_TRUE(h.rows.empty());
    CallTree fg = flame_graph(*w);
    EXPECT_TRUE(fg.nodes.empty());
    EXPECT_EQ(fg.top_total, 0);
    EXPECT_TRUE(hottest_path(*w, {}).empty());
    EXPECT_EQ(file_lines(*w, "p/A.java").total, 0);
    EXPECT_TRUE(hot_lines(*w, {}).rows.empty());
  }
  // With a thread filter, through the sample pass.
  View v = hiding({"."});
  v.threads.names = {"worker"};
  auto w = view_of(*idx, v);
  EXPECT_EQ(w->total, 7);
  EXPECT_EQ(w->empty, 7);
  EXPECT_EQ(w->samples, 1u);
}

TEST(HiddenView, IncludeAndExcludeSeeTheHiddenFrames) {
  TestProfile t;
  FrameId app = t.java("p/App", "run"), proxy = t.java("fw/Proxy", "invoke"),
          work = t.java("p/App", "work");
  t.sample("cpu", {app, proxy, work}, "main", 0, 1);
  t.sample("cpu", {app, work}, "main", 0, 2);
  t.sample("cpu", {proxy}, "main", 0, 4); // empty once hidden, but it passes the include
  auto idx = index_of(t);
  View v = hiding({"fw."});
  v.include = {"Proxy"};
  auto w = view_of(*idx, v);
  EXPECT_EQ(w->total, 5);
  EXPECT_EQ(w->empty, 4);
  auto m = rows_of(hot_functions(*w, {}));
  EXPECT_EQ(m["p.App.run"], std::make_pair(int64_t{0}, int64_t{1}));
  EXPECT_EQ(m["p.App.work"], std::make_pair(int64_t{1}, int64_t{1}));
  v.include.clear();
  v.exclude = {"Proxy"};
  w = view_of(*idx, v);
  EXPECT_EQ(w->total, 2);
  EXPECT_EQ(w->empty, 0);
  EXPECT_EQ(rows_of(hot_functions(*w, {}))["p.App.run"], std::make_pair(int64_t{0}, int64_t{2}));
}

// A key whose frames are partly hidden: the profile tree's flags would see the hidden frame
// above, so the view's own tree decides.
TEST(HiddenView, KeysHiddenInPartCountTheirShownFramesOnce) {
  TestProfile t;
  // Two functions with one fqn label: `p.A.b(I)V` by name, and `p.A.b` + descriptor `(I)V`.
  FrameId named = t.java("p/A", "b(I)V", 4), described = t.java_desc("p/A", "b", "p/A.b(I)V", 5);
  FrameId m = t.java("p/M", "main", 1);
  t.sample("cpu", {m, named, described}, "main", 0, 3);
  auto idx = index_of(t);
  View fqn = hiding({"A\\.b\\(I\\)V"}); // a regex: the first function's display name only
  fqn.grouping = FunctionGrouping::fqn;
  auto w = view_of(*idx, fqn);
  auto rows = rows_of(hot_functions(*w, {}));
  EXPECT_EQ(rows["p.A.b(I)V"], std::make_pair(int64_t{3}, int64_t{3}));
  EXPECT_EQ(rows["p.M.main"], std::make_pair(int64_t{0}, int64_t{3}));
  HotLines lines = hot_lines(*w, {});
  ASSERT_EQ(lines.rows.size(), 2u);
  EXPECT_EQ(lines.rows[0].function, "p.A.b(I)V");
  EXPECT_EQ(lines.rows[0].line, 5);
  EXPECT_EQ(lines.rows[0].self, 3);
  EXPECT_EQ(lines.rows[0].total, 3);

  // A file with a hidden method and a shown one, hidden one above the shown one.
  TestProfile u;
  FrameId helper = u.java("p/A", "helper", 9), run = u.java("p/A", "run", 7),
          work = u.java("p/W", "work", 2);
  u.sample("cpu", {helper, run, work}, "main", 0, 5);
  u.sample("cpu", {run, helper}, "main", 0, 1);
  auto uidx = index_of(u);
  auto h = view_of(*uidx, hiding({"A.helper"}));
  FileLines a = file_lines(*h, "p/A.java");
  EXPECT_EQ(a.total, 6);
  EXPECT_EQ(a.self, 1);
  ASSERT_EQ(a.lines.size(), 1u);
  EXPECT_EQ(a.lines[0].line, 7);
  EXPECT_EQ(a.lines[0].total, 6);
  EXPECT_EQ(a.lines[0].self, 1);
  std::vector<RecordedFile> files = recorded_files(*h);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].file, "p/A.java");
  EXPECT_EQ(files[0].total, 6);
}

} // namespace
