// Tests for diffs: two profiles (new, gone, changed, same), two windows of one profile, and
// per-line diffs of a file.
#include "query_test_util.h"
#include "server/engine/query_diff.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

const DiffRow *find(const Diff &d, std::string_view name, int32_t line = 0) {
  for (const DiffRow &r : d.rows)
    if (r.name == name && r.line == line) return &r;
  return nullptr;
}

TEST(QueryDiff, TwoProfiles) {
  TestProfile before, after;
  for (TestProfile *t : {&before, &after}) {
    FrameId run = t->java("p/Main", "run", 3), calc = t->java("p/Calc", "calc", 10);
    bool is_after = t == &after;
    t->sample("cpu", {run, calc}, "main", 0, is_after ? 6 : 5);
    t->sample("cpu", {run}, "main", 0, is_after ? 2 : 3);
    if (is_after)
      t->sample("cpu", {run, t->java("p/New", "fresh", 1)}, "main", 0, 2);
    else
      t->sample("cpu", {run, t->java("p/Old", "stale", 1)}, "main", 0, 2);
  }
  auto bi = index_of(before), ai = index_of(after);
  Diff d = diff_functions(*view_of(*bi), *view_of(*ai), {});
  EXPECT_EQ(d.before_total, 10);
  EXPECT_EQ(d.after_total, 10);
  ASSERT_EQ(d.rows.size(), 4u);
  // |delta| 20 for new and gone (ties by name), then 10 for run and calc.
  EXPECT_EQ(d.rows[0].name, "p.New.fresh");
  EXPECT_EQ(d.rows[0].status, DiffStatus::added);
  EXPECT_DOUBLE_EQ(d.rows[0].delta_pct, 20);
  EXPECT_EQ(d.rows[1].name, "p.Old.stale");
  EXPECT_EQ(d.rows[1].status, DiffStatus::removed);
  const DiffRow *calc = find(d, "p.Calc.calc");
  ASSERT_NE(calc, nullptr);
  EXPECT_DOUBLE_EQ(calc->before_pct, 50);
  EXPECT_DOUBLE_EQ(calc->after_pct, 60);
  EXPECT_EQ(calc->status, DiffStatus::changed);
  DiffOptions o;
  o.min_delta = 15;
  EXPECT_EQ(diff_functions(*view_of(*bi), *view_of(*ai), o).rows.size(), 2u);
  o = {};
  o.measure = SortBy::total;
  d = diff_functions(*view_of(*bi), *view_of(*ai), o);
  const DiffRow *run = find(d, "p.Main.run");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->status, DiffStatus::same);
  EXPECT_EQ(diff_status_name(DiffStatus::added), "new");
  EXPECT_EQ(diff_status_name(DiffStatus::removed), "gone");

  Diff lines = diff_lines(*view_of(*bi), *view_of(*ai), "p/Calc.java", {});
  ASSERT_EQ(lines.rows.size(), 1u);
  EXPECT_EQ(lines.rows[0].line, 10);
  EXPECT_EQ(lines.rows[0].before, 5);
  EXPECT_EQ(lines.rows[0].after, 6);
}

TEST(QueryDiff, TwoWindowsOfOneProfile) {
  TestProfile t;
  FrameId a = t.java("p/A", "a"), b = t.java("p/B", "b");
  for (int i = 0; i < 10; i++) t.sample("cpu", {i < 5 ? a : b}, "main", i * 100);
  t.sample("cpu", {a}, "main", 900);
  auto idx = index_of(t);
  View first, second;
  first.to_ns = 500;
  second.from_ns = 500;
  Diff d = diff_functions(*view_of(*idx, first), *view_of(*idx, second), {});
  EXPECT_EQ(d.before_total, 5);
  EXPECT_EQ(d.after_total, 6);
  const DiffRow *b_row = find(d, "p.B.b");
  ASSERT_NE(b_row, nullptr);
  EXPECT_EQ(b_row->status, DiffStatus::added);
  EXPECT_EQ(b_row->after, 5);
}

} // namespace
