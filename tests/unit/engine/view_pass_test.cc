// Tests for the 4-byte accumulation of weigh_samples (view_pass.h): when weights_fit_32 lets a
// pass sum in 32 bits, and views at the edge of it read back exactly — narrow at a total of
// 2^32 - 1, wide at 2^32 — unfiltered, through a sample pass, with hidden frames, and split
// between worker threads.
#include "query_test_util.h"
#include "server/engine/view_pass.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

constexpr int64_t kFit = int64_t{UINT32_MAX}; // the largest total held in 4 bytes

Event event_of(std::vector<int64_t> counts, std::vector<int64_t> values) {
  Event e;
  for (size_t i = 0; i < std::max(counts.size(), values.size()); i++) e.samples.stack.push_back(0);
  for (int64_t c : counts) {
    e.samples.count.push_back(c);
    e.total_count += c;
  }
  if (counts.empty()) e.total_count = static_cast<int64_t>(values.size());
  for (int64_t v : values) {
    e.samples.value.push_back(v);
    e.total_value += v;
  }
  if (values.empty()) e.total_value = e.total_count;
  return e;
}

TEST(ViewPass, WeightsFit32WhenNoneIsNegativeAndTheirTotalIsBelow2To32) {
  EXPECT_TRUE(weights_fit_32(event_of({}, {}), Measure::count));
  EXPECT_TRUE(weights_fit_32(event_of({3, kFit - 3}, {}), Measure::count));
  EXPECT_FALSE(weights_fit_32(event_of({3, kFit - 2}, {}), Measure::count));
  // Without a value column the value is the count.
  EXPECT_FALSE(weights_fit_32(event_of({3, kFit - 2}, {}), Measure::value));
  EXPECT_TRUE(weights_fit_32(event_of({}, {kFit - 1, 1}), Measure::value));
  EXPECT_FALSE(weights_fit_32(event_of({}, {kFit, 1}), Measure::value));
  // A negative value: sums of a subset can exceed the total.
  EXPECT_FALSE(weights_fit_32(event_of({}, {-5, 10}), Measure::value));
  // The count measure of the same event counts samples.
  EXPECT_TRUE(weights_fit_32(event_of({}, {-5, 10}), Measure::count));
  EXPECT_TRUE(weights_fit_32(event_of({}, {kFit, 1}), Measure::count));
}

View alloc_view(Measure m) {
  View v;
  v.event = "alloc";
  v.measure = m;
  return v;
}

// Two allocations of a > b (values given) on two threads, then the views of them.
void expect_totals(int64_t first, int64_t second, bool narrow) {
  TestProfile t;
  FrameId a = t.java("p/A", "a", 1), b = t.java("p/B", "b", 2), c = t.java("p/C", "c", 3);
  t.sample("alloc", {a, b}, "main", 0, 1, first);
  t.sample("alloc", {a, b}, "worker", 0, 1, second);
  t.sample("cpu", {c}, "main", 0, 1);
  auto idx = index_of(t);
  const int64_t sum = first + second;
  View filtered = alloc_view(Measure::value);
  filtered.threads.names = {"main", "worker"}; // every sample, through a sample pass
  View hidden = alloc_view(Measure::value);
  hidden.hide = {"B.b"};
  View hidden_filtered = filtered;
  hidden_filtered.hide = {"B.b"};
  for (const View &v : {alloc_view(Measure::value), filtered}) {
    auto w = view_of(*idx, v);
    EXPECT_EQ(w->cum().narrow(), narrow) << sum;
    EXPECT_EQ(w->total, sum);
    auto m = rows_of(hot_functions(*w, {}));
    EXPECT_EQ(m["p.A.a"], std::make_pair(int64_t{0}, sum));
    EXPECT_EQ(m["p.B.b"], std::make_pair(sum, sum));
    EXPECT_EQ(dump(flame_graph(*w)), "p.A.a " + std::to_string(sum) + "/0\n  p.B.b " +
                                         std::to_string(sum) + "/" + std::to_string(sum) + "\n");
  }
  for (const View &v : {hidden, hidden_filtered}) {
    auto w = view_of(*idx, v);
    EXPECT_EQ(w->cum().narrow(), narrow) << sum;
    EXPECT_EQ(rows_of(hot_functions(*w, {}))["p.A.a"], std::make_pair(sum, sum));
  }
  // The count measure counts the two samples, in 4 bytes.
  auto counted = view_of(*idx, alloc_view(Measure::count));
  EXPECT_TRUE(counted->cum().narrow());
  EXPECT_EQ(rows_of(hot_functions(*counted, {}))["p.B.b"], std::make_pair(int64_t{2}, int64_t{2}));
}

TEST(ViewPass, ATotalOf2To32Minus1IsHeldIn4Bytes) {
  expect_totals(int64_t{1} << 31, (int64_t{1} << 31) - 1, true);
}

TEST(ViewPass, ATotalOf2To32IsHeldIn8Bytes) {
  expect_totals(int64_t{1} << 31, int64_t{1} << 31, false);
}

TEST(ViewPass, WorkersSumIn4BytesUpToTheEdge) {
  // 200,000 samples (two workers) of 21,000 bytes: 4.2 G in all, under 2^32.
  TestProfile t;
  FrameId root = t.java("p/Root", "run", 1);
  std::vector<FrameId> leaves;
  for (int i = 0; i < 50; i++) leaves.push_back(t.java("p/L" + std::to_string(i), "f", 2));
  constexpr int kSamples = 200000;
  for (int i = 0; i < kSamples; i++)
    t.sample("alloc", {root, leaves[i % 50]}, i % 2 ? "main" : "worker", i, 1, 21000);
  auto idx = index_of(t);
  View some = alloc_view(Measure::value);
  some.threads.names = {"main"}; // half the samples, through the pass
  for (const auto &[v, share] : {std::pair{alloc_view(Measure::value), 1}, {some, 2}}) {
    auto w = view_of(*idx, v);
    EXPECT_TRUE(w->cum().narrow());
    auto m = rows_of(hot_functions(*w, {}));
    EXPECT_EQ(m["p.Root.run"].second, int64_t{21000} * kSamples / share);
    // Leaf 1's samples are all odd: on main.
    const int64_t leaf = int64_t{21000} * kSamples / 50;
    EXPECT_EQ(m["p.L1.f"], std::make_pair(leaf, leaf));
    EXPECT_EQ(m.count("p.L2.f"), share == 1 ? 1u : 0u);
  }
}

} // namespace
