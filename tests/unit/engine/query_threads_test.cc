// Tests for thread weights (grouping, filters), events, and the timeline (buckets, hot
// function per bucket, peaks, compare event, windows, missing timestamps).
#include "query_test_util.h"
#include "server/engine/query_events.h"
#include "server/engine/query_threads.h"
#include "server/engine/query_timeline.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

TEST(QueryThreads, GroupNames) {
  EXPECT_EQ(thread_group_name("pool-1-thread-7"), "pool-1-thread-*");
  EXPECT_EQ(thread_group_name("worker-0"), "worker-*");
  EXPECT_EQ(thread_group_name("GC Thread#3"), "GC Thread#*");
  EXPECT_EQ(thread_group_name("main"), "main");
  EXPECT_EQ(thread_group_name("C2 CompilerThre"), "C2 CompilerThre");
  EXPECT_EQ(thread_group_name("42"), "42");
}

TEST(QueryThreads, WeightsGroupedAndFiltered) {
  TestProfile t;
  FrameId a = t.java("p/A", "a"), b = t.java("p/B", "b");
  t.sample("cpu", {a}, "pool-1-thread-1", 0, 2, -1, 11);
  t.sample("cpu", {b}, "pool-1-thread-2", 0, 3, -1, 12);
  t.sample("cpu", {a}, "main", 0, 4, -1, 1);
  t.sample("cpu", {b}, "lonely-7", 0, 1, -1, 13);
  auto idx = index_of(t);
  ThreadsResult r = thread_weights(*idx, {}, false);
  ASSERT_TRUE(r.error.empty());
  ASSERT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(r.rows[0].name, "main");
  EXPECT_EQ(r.rows[0].os_tid, 1);
  EXPECT_EQ(r.rows[3].name, "lonely-7");
  r = thread_weights(*idx, {}, true);
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[0].name, "pool-1-thread-*");
  EXPECT_EQ(r.rows[0].weight, 5);
  EXPECT_EQ(r.rows[0].members.size(), 2u);
  EXPECT_EQ(r.rows[2].name, "lonely-7"); // a group of one keeps its name
  View v;
  v.include = {"B.b"};
  r = thread_weights(*idx, v, false);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.view_total, 4);
  View bad;
  bad.event = "wall";
  EXPECT_FALSE(thread_weights(*idx, bad, false).error.empty());
}

TEST(QueryEvents, ListsEventsWithTotals) {
  TestProfile t;
  FrameId a = t.java("p/A", "a");
  t.sample("cpu", {a}, "main", 5);
  t.sample("alloc", {a}, "main", 6, 1, 4096);
  t.sample("alloc", {a}, "main", 7, 1, 100);
  auto idx = index_of(t);
  auto ev = list_events(idx->profile());
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].name, "cpu");
  EXPECT_TRUE(ev[0].is_default);
  EXPECT_EQ(ev[1].name, "alloc");
  EXPECT_EQ(ev[1].unit, "bytes");
  EXPECT_EQ(ev[1].count, 2);
  EXPECT_EQ(ev[1].value, 4196);
  EXPECT_TRUE(ev[1].has_time);
}

TEST(QueryTimeline, BucketsHotFunctionsPeaksAndCompare) {
  TestProfile t;
  FrameId a = t.java("p/A", "a"), b = t.java("p/B", "b");
  // 1 s of cpu: 1 sample per 10 ms on a, a burst of b in [500, 600) ms.
  for (int ms = 0; ms < 1000; ms += 10) t.sample("cpu", {a}, "main", ms * 1000000LL);
  for (int ms = 500; ms < 600; ms += 1) t.sample("cpu", {b}, "main", ms * 1000000LL);
  for (int ms = 0; ms < 1000; ms += 5) t.sample("wall", {a}, "main", ms * 1000000LL);
  t.metadata().duration_ns = 1000000000;
  auto idx = index_of(t);
  TimelineOptions o;
  o.compare_event = "wall";
  Timeline tl = timeline(*idx, {}, o);
  ASSERT_TRUE(tl.error.empty()) << tl.error;
  EXPECT_EQ(tl.bucket_ns, 50000000); // 1 s / 20, a round width
  ASSERT_EQ(tl.buckets.size(), 20u);
  EXPECT_EQ(tl.total, 200);
  EXPECT_EQ(tl.buckets[0].weight, 5);
  EXPECT_EQ(tl.buckets[0].hot_name, "p.A.a");
  EXPECT_EQ(tl.buckets[10].weight, 55);
  EXPECT_EQ(tl.buckets[10].hot_name, "p.B.b");
  EXPECT_TRUE(tl.buckets[10].peak);
  EXPECT_FALSE(tl.buckets[0].peak);
  EXPECT_EQ(tl.buckets[0].compare_weight, 10);
  EXPECT_EQ(tl.compare_total, 200);

  View w;
  w.from_ns = 500000000;
  w.to_ns = 600000000;
  TimelineOptions fixed;
  fixed.resolution_ns = 25000000;
  tl = timeline(*idx, w, fixed);
  ASSERT_EQ(tl.buckets.size(), 4u);
  EXPECT_EQ(tl.total, 110);
  EXPECT_EQ(tl.buckets[3].end_ns, 600000000);
  TimelineOptions n;
  n.buckets = 3;
  tl = timeline(*idx, w, n);
  EXPECT_EQ(tl.buckets.size(), 3u);
  EXPECT_EQ(tl.total, 110);
}

TEST(QueryTimeline, NeedsTimestamps) {
  TestProfile t;
  t.sample("cpu", {t.java("p/A", "a")});
  auto idx = index_of(t);
  Timeline tl = timeline(*idx, {}, {});
  EXPECT_NE(tl.error.find("timestamps"), std::string::npos);
}

} // namespace
