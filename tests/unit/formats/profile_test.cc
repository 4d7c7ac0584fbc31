// Tests for the profile model and ProfileBuilder: interning, dedup, optional columns,
// weight clamping, and that check_valid() catches broken invariants.
#include "formats/profile_builder.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace hotlines;

namespace {

// main -> work -> leaf, twice, on two threads; one sample with time and a count of 3.
std::unique_ptr<Profile> small_profile() {
  ProfileBuilder b;
  Function fmain{.name = b.intern("main")};
  Function fwork{.name = b.intern("work")};
  FrameId m = b.frame({.function = b.function(fmain), .line = 3});
  FrameId w = b.frame({.function = b.function(fwork), .line = 10});
  FrameId w2 = b.frame({.function = b.function(fwork), .line = 10});
  EXPECT_EQ(w, w2);
  EventId cpu = b.event("cpu", "samples");
  ThreadId t1 = b.thread("t1", 11), t2 = b.thread("t2", 12);
  std::vector<FrameId> s1 = {m, w};
  StackId st = b.stack_from_root(s1);
  std::vector<FrameId> leaf_first = {w, m};
  EXPECT_EQ(st, b.stack_from_leaf(leaf_first));
  b.add_sample(cpu, st, t1, 0, 1, 1);
  b.add_sample(cpu, st, t2, 500, 3, 3);
  return b.finish();
}

} // namespace

TEST(Profile, BuilderInternsAndDeduplicates) {
  auto p = small_profile();
  EXPECT_EQ(p->check_valid(), "");
  EXPECT_EQ(p->strings[0], "");
  EXPECT_EQ(p->functions.size(), 2u);
  EXPECT_EQ(p->frames.size(), 2u);
  EXPECT_EQ(p->stack_count(), 2u);
  EXPECT_EQ(p->stack_parent[1], 0u);
  ASSERT_EQ(p->events.size(), 1u);
  const Event &e = p->events[0];
  EXPECT_EQ(e.total_count, 4);
  EXPECT_EQ(e.total_value, 4);
  // Optional columns materialize only as needed: time and count, thread; value == count.
  EXPECT_EQ(e.samples.count.size(), 2u);
  EXPECT_TRUE(e.samples.value.empty());
  EXPECT_EQ(e.samples.time_at(1), 500);
  EXPECT_EQ(e.samples.time_at(0), 0);
  EXPECT_EQ(e.samples.thread_at(1), 1u);
  EXPECT_EQ(p->frames_of(1), (std::vector<FrameId>{1, 0}));
}

TEST(Profile, FirstSampleMaterializesColumns) {
  ProfileBuilder b;
  EventId e = b.event("alloc", "bytes");
  ThreadId t0 = b.thread("a"), t1 = b.thread("b");
  (void)t0;
  b.add_sample(e, kNoStack, t1, 7, 2, 4096, 0);
  b.add_sample(e, kNoStack, 0, 0, 1, 1, 0);
  auto p = b.finish();
  const SampleColumns &c = p->events[0].samples;
  EXPECT_EQ(c.thread_at(0), 1u);
  EXPECT_EQ(c.thread_at(1), 0u);
  EXPECT_EQ(c.time_at(0), 7);
  EXPECT_EQ(c.count_at(0), 2);
  EXPECT_EQ(c.value_at(0), 4096);
  EXPECT_EQ(c.value_at(1), 1);
  EXPECT_EQ(p->events[0].total_value, 4097);
  EXPECT_EQ(p->check_valid(), "");
}

TEST(Profile, SampleColumnsArePacked) {
  // 1000 samples of one stack on one thread: the stack column is one block of equal values (its
  // 16-byte header, no value bytes), and the other columns hold only defaults.
  ProfileBuilder b;
  EventId e = b.event("cpu", "samples");
  FrameId f = b.frame({.function = b.function({.name = b.intern("f")})});
  StackId s = b.stack(kNoStack, f);
  ThreadId t = b.thread("t");
  for (int i = 0; i < 1000; i++) b.add_sample(e, s, t, 0, 1, 1);
  // 2048 samples over 300 stacks (ids 1..300): the stack column takes 2 bytes a sample (a range
  // of 299 needs 9 bits) in two blocks; ids below 256 in a third block take 1 byte.
  EventId e2 = b.event("alloc", "bytes");
  StackId last = s;
  for (int i = 1; i < 300; i++) last = b.stack(last, f);
  for (int i = 0; i < 2048; i++)
    b.add_sample(e2, s + 1 + static_cast<StackId>(i % 300), t, 0, 1, 1);
  for (int i = 0; i < 1024; i++) b.add_sample(e2, s + static_cast<StackId>(i % 256), t, 0, 1, 1);
  auto p = b.finish();
  EXPECT_EQ(p->events[0].samples.bytes(), 16u);
  EXPECT_EQ(p->events[1].samples.bytes(), 3 * 16u + 2048 * 2 + 1024);
  EXPECT_EQ(p->events[1].samples.stack_at(2047), s + 1 + 2047 % 300);
  EXPECT_EQ(p->events[1].samples.stack_at(2048 + 255), s + 255);
  EXPECT_EQ(p->sample_bytes(), 16u + 3 * 16u + 2048 * 2 + 1024);
}

TEST(Profile, LabelSetsAreInterned) {
  ProfileBuilder b;
  LabelSet ls = {{.key = b.intern("bytes"), .num = 64}};
  uint32_t a = b.label_set(ls), c = b.label_set(ls);
  EXPECT_EQ(a, c);
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(b.label_set({}), 0u);
}

TEST(Profile, WeightsAreClampedSoNoSumOverflows) {
  // Three samples of 2^63-1 (a hostile collapsed file): the total saturates exactly and the
  // later samples are clamped, so every view's sum of them fits in int64.
  ProfileBuilder b;
  FrameId f = b.frame({.function = b.function(Function{.name = b.intern("f")})});
  std::vector<FrameId> stack = {f};
  StackId s = b.stack_from_root(stack);
  EventId cpu = b.event("cpu", "samples");
  EventId alloc = b.event("alloc", "bytes");
  for (int i = 0; i < 3; i++) b.add_sample(cpu, s, 0, INT64_MAX, INT64_MAX);
  b.add_sample(alloc, s, 0, 2, INT64_MAX - 1);
  for (int i = 0; i < 3; i++) b.add_sample(alloc, s, 0, 1, -INT64_MAX);
  auto p = b.finish();
  const Event &c = p->events[cpu];
  EXPECT_EQ(c.total_count, INT64_MAX);
  EXPECT_EQ(c.total_value, INT64_MAX);
  EXPECT_EQ(c.samples.count_at(0), INT64_MAX);
  EXPECT_EQ(c.samples.count_at(1), 0);
  EXPECT_EQ(c.samples.value_at(2), 0);
  const Event &a = p->events[alloc];
  EXPECT_EQ(a.total_count, 5);
  EXPECT_EQ(a.total_value, INT64_MIN); // (2^63-2) - 2(2^63-1) is the floor exactly
  EXPECT_EQ(a.samples.value_at(2), -INT64_MAX);
  EXPECT_EQ(a.samples.value_at(3), 0); // clamped at the floor
  ASSERT_EQ(p->metadata.warnings.size(), 2u);
  EXPECT_EQ(p->metadata.warnings[0].message,
            "event cpu: sample weights clamped where its total would leave the 64-bit range");
  EXPECT_EQ(p->metadata.warnings[1].message,
            "event alloc: sample weights clamped where its total would leave the 64-bit range");
}

TEST(Profile, CheckValidCatchesBrokenInvariants) {
  {
    auto p = small_profile();
    p->stack_parent[1] = 1; // a parent must come before its child
    EXPECT_NE(p->check_valid().find("parent"), std::string::npos);
  }
  {
    auto p = small_profile();
    p->events[0].total_count++;
    EXPECT_NE(p->check_valid().find("totals"), std::string::npos);
  }
  {
    auto p = small_profile();
    p->frames[0].function = 99;
    EXPECT_NE(p->check_valid().find("function out of range"), std::string::npos);
  }
  {
    auto p = small_profile();
    std::vector<int64_t> stacks = p->events[0].samples.stack.to_vector();
    stacks[0] = 42;
    p->events[0].samples.stack = PackedInts::pack(stacks);
    EXPECT_NE(p->check_valid().find("stack out of range"), std::string::npos);
  }
  {
    auto p = small_profile();
    p->strings.push_back("main");
    EXPECT_NE(p->check_valid().find("duplicate"), std::string::npos);
  }
}

// Stacks built one after another reuse the last path's prefix: the ids are those one stack()
// call per frame gives, whatever was built before, and the cache does not outlive finish().
// Stacks built in a batch, in the order of their frames, are the stacks (and the tree has the
// nodes) building them one after another gives: stacks that share prefixes with each other
// (new in the batch) and with earlier ones, repeated and empty stacks, batches of every size.
TEST(ProfileBuilder, StacksBuiltInABatchAreTheOnesBuiltInTurn) {
  std::mt19937 rng(99);
  for (int round = 0; round < 20; round++) {
    ProfileBuilder one, batch;
    std::vector<StackId> want, got;
    for (ProfileBuilder *b : {&one, &batch})
      for (int i = 0; i < 6; i++) {
        Function fn;
        fn.name = b->intern("f" + std::to_string(i));
        b->frame(Frame{b->function(fn), i + 1, -1, FrameKind::jit});
      }
    for (int batch_no = 0; batch_no < 4; batch_no++) {
      std::vector<FrameId> all;
      std::vector<uint32_t> ends;
      const int n = static_cast<int>(rng() % 40);
      for (int k = 0; k < n; k++) {
        std::vector<FrameId> leaf_first(rng() % 12);
        for (FrameId &f : leaf_first) f = static_cast<FrameId>(rng() % (1 + round % 6));
        want.push_back(one.stack_from_leaf(leaf_first));
        all.insert(all.end(), leaf_first.begin(), leaf_first.end());
        ends.push_back(static_cast<uint32_t>(all.size()));
      }
      got.resize(got.size() + ends.size());
      batch.stacks_from_leaf(all, ends, got.data() + got.size() - ends.size());
    }
    std::unique_ptr<Profile> a = batch.finish(), b = one.finish();
    EXPECT_EQ(a->stack_count(), b->stack_count()); // no node twice
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++)
      EXPECT_EQ(a->frames_of(got[i]), b->frames_of(want[i])) << "round " << round << " stack " << i;
  }
}

// A batch's new nodes are numbered in the order of its stacks' frames root first, each stack
// after the one sharing the most of its prefix: [0], [1], [1 2], [1 2 4], [3] here.
TEST(ProfileBuilder, ABatchNumbersItsNewStacksInTheOrderOfTheirFrames) {
  ProfileBuilder b;
  for (int i = 0; i < 5; i++) {
    Function fn;
    fn.name = b.intern("f" + std::to_string(i));
    b.frame(Frame{b.function(fn), i + 1, -1, FrameKind::jit});
  }
  const std::vector<FrameId> leaf_first = {3, /**/ 4, 2, 1, /**/ 1, /**/ 2, 1, /**/ 0};
  const std::vector<uint32_t> ends = {1, 4, 5, 7, 8};
  std::vector<StackId> got(ends.size());
  b.stacks_from_leaf(leaf_first, ends, got.data());
  EXPECT_EQ(got, (std::vector<StackId>{4, 3, 1, 2, 0}));
  EXPECT_EQ(b.stack_count(), 5u);
}

// The stack tree against the set of the stacks' prefixes: the builder finds first children
// and later children by different routes, in batches and one at a time, and every route must
// give each stack its frames and one node per prefix.
TEST(ProfileBuilder, StackTreeHasOneNodePerParentAndFrame) {
  std::mt19937 rng(7);
  ProfileBuilder b;
  std::set<std::vector<FrameId>> prefixes;  // leaf first
  std::vector<std::vector<FrameId>> stacks; // leaf first, stack i built as ids[i]
  std::vector<StackId> ids;
  std::vector<FrameId> all;
  std::vector<uint32_t> ends;
  auto flush = [&] {
    ids.resize(ids.size() + ends.size());
    b.stacks_from_leaf(all, ends, ids.data() + ids.size() - ends.size());
    all.clear();
    ends.clear();
  };
  for (int round = 0; round < 200; round++) {
    const int alphabet = 1 + round % 9; // few frames: many siblings; more: long new tails
    for (int k = 0; k < 30; k++) {
      std::vector<FrameId> leaf_first(rng() % 20);
      for (FrameId &f : leaf_first) f = static_cast<FrameId>(rng() % alphabet);
      for (size_t from = 0; from < leaf_first.size(); from++)
        prefixes.emplace(leaf_first.begin() + from, leaf_first.end());
      if (k % 3 == 0) { // one at a time, between batches
        flush();
        ids.push_back(b.stack_from_leaf(leaf_first));
      } else {
        all.insert(all.end(), leaf_first.begin(), leaf_first.end());
        ends.push_back(static_cast<uint32_t>(all.size()));
      }
      stacks.push_back(leaf_first);
    }
  }
  flush();
  ASSERT_EQ(b.stack_count(), prefixes.size());
  std::unique_ptr<Profile> p = b.finish();
  ASSERT_EQ(ids.size(), stacks.size());
  for (size_t i = 0; i < ids.size(); i++) EXPECT_EQ(p->frames_of(ids[i]), stacks[i]) << i;
}

TEST(ProfileBuilder, SamplesWithoutAStackGetTheFrameNoStack) {
  ProfileBuilder b;
  Function fn;
  fn.name = b.intern("main");
  const StackId s = b.stack(kNoStack, b.frame(Frame{b.function(fn), 3, -1, FrameKind::jit}));
  const EventId cpu = b.event("cpu", "samples"), wall = b.event("wall", "nanoseconds");
  b.add_sample(cpu, kNoStack, 0, 1, 1);
  b.add_sample(cpu, s, 0, 1, 1);
  b.add_sample(cpu, kNoStack, 0, 2, 2);
  b.add_sample(wall, kNoStack, 0, 1, 500);
  std::unique_ptr<Profile> p = b.finish();
  EXPECT_EQ(p->check_valid(), "");
  const SampleColumns &c = p->events[cpu].samples;
  EXPECT_EQ(p->events[cpu].stackless, 2u);
  EXPECT_EQ(p->events[wall].stackless, 1u);
  EXPECT_EQ(p->events[cpu].total_count, 4);
  ASSERT_NE(c.stack[0], kNoStack);
  EXPECT_EQ(c.stack[2], c.stack[0]);
  EXPECT_EQ(p->events[wall].samples.stack[0], c.stack[0]); // one [no stack] for every event
  const Function &f = p->functions[p->frames[p->stack_frame[c.stack[0]]].function];
  EXPECT_EQ(p->str(f.name), "[no stack]");
  EXPECT_EQ(p->stack_parent[c.stack[0]], kNoStack);
  EXPECT_EQ(c.stack[1], s);
}

// The packed stack column is packed again from the first block that holds a sample without a
// stack: the blocks before it and every other sample keep their stacks.
TEST(ProfileBuilder, StacklessSamplesPastTheFirstBlocksArePlaced) {
  ProfileBuilder b;
  Function fn;
  fn.name = b.intern("main");
  const StackId s = b.stack(kNoStack, b.frame(Frame{b.function(fn), 3, -1, FrameKind::jit}));
  const StackId t = b.stack(s, b.frame(Frame{b.function(fn), 4, -1, FrameKind::jit}));
  const EventId cpu = b.event("cpu", "samples");
  for (int i = 0; i < 3000; i++)
    b.add_sample(cpu, i == 2500 || i == 2999 ? kNoStack : (i % 2 ? t : s), 0, 1, 1);
  std::unique_ptr<Profile> p = b.finish();
  EXPECT_EQ(p->check_valid(), "");
  const SampleColumns &c = p->events[cpu].samples;
  EXPECT_EQ(p->events[cpu].stackless, 2u);
  ASSERT_EQ(c.size(), 3000u);
  const StackId none = c.stack_at(2500);
  EXPECT_EQ(p->str(p->functions[p->frames[p->stack_frame[none]].function].name), "[no stack]");
  EXPECT_EQ(c.stack_at(2999), none);
  for (size_t i = 0; i < 3000; i++) {
    if (i == 2500 || i == 2999) continue;
    ASSERT_EQ(c.stack_at(i), i % 2 ? t : s) << i;
  }
  // Stack ids 0 and 1, and [no stack]'s 2: one byte a sample in each block.
  EXPECT_EQ(c.stack.bytes(), 3 * 16u + 3000);
}

// A reader that deduplicates its own stacks (pprof) and already has the root `[no stack]`
// (a function so named in the file): stackless samples join it instead of a duplicate root.
TEST(ProfileBuilder, NoStackRootIsFoundAmongStacksAddedDirectly) {
  ProfileBuilder b;
  Function fn;
  fn.name = fn.method = b.intern("[no stack]");
  const FrameId fr = b.frame(Frame{b.function(fn), 0, -1, FrameKind::unknown});
  EXPECT_EQ(b.append_stack(kNoStack, fr), 0u);
  const EventId cpu = b.event("cpu", "samples");
  b.add_sample(cpu, kNoStack, 0, 1, 1);
  std::unique_ptr<Profile> out = b.finish();
  EXPECT_EQ(out->check_valid(), "");
  EXPECT_EQ(out->stack_count(), 1u);
  EXPECT_EQ(out->events[cpu].samples.stack[0], 0u);
}

TEST(ProfileBuilder, StacksFromFramesReuseTheLastPathExactly) {
  ProfileBuilder b;
  std::vector<FrameId> f;
  for (int i = 0; i < 5; i++) {
    Function fn;
    fn.name = b.intern("f" + std::to_string(i));
    f.push_back(b.frame(Frame{b.function(fn), i + 1, -1, FrameKind::jit}));
  }
  auto by_hand = [&](std::vector<FrameId> root_first) {
    StackId s = kNoStack;
    for (FrameId x : root_first) s = b.stack(s, x);
    return s;
  };
  const std::vector<std::vector<FrameId>> paths = {
      {f[0], f[1], f[2]}, {f[0], f[1], f[3]}, {f[0]}, {}, {f[0], f[1], f[2], f[4]},
      {f[4], f[1]},       {f[0], f[1], f[3]}};
  for (const auto &p : paths) {
    const StackId got = b.stack_from_root(p);
    EXPECT_EQ(got, by_hand(p));
    std::vector<FrameId> leaf_first(p.rbegin(), p.rend());
    EXPECT_EQ(b.stack_from_leaf(leaf_first), got);
  }
  EXPECT_EQ(b.stack_count(), 7u); // 0; 0 1; 0 1 2; 0 1 3; 0 1 2 4; 4; 4 1
  EXPECT_EQ(b.finish()->stack_count(), 7u);
  // A fresh profile: the old path's nodes must not be reused.
  const StackId s = b.stack_from_root(std::vector<FrameId>{0, 0});
  EXPECT_EQ(s, 1u);
  EXPECT_EQ(b.finish()->stack_parent[1], 0u);
}
