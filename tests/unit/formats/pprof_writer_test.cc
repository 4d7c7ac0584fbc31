// Tests for the pprof writer and `hotlines convert`: the encoded message (decoded with the
// protoc classes) is well formed, inlining survives as multi-line locations, and reading the
// output back gives the same per-function and per-line numbers for every sample type, with
// threads and labels intact; event selection, raw output and CLI errors.
#include "formats/gzip.h"
#include "formats/loader.h"
#include "formats/pprof_reader.h"
#include "formats/pprof_writer.h"
#include "pprof_oracle.h"
#include "pprof_proto_builder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

using namespace hotlines;
using namespace hotlines::test;

namespace {

namespace pb = perftools::profiles;

std::string go_profile(const std::string &name) {
  return fixture_path("go-shop/profiles/" + name);
}

std::unique_ptr<Profile> load(const std::string &path) {
  LoadResult r = load_profile_file(path);
  EXPECT_TRUE(r.ok()) << r.describe();
  return r.ok() ? std::move(r.profile) : nullptr;
}

pb::Profile decode(const std::string &bytes) {
  std::string raw = bytes, err;
  if (is_gzip(bytes)) {
    EXPECT_TRUE(gunzip(bytes, &raw, &err)) << err;
  }
  pb::Profile m;
  EXPECT_TRUE(m.ParseFromString(raw));
  return m;
}

// Same sample types and, for each, the same per-function and per-line flat/cum.
void expect_same_numbers(const Profile &want, const Profile &got, const std::string &what) {
  std::vector<PprofSampleType> a = pprof_sample_types(want), b = pprof_sample_types(got);
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); i++) {
    SCOPED_TRACE(what + " " + a[i].type);
    EXPECT_EQ(a[i].type, b[i].type);
    EXPECT_EQ(a[i].unit, b[i].unit);
    EXPECT_EQ(model_total(want, a[i]), model_total(got, b[i]));
    for (Granularity g : {Granularity::functions, Granularity::lines})
      EXPECT_EQ(diff_weights(model_weights(want, a[i], g), model_weights(got, b[i], g)), "");
  }
}

std::unique_ptr<Profile> round_trip(const Profile &p, const PprofWriteOptions &o = {}) {
  std::string error;
  std::string bytes = write_pprof(p, o, &error);
  EXPECT_EQ(error, "");
  LoadResult r = load_profile_bytes(bytes);
  EXPECT_TRUE(r.ok()) << r.describe();
  if (!r.ok()) return nullptr;
  EXPECT_EQ(r.profile->check_valid(), "");
  return std::move(r.profile);
}

} // namespace

TEST(PprofWriter, EncodesAWellFormedProfile) {
  auto p = load(go_profile("cpu.pprof"));
  ASSERT_TRUE(p);
  std::string bytes = write_pprof(*p);
  ASSERT_TRUE(is_gzip(bytes));
  pb::Profile m = decode(bytes);
  ASSERT_GT(m.string_table_size(), 0);
  EXPECT_EQ(m.string_table(0), "");
  ASSERT_EQ(m.sample_type_size(), 2);
  EXPECT_EQ(m.string_table(m.sample_type(0).type()), "samples");
  EXPECT_EQ(m.string_table(m.sample_type(1).type()), "cpu");
  EXPECT_EQ(m.string_table(m.sample_type(1).unit()), "nanoseconds");
  EXPECT_EQ(m.string_table(m.default_sample_type()), "cpu");
  EXPECT_EQ(m.period(), 10000000);
  EXPECT_EQ(m.string_table(m.period_type().type()), "cpu");
  EXPECT_EQ(m.time_nanos(), p->metadata.start_time_ns);
  EXPECT_EQ(m.duration_nanos(), p->metadata.duration_ns);
  std::set<uint64_t> fids, lids;
  for (const pb::Function &f : m.function()) EXPECT_TRUE(fids.insert(f.id()).second);
  for (const pb::Location &l : m.location()) {
    EXPECT_TRUE(lids.insert(l.id()).second);
    for (const pb::Line &ln : l.line()) EXPECT_TRUE(fids.count(ln.function_id()));
  }
  EXPECT_FALSE(fids.count(0));
  // math.IsInf inlined into math.sin stays one location with two lines.
  bool chain = false;
  for (const pb::Location &l : m.location())
    if (l.line_size() == 2) {
      for (const pb::Function &f : m.function())
        if (f.id() == l.line(0).function_id() && m.string_table(f.name()) == "math.IsInf")
          chain = true;
    }
  EXPECT_TRUE(chain);
  int64_t total = 0;
  for (const pb::Sample &s : m.sample()) {
    ASSERT_EQ(s.value_size(), 2);
    for (uint64_t id : s.location_id()) EXPECT_TRUE(lids.count(id));
    total += s.value(1);
  }
  EXPECT_EQ(total, 310000000);
}

TEST(PprofWriter, FixturesRoundTripWithSameNumbers) {
  for (std::string path :
       {go_profile("cpu.pprof"), go_profile("mem.pprof"), go_profile("block.pprof"),
        go_profile("mutex.pprof"), java_profile("ap-alloc.pb")}) {
    auto p = load(path);
    ASSERT_TRUE(p);
    auto q = round_trip(*p);
    ASSERT_TRUE(q);
    expect_same_numbers(*p, *q, path);
    EXPECT_EQ(q->metadata.default_event, p->metadata.default_event) << path;
    EXPECT_EQ(q->metadata.comments, p->metadata.comments) << path;
    EXPECT_EQ(q->metadata.period_type, p->metadata.period_type) << path;
  }
}

TEST(PprofWriter, OtherFormatsRoundTrip) {
  for (const char *name : {"ap-cpu.collapsed", "ap-cpu-lines-threads.collapsed", "ap-multi.jfr",
                           "jdk-alloc-lock.jfr"}) {
    LoadResult r = load_profile_file(java_profile(name));
    if (!r.ok()) continue; // the JFR reader may not be there yet
    auto q = round_trip(*r.profile);
    ASSERT_TRUE(q);
    expect_same_numbers(*r.profile, *q, name);
    // Threads survive as labels.
    std::set<std::string> want, got;
    for (const Thread &t : r.profile->threads) want.insert(std::string(r.profile->str(t.name)));
    for (const Thread &t : q->threads) got.insert(std::string(q->str(t.name)));
    want.insert(""), got.insert("");
    EXPECT_EQ(want, got) << name;
  }
}

TEST(PprofWriter, ThreadsLabelsAndUnsymbolizedFramesSurvive) {
  ProtoProfile pp;
  pp.type("samples", "count");
  uint64_t m = pp.mapping("/lib/libc.so.6");
  uint64_t raw = pp.location({}, 0xabc, m), f = pp.frame("main.f", 4);
  auto *s = pp.sample({raw, f}, {3});
  pp.label(s, "thread", "worker");
  pp.num_label(s, "thread_id", 12);
  pp.num_label(s, "java_thread_id", 5);
  pp.label(s, "span", "a");
  pp.num_label(s, "bytes", 64, "bytes");
  pp.sample({f}, {2});
  LoadResult r = read_pprof(pp.bytes());
  ASSERT_TRUE(r.ok()) << r.describe();
  auto q = round_trip(*r.profile);
  ASSERT_TRUE(q);
  expect_same_numbers(*r.profile, *q, "synthetic");
  const SampleColumns &c = q->events[0].samples;
  ASSERT_EQ(c.size(), 2u);
  const Thread &t = q->threads[c.thread_at(0)];
  EXPECT_EQ(q->str(t.name), "worker");
  EXPECT_EQ(t.os_tid, 12);
  EXPECT_EQ(t.java_tid, 5);
  const LabelSet &ls = q->label_sets[c.labels_at(0)];
  ASSERT_EQ(ls.size(), 2u);
  EXPECT_EQ(q->str(ls[1].key), "bytes");
  EXPECT_EQ(ls[1].num, 64);
  EXPECT_EQ(q->str(ls[1].unit), "bytes");
  const Function &leaf = q->functions[q->frames[q->stack_frame[c.stack[0]]].function];
  EXPECT_EQ(q->str(leaf.name), "0xabc");
  EXPECT_EQ(q->str(leaf.library), "/lib/libc.so.6");
}

TEST(PprofWriter, SelectsEventsAndAggregates) {
  auto p = load(go_profile("mem.pprof"));
  ASSERT_TRUE(p);
  PprofWriteOptions o;
  o.events = {static_cast<EventId>(p->find_event("inuse"))};
  o.gzip = false;
  std::string bytes = write_pprof(*p, o);
  ASSERT_FALSE(is_gzip(bytes));
  pb::Profile m = decode(bytes);
  ASSERT_EQ(m.sample_type_size(), 2);
  EXPECT_EQ(m.string_table(m.sample_type(0).type()), "inuse_objects");
  EXPECT_EQ(m.string_table(m.sample_type(1).type()), "inuse_space");
  EXPECT_EQ(m.string_table(m.default_sample_type()), ""); // alloc, the default, is not written
  EXPECT_EQ(m.sample_size(), static_cast<int>(p->events[1].samples.size()));

  // Samples with the same stack and labels merge unless asked not to.
  ProtoProfile pp;
  pp.type("samples", "count");
  uint64_t f = pp.frame("main.f", 1);
  pp.sample({f}, {1});
  pp.sample({f}, {2});
  LoadResult r = read_pprof(pp.bytes());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(decode(write_pprof(*r.profile)).sample_size(), 1);
  PprofWriteOptions keep;
  keep.aggregate = false;
  EXPECT_EQ(decode(write_pprof(*r.profile, keep)).sample_size(), 2);

  std::string error;
  PprofWriteOptions bad;
  bad.events = {9};
  EXPECT_EQ(write_pprof(*p, bad, &error), "");
  EXPECT_NE(error.find("event 9 does not exist"), std::string::npos) << error;
}

TEST(PprofConvertCli, WritesPprofAndReportsErrors) {
  std::string dir = std::string(HOTLINES_BUILD_DIR) + "/pprof-writer-test";
  std::filesystem::create_directories(dir);
  std::string bin = HOTLINES_BINARY, in = shell_quote(go_profile("mem.pprof"));
  int status = -1;
  run_command(bin + " convert " + in + " " + dir + "/mem.pb.gz 2>&1", &status);
  EXPECT_EQ(status, 0);
  auto p = load(dir + "/mem.pb.gz");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->events.size(), 2u);

  run_command(bin + " convert --event alloc_objects " + in + " " + dir + "/alloc.pprof 2>&1",
              &status);
  EXPECT_EQ(status, 0);
  auto a = load(dir + "/alloc.pprof");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->events.size(), 1u);
  EXPECT_EQ(a->str(a->events[0].name), "alloc");

  // stdin in, raw protobuf out.
  run_command(bin + " convert - " + dir + "/stdin.pb < " + in + " 2>&1", &status);
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(is_gzip(read_file(dir + "/stdin.pb")));
  ASSERT_TRUE(load(dir + "/stdin.pb"));

  std::string out = run_command(bin + " convert " + in + " " + dir + "/x.collapsed 2>&1", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(out.find("for collapsed stacks use `hotlines collapse IN -o " + dir + "/x.collapsed`"),
            std::string::npos)
      << out;
  out = run_command(bin + " convert " + in + " " + dir + "/x.txt 2>&1", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(out.find("cannot tell the output format"), std::string::npos) << out;
  out = run_command(bin + " convert --event nope " + in + " " + dir + "/x.pb.gz 2>&1", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(out.find("no event or sample type 'nope'"), std::string::npos) << out;
  out = run_command(bin + " convert /nonexistent.pprof " + dir + "/x.pb.gz 2>&1", &status);
  EXPECT_EQ(status, 3);
  out = run_command(bin + " convert " + in + " 2>&1", &status);
  EXPECT_EQ(status, 2);
}
