// Tests for the pprof reader: the fixtures' events, frames, labels and metadata, the
// sample-type mapping, threads from labels, unsymbolized and inlined locations, drop_frames,
// zero and negative values, and the compactness of the sample columns.
#include "formats/loader.h"
#include "formats/pprof_reader.h"
#include "formats/pprof_sample_types.h"
#include "pprof_proto_builder.h"
#include "test_util.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::string go_profile(const std::string &name) {
  return fixture_path("go-shop/profiles/" + name);
}

std::unique_ptr<Profile> load(const std::string &path) {
  LoadResult r = load_profile_file(path);
  EXPECT_TRUE(r.ok()) << r.describe();
  if (!r.ok()) return nullptr;
  EXPECT_EQ(r.profile->check_valid(), "");
  return std::move(r.profile);
}

std::unique_ptr<Profile> read(const ProtoProfile &pp) {
  LoadResult r = read_pprof(pp.bytes());
  EXPECT_TRUE(r.ok()) << r.describe();
  if (!r.ok()) return nullptr;
  EXPECT_EQ(r.profile->check_valid(), "");
  return std::move(r.profile);
}

const Function *function_named(const Profile &p, std::string_view name) {
  for (const Function &f : p.functions)
    if (p.str(f.name) == name) return &f;
  return nullptr;
}

std::vector<std::string> names_of_stack(const Profile &p, StackId s) {
  std::vector<std::string> out; // leaf first
  for (FrameId f : p.frames_of(s)) out.emplace_back(p.str(p.functions[p.frames[f].function].name));
  return out;
}

} // namespace

TEST(PprofReader, GoCpuProfile) {
  auto p = load(go_profile("cpu.pprof"));
  ASSERT_TRUE(p);
  ASSERT_EQ(p->events.size(), 1u);
  const Event &e = p->events[0];
  EXPECT_EQ(p->str(e.name), "cpu");
  EXPECT_EQ(p->str(e.unit), "nanoseconds");
  EXPECT_EQ(p->str(e.count_label), "samples");
  EXPECT_EQ(p->str(e.value_label), "cpu");
  EXPECT_EQ(e.total_count, 31);
  EXPECT_EQ(e.total_value, 310000000);
  EXPECT_EQ(p->metadata.format, "pprof");
  EXPECT_EQ(p->metadata.producer, "go");
  EXPECT_EQ(p->metadata.period, 10000000);
  EXPECT_EQ(p->metadata.period_type, "cpu/nanoseconds");
  EXPECT_GT(p->metadata.start_time_ns, 1700000000000000000);
  EXPECT_GT(p->metadata.duration_ns, 1000000000);
  EXPECT_EQ(p->metadata.default_event, 0);
  EXPECT_EQ(p->threads.size(), 1u);

  // Paths and names as recorded.
  const Function *discount = function_named(*p, "example.com/gows/internal/shop.Discount");
  ASSERT_TRUE(discount);
  EXPECT_EQ(p->str(discount->file), "/build/go-shop/internal/shop/shop.go");
  EXPECT_EQ(p->str(discount->system_name), "example.com/gows/internal/shop.Discount");

  // Location 17 is math.Sin inlined into Discount line 13: the callee is marked inlined.
  bool found = false;
  for (size_t s = 0; s < p->stack_count(); s++) {
    const Frame &leaf = p->frames[p->stack_frame[s]];
    if (p->str(p->functions[leaf.function].name) != "math.Sin" || p->stack_parent[s] == kNoStack)
      continue;
    const Frame &caller = p->frames[p->stack_frame[p->stack_parent[s]]];
    EXPECT_EQ(leaf.kind, FrameKind::inlined);
    EXPECT_EQ(leaf.line, 189);
    EXPECT_EQ(p->str(p->functions[caller.function].name),
              "example.com/gows/internal/shop.Discount");
    EXPECT_EQ(caller.line, 13);
    EXPECT_EQ(caller.kind, FrameKind::unknown);
    found = true;
  }
  EXPECT_TRUE(found);
}

TEST(PprofReader, GoHeapProfilePairsTypesAndHonoursDefault) {
  auto p = load(go_profile("mem.pprof"));
  ASSERT_TRUE(p);
  ASSERT_EQ(p->events.size(), 2u);
  EXPECT_EQ(p->str(p->events[0].name), "alloc");
  EXPECT_EQ(p->str(p->events[0].count_label), "alloc_objects");
  EXPECT_EQ(p->str(p->events[0].value_label), "alloc_space");
  EXPECT_EQ(p->str(p->events[0].unit), "bytes");
  EXPECT_EQ(p->str(p->events[1].name), "inuse");
  EXPECT_EQ(p->events[0].total_count, 1316036);
  EXPECT_EQ(p->events[0].total_value, 123187575);
  EXPECT_EQ(p->events[1].total_count, 1260);
  EXPECT_EQ(p->events[1].total_value, 524496);
  // default_sample_type is alloc_space.
  EXPECT_EQ(p->metadata.default_event, 0);
  // Samples whose inuse values are both zero are not stored in inuse.
  EXPECT_LT(p->events[1].samples.size(), p->events[0].samples.size());
  for (size_t i = 0; i < p->events[1].samples.size(); i++)
    EXPECT_GE(p->events[1].samples.count_at(i), 1);
  // The numeric `bytes` label is kept per sample.
  bool bytes_label = false;
  for (const LabelSet &ls : p->label_sets)
    for (const Label &l : ls)
      if (p->str(l.key) == "bytes" && l.num == 16 && l.str == 0) bytes_label = true;
  EXPECT_TRUE(bytes_label);
}

TEST(PprofReader, EmptyMutexProfileHasItsEvent) {
  auto p = load(go_profile("mutex.pprof"));
  ASSERT_TRUE(p);
  ASSERT_EQ(p->events.size(), 1u);
  EXPECT_EQ(p->str(p->events[0].name), "lock");
  EXPECT_EQ(p->events[0].samples.size(), 0u);
  auto b = load(go_profile("block.pprof"));
  ASSERT_TRUE(b);
  EXPECT_EQ(p->str(b->events[0].count_label), "contentions");
  EXPECT_EQ(b->events[0].total_count, 4);
  EXPECT_EQ(b->events[0].total_value, 1192213095);
}

TEST(PprofReader, AsyncProfilerAllocProfile) {
  auto p = load(java_profile("ap-alloc.pb"));
  ASSERT_TRUE(p);
  ASSERT_EQ(p->events.size(), 1u);
  EXPECT_EQ(p->str(p->events[0].name), "allocations"); // unknown type keeps its name
  EXPECT_EQ(p->str(p->events[0].unit), "count");
  EXPECT_EQ(p->events[0].total_value, 11099);
  EXPECT_EQ(p->metadata.producer, "async-profiler");
  ASSERT_EQ(p->metadata.comments.size(), 1u);
  EXPECT_NE(function_named(*p, "org/acme/shop/Pricing.labels"), nullptr);
}

TEST(PprofReader, SampleColumnsStayCompact) {
  for (std::string path : {go_profile("cpu.pprof"), go_profile("mem.pprof"),
                           go_profile("block.pprof"), java_profile("ap-alloc.pb")}) {
    auto p = load(path);
    ASSERT_TRUE(p);
    ASSERT_GT(p->sample_count(), 0u);
    double per = static_cast<double>(p->sample_bytes()) / p->sample_count();
    EXPECT_LE(per, 24.0) << path;
    printf("  %-60s %zu samples, %.1f bytes/sample\n", path.c_str(), p->sample_count(), per);
  }
}

TEST(PprofReader, EverySampleTypeIsSelectable) {
  auto p = load(go_profile("mem.pprof"));
  ASSERT_TRUE(p);
  std::vector<PprofSampleType> types = pprof_sample_types(*p);
  ASSERT_EQ(types.size(), 4u);
  const char *want[] = {"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"};
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(types[i].type, want[i]);
    PprofSampleType t;
    ASSERT_TRUE(find_pprof_sample_type(*p, want[i], &t));
    EXPECT_EQ(t.event, i / 2);
    EXPECT_EQ(t.count, i % 2 == 0);
  }
  PprofSampleType t;
  ASSERT_TRUE(find_pprof_sample_type(*p, "inuse", &t)); // product name: the value column
  EXPECT_EQ(t.type, "inuse_space");
  ASSERT_TRUE(find_pprof_sample_type(*p, "2", &t)); // index, as -sample_index=2
  EXPECT_EQ(t.type, "inuse_objects");
  EXPECT_FALSE(find_pprof_sample_type(*p, "nope", &t));
  EXPECT_FALSE(find_pprof_sample_type(*p, "4", &t));
}

TEST(PprofReader, GroupsSampleTypes) {
  auto names = [](std::vector<std::string_view> types, std::vector<std::string> unpair = {}) {
    std::string s;
    for (const PprofEventGroup &g : group_pprof_sample_types(types, unpair))
      s += g.name + "(" + std::to_string(g.count_type) + "," + std::to_string(g.value_type) + ") ";
    return s;
  };
  EXPECT_EQ(names({"samples", "cpu"}), "cpu(0,1) ");
  EXPECT_EQ(names({"cpu", "samples"}), "cpu(1,0) ");
  EXPECT_EQ(names({"samples", "wall"}), "wall(0,1) "); // Node, fgprof
  EXPECT_EQ(names({"samples", "cpu", "wall"}), "cpu(0,1) wall(-1,2) ");
  EXPECT_EQ(names({"samples"}), "samples(-1,0) ");
  EXPECT_EQ(names({"contentions", "delay"}), "lock(0,1) ");
  EXPECT_EQ(names({"alloc_space"}), "alloc(-1,0) ");
  EXPECT_EQ(names({"goroutine"}), "goroutine(-1,0) ");
  EXPECT_EQ(names({"cpu", "cpu"}), "cpu(-1,0) cpu_1(-1,1) ");
  EXPECT_EQ(names({""}), "sample_type_0(-1,0) ");
  EXPECT_EQ(names({"alloc_objects", "alloc_space"}, {"alloc_space"}),
            "alloc_objects(-1,0) alloc(-1,1) ");
  EXPECT_EQ(names({"x_count", "x"}), "x(0,1) "); // the writer's convention
}

TEST(PprofReader, ThreadLabelsBecomeThreadsOtherLabelsStay) {
  ProtoProfile pp;
  pp.type("samples", "count");
  pp.type("cpu", "nanoseconds");
  uint64_t a = pp.frame("main.a", 3), b = pp.frame("main.b", 7);
  auto *s1 = pp.sample({a, b}, {1, 10});
  pp.label(s1, "thread", "worker-1");
  pp.num_label(s1, "thread_id", 42);
  pp.label(s1, "span", "checkout");
  auto *s2 = pp.sample({b}, {2, 20});
  pp.label(s2, "thread_name", "main");
  pp.label(s2, "thread_id", "7"); // a tid as a string
  pp.sample({a}, {3, 30});        // no thread labels: the unnamed thread 0
  auto p = read(pp);
  ASSERT_TRUE(p);
  ASSERT_EQ(p->threads.size(), 3u);
  EXPECT_EQ(p->str(p->threads[0].name), "");
  const SampleColumns &c = p->events[0].samples;
  ASSERT_EQ(c.size(), 3u);
  const Thread &t1 = p->threads[c.thread_at(0)];
  EXPECT_EQ(p->str(t1.name), "worker-1");
  EXPECT_EQ(t1.os_tid, 42);
  const Thread &t2 = p->threads[c.thread_at(1)];
  EXPECT_EQ(p->str(t2.name), "main");
  EXPECT_EQ(t2.os_tid, 7);
  EXPECT_EQ(c.thread_at(2), 0u);
  // Only the non-thread label remains in label sets.
  const LabelSet &ls = p->label_sets[c.labels_at(0)];
  ASSERT_EQ(ls.size(), 1u);
  EXPECT_EQ(p->str(ls[0].key), "span");
  EXPECT_EQ(p->str(ls[0].str), "checkout");
  EXPECT_EQ(c.labels_at(1), 0u);

  // When every sample names its thread, no unnamed thread is left over.
  ProtoProfile all;
  all.type("samples", "count");
  uint64_t f = all.frame("main.f", 1);
  all.label(all.sample({f}, {1}), "thread", "t1");
  all.label(all.sample({f}, {1}), "thread", "t2");
  auto q = read(all);
  ASSERT_TRUE(q);
  ASSERT_EQ(q->threads.size(), 2u);
  EXPECT_EQ(q->str(q->threads[0].name), "t1");
  EXPECT_EQ(q->str(q->threads[q->events[0].samples.thread_at(1)].name), "t2");
}

TEST(PprofReader, UnsymbolizedLocationsShowAddressAndMapping) {
  ProtoProfile pp;
  pp.type("samples", "count");
  uint64_t m = pp.mapping("/usr/lib/libfoo.so");
  uint64_t raw = pp.location({}, 0x7f00dead, m);
  uint64_t main_fn = pp.frame("main.main", 5);
  pp.sample({raw, main_fn}, {4});
  auto p = read(pp);
  ASSERT_TRUE(p);
  const SampleColumns &c = p->events[0].samples;
  ASSERT_EQ(c.size(), 1u);
  const Function &leaf = p->functions[p->frames[p->stack_frame[c.stack[0]]].function];
  EXPECT_EQ(p->str(leaf.name), "0x7f00dead");
  EXPECT_EQ(p->str(leaf.library), "/usr/lib/libfoo.so");
}

TEST(PprofReader, InlinedChainsExpandCallerLast) {
  ProtoProfile pp;
  pp.type("samples", "count");
  uint64_t inner = pp.function("pkg.inner", "x.go"), mid = pp.function("pkg.mid", "x.go"),
           outer = pp.function("pkg.outer", "x.go");
  uint64_t loc = pp.location({{inner, 3}, {mid, 9}, {outer, 20}});
  pp.sample({loc}, {1});
  auto p = read(pp);
  ASSERT_TRUE(p);
  StackId s = p->events[0].samples.stack[0];
  EXPECT_EQ(names_of_stack(*p, s), (std::vector<std::string>{"pkg.inner", "pkg.mid", "pkg.outer"}));
  std::vector<FrameId> fr = p->frames_of(s);
  EXPECT_EQ(p->frames[fr[0]].kind, FrameKind::inlined);
  EXPECT_EQ(p->frames[fr[1]].kind, FrameKind::inlined);
  EXPECT_EQ(p->frames[fr[2]].kind, FrameKind::unknown);
  EXPECT_EQ(p->frames[fr[1]].line, 9);
}

TEST(PprofReader, ZeroAndNegativeValues) {
  ProtoProfile pp;
  pp.type("alloc_objects", "count");
  pp.type("alloc_space", "bytes");
  pp.type("goroutine", "count");
  uint64_t f = pp.frame("main.f", 1);
  pp.sample({f}, {0, 0, 5});  // alloc all zero: not stored in alloc
  pp.sample({f}, {2, 64, 0}); // goroutine zero: not stored in goroutine
  pp.sample({f}, {1, 0, -3}); // negative values of an unpaired type are kept
  auto p = read(pp);
  ASSERT_TRUE(p);
  ASSERT_EQ(p->events.size(), 2u);
  EXPECT_EQ(p->events[0].samples.size(), 2u);
  EXPECT_EQ(p->events[0].total_count, 3);
  EXPECT_EQ(p->events[0].total_value, 64);
  EXPECT_EQ(p->events[1].samples.size(), 2u);
  EXPECT_EQ(p->events[1].total_value, 2);
  EXPECT_EQ(p->events[1].total_count, 2); // one per stored sample

  // A count < 1 next to a non-zero value cannot be a count: the pair is split.
  ProtoProfile diff;
  diff.type("alloc_objects", "count");
  diff.type("alloc_space", "bytes");
  uint64_t g = diff.frame("main.g", 1);
  diff.sample({g}, {-2, -128});
  diff.sample({g}, {3, 300});
  auto q = read(diff);
  ASSERT_TRUE(q);
  ASSERT_EQ(q->events.size(), 2u);
  EXPECT_EQ(q->str(q->events[0].name), "alloc_objects");
  EXPECT_EQ(q->events[0].total_value, 1);
  EXPECT_EQ(q->str(q->events[1].name), "alloc");
  EXPECT_EQ(q->str(q->events[1].value_label), "alloc_space");
  EXPECT_EQ(q->events[1].total_value, 172);
  ASSERT_FALSE(q->metadata.warnings.empty());
  EXPECT_NE(q->metadata.warnings[0].message.find("alloc_space"), std::string::npos);
  PprofSampleType t;
  ASSERT_TRUE(find_pprof_sample_type(*q, "alloc_objects", &t));
  EXPECT_EQ(t.event, 0);
  EXPECT_FALSE(t.count);
}

TEST(PprofReader, DropFramesIsAppliedAsGoToolPprofDoes) {
  ProtoProfile pp;
  pp.type("samples", "count");
  uint64_t mallocf = pp.frame("malloc", 1, "m.c");
  uint64_t newf = pp.frame("operator new(unsigned long)", 2, "n.cc");
  uint64_t user = pp.frame("app::Work", 10, "app.cc");
  uint64_t root = pp.frame("main", 20, "app.cc");
  pp.pb.set_drop_frames(pp.s("malloc|operator new"));
  pp.sample({mallocf, newf, user, root}, {5});
  pp.sample({mallocf, root}, {1});
  auto p = read(pp);
  ASSERT_TRUE(p);
  const SampleColumns &c = p->events[0].samples;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(names_of_stack(*p, c.stack[0]), (std::vector<std::string>{"app::Work", "main"}));
  EXPECT_EQ(names_of_stack(*p, c.stack[1]), (std::vector<std::string>{"main"}));
  ASSERT_FALSE(p->metadata.warnings.empty());
  EXPECT_NE(p->metadata.warnings[0].message.find("drop_frames"), std::string::npos);

  // keep_frames rescues a match; Go's syntax is RE2's ((?i) works); an invalid pattern keeps
  // every frame, with a warning.
  pp.pb.set_keep_frames(pp.s("operator new"));
  auto k = read(pp);
  ASSERT_TRUE(k);
  EXPECT_EQ(names_of_stack(*k, k->events[0].samples.stack[0]),
            (std::vector<std::string>{"operator new(unsigned long)", "app::Work", "main"}));
  pp.pb.set_keep_frames(0);
  pp.pb.set_drop_frames(pp.s("(?i)MALLOC|operator new"));
  auto i = read(pp);
  ASSERT_TRUE(i);
  EXPECT_EQ(names_of_stack(*i, i->events[0].samples.stack[0]),
            (std::vector<std::string>{"app::Work", "main"}));
  pp.pb.set_drop_frames(pp.s("malloc("));
  auto u = read(pp);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->frames_of(u->events[0].samples.stack[0]).size(), 4u);
  ASSERT_FALSE(u->metadata.warnings.empty());
  EXPECT_NE(u->metadata.warnings[0].message.find("not applied"), std::string::npos);
}

TEST(PprofReader, DefaultIsTheLastTypeWithoutDefaultSampleType) {
  ProtoProfile pp;
  pp.type("alloc_objects", "count");
  pp.type("alloc_space", "bytes");
  pp.type("inuse_objects", "count");
  pp.type("inuse_space", "bytes");
  pp.sample({pp.frame("f", 1)}, {1, 2, 3, 4});
  auto p = read(pp);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->str(p->events[p->metadata.default_event].name), "inuse");
  pp.pb.set_default_sample_type(pp.s("alloc_objects"));
  auto q = read(pp);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->str(q->events[q->metadata.default_event].name), "alloc");
}

TEST(PprofReader, UnpackedRepeatedFieldsAndUnknownFieldsAreAccepted) {
  // Hand-encoded: string table, a sample type, one function/location, a sample whose
  // location ids and values are not packed, and an unknown field 99 (fixed64) at the end.
  auto varint = [](std::string &out, uint64_t v) {
    do {
      uint8_t b = v & 0x7f;
      v >>= 7;
      out += static_cast<char>(b | (v ? 0x80 : 0));
    } while (v);
  };
  auto field = [&](std::string &out, int f, int wire) { varint(out, (f << 3) | wire); };
  auto len = [&](std::string &out, int f, const std::string &body) {
    field(out, f, 2);
    varint(out, body.size());
    out += body;
  };
  std::string d;
  for (const char *s : {"", "samples", "count", "main.f"}) len(d, 6, s);
  std::string vt;
  field(vt, 1, 0), varint(vt, 1), field(vt, 2, 0), varint(vt, 2);
  len(d, 1, vt);
  std::string fn;
  field(fn, 1, 0), varint(fn, 1), field(fn, 2, 0), varint(fn, 3);
  len(d, 5, fn);
  std::string line;
  field(line, 1, 0), varint(line, 1), field(line, 2, 0), varint(line, 12);
  std::string loc;
  field(loc, 1, 0), varint(loc, 1);
  len(loc, 4, line);
  len(d, 4, loc);
  std::string sample;
  field(sample, 1, 0), varint(sample, 1), field(sample, 2, 0), varint(sample, 9);
  len(d, 2, sample);
  field(d, 99, 1);
  d += std::string(8, '\0');
  LoadResult r = read_pprof(d);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_value, 9);
  EXPECT_EQ(r.profile->frames[0].line, 12);
}
