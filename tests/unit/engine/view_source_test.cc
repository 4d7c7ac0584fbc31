// Views by a JFR type's name (issue 20 item 4): an event fed by several types (lock from
// jdk.ThreadPark and jdk.JavaMonitorEnter) records each sample's source, and the name of one
// type is a view of that type's samples alone, through the sample pass, the view cache and
// every other filter; the event's own name is every sample, from the precomputed view.
#include "query_test_util.h"
#include "server/engine/view_cache.h"
#include "server/engine/view_filter.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

// lock: samples i = 0..99 on thread t(i % 2), stack a or a>b, value i + 1, source i % 3 == 0 ?
// jdk.JavaMonitorEnter : jdk.ThreadPark.
std::shared_ptr<const ProfileIndex> lock_profile(int64_t *park, int64_t *park_t0) {
  TestProfile t;
  const FrameId a = t.java("p/A", "a"), b = t.java("p/B", "b");
  std::vector<uint8_t> sources;
  *park = *park_t0 = 0;
  for (int i = 0; i < 100; i++) {
    const std::vector<FrameId> stack =
        i % 4 == 0 ? std::vector<FrameId>{a} : std::vector<FrameId>{a, b};
    t.sample("lock", stack, i % 2 ? "t1" : "t0", 1000 * i, 1, i + 1);
    sources.push_back(i % 3 == 0 ? 0 : 1);
    if (sources.back() == 1) {
      *park += i + 1;
      if (i % 2 == 0) *park_t0 += i + 1;
    }
  }
  auto p = std::make_shared<Profile>(*t.finish());
  for (const char *type : {"jdk.JavaMonitorEnter", "jdk.ThreadPark"}) {
    p->strings.push_back(type);
    p->events[0].sources.push_back(static_cast<StringId>(p->strings.size() - 1));
  }
  p->events[0].samples.source = PackedInts::pack(sources);
  EXPECT_EQ(p->check_valid(), "");
  return ProfileIndex::build(p);
}

TEST(ViewSource, ATypeNameViewsOnlyItsSamples) {
  int64_t park = 0, park_t0 = 0;
  auto idx = lock_profile(&park, &park_t0);
  const Profile &p = idx->profile();
  EXPECT_EQ(p.find_event("jdk.ThreadPark"), 0);
  View all, by_type;
  all.event = "lock";
  by_type.event = "jdk.ThreadPark";
  EXPECT_FALSE(view_filters(p, all));
  EXPECT_TRUE(view_filters(p, by_type));
  ViewCache cache(idx);
  for (int round = 0; round < 2; round++) { // computed, then from the cache
    ViewResult r = cache.get(by_type);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.weights->total, park);
  }
  ViewResult whole = cache.get(all);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole.weights->total, 5050);
  // With a thread filter, and with hidden frames (the pass per original stack).
  View t0 = by_type;
  t0.threads.names = {"t0"};
  ViewResult r = cache.get(t0);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.weights->total, park_t0);
  View hidden = by_type;
  hidden.hide = {"p.B.b"};
  r = cache.get(hidden);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.weights->total, park);
  // The other type is the rest.
  View enter;
  enter.event = "jdk.JavaMonitorEnter";
  r = cache.get(enter);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.weights->total, 5050 - park);
}

TEST(ViewSource, UnknownAndSharedNamesSayWhy) {
  int64_t park = 0, park_t0 = 0;
  auto idx = lock_profile(&park, &park_t0);
  EXPECT_EQ(unknown_event_error(idx->profile(), "jdk.Nope"),
            "no event 'jdk.Nope' in the profile (events: lock)");
  // A type that feeds two events (async-profiler 2.x's cpu and wall) names neither.
  Profile p = idx->profile();
  p.events.push_back(Event{});
  p.strings.push_back("wall");
  p.events.back().name = static_cast<StringId>(p.strings.size() - 1);
  p.events.back().sources = {p.events[0].sources[1]};
  EXPECT_EQ(p.find_event("jdk.ThreadPark"), -1);
  EXPECT_EQ(unknown_event_error(p, "jdk.ThreadPark"),
            "jdk.ThreadPark feeds several events (lock, wall): pick one");
}

} // namespace
