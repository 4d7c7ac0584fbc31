// OTLP through the engine's queries: what async-profiler's jfrconv wrote from ap-multi.jfr
// gives exactly the numbers of our load of ap-multi.jfr (itself equal to the JDK's parser,
// query_jfr_oracle_test.cc): totals, hot functions self/total, per-line tables, thread
// weights, time windows. Writing OTLP and reading it back keeps every number, for JFR,
// pprof and collapsed input; hotlines-written and async-profiler-written OTLP of the same JFR
// agree; the agent's own OTLP output is consistent and hot where the program is.
#include "formats/loader.h"
#include "formats/otlp_reader.h"
#include "formats/otlp_writer.h"
#include "query_test_util.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/query_threads.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <set>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::shared_ptr<const ProfileIndex> index_of(std::unique_ptr<Profile> p) {
  EXPECT_TRUE(p);
  if (!p) return nullptr;
  EXPECT_EQ(p->check_valid(), "");
  return ProfileIndex::build(std::shared_ptr<const Profile>(std::move(p)));
}

std::shared_ptr<const ProfileIndex> load(const std::string &path) {
  LoadResult r = load_profile_file(path);
  EXPECT_TRUE(r.ok()) << r.describe();
  return index_of(std::move(r.profile));
}

// The profile written as OTLP and read back.
std::shared_ptr<const ProfileIndex> round_trip(const Profile &p, OtlpWriteOptions o = {}) {
  std::string err;
  std::string bytes = write_otlp(p, o, &err);
  EXPECT_EQ(err, "");
  LoadResult r = load_profile_bytes(bytes);
  EXPECT_TRUE(r.ok()) << r.describe();
  return index_of(std::move(r.profile));
}

std::string ap_output(const std::string &name) {
  return java_profile("async-profiler-outputs/" + name);
}

// Everything a user sees of one view, as maps to compare.
struct Numbers {
  int64_t total = 0;
  std::map<std::string, int64_t> self, total_by, line_self, line_total, threads;
  bool operator==(const Numbers &) const = default;
};

std::ostream &operator<<(std::ostream &o, const Numbers &n) {
  o << "total " << n.total << ", " << n.self.size() << " self, " << n.total_by.size() << " total, "
    << n.line_total.size() << " lines, " << n.threads.size() << " threads";
  return o;
}

// The first differences between two Numbers, for failure messages.
std::string diff(const Numbers &a, const Numbers &b) {
  std::string out;
  auto maps = [](const Numbers &n) {
    return std::map<std::string, const std::map<std::string, int64_t> *>{
        {"self", &n.self},
        {"total", &n.total_by},
        {"line_self", &n.line_self},
        {"line_total", &n.line_total},
        {"threads", &n.threads}};
  };
  auto ma = maps(a), mb = maps(b);
  for (auto &[name, m] : ma) {
    std::set<std::string> keys;
    for (auto &kv : *m) keys.insert(kv.first);
    for (auto &kv : *mb[name]) keys.insert(kv.first);
    int shown = 0;
    for (const std::string &k : keys) {
      auto x = m->find(k), y = mb[name]->find(k);
      int64_t xv = x == m->end() ? 0 : x->second, yv = y == mb[name]->end() ? 0 : y->second;
      if (xv != yv && shown++ < 4)
        out += "\n  " + name + " " + k + ": " + std::to_string(xv) + " vs " + std::to_string(yv);
    }
  }
  return out;
}

Numbers numbers(const ProfileIndex &idx, View v) {
  Numbers n;
  ViewResult r = compute_view(idx, v);
  EXPECT_TRUE(r.ok()) << r.error;
  if (!r.ok()) return n;
  const ViewWeights &w = *r.weights;
  n.total = w.total;
  for (const FunctionRow &row : hot_functions(w, {}).rows) {
    if (row.self) n.self[std::string(row.name)] = row.self;
    if (row.total) n.total_by[std::string(row.name)] = row.total;
  }
  for (const RecordedFile &f : recorded_files(w))
    for (const FileLine &l : file_lines(w, f.file).lines) {
      std::string key = std::string(f.file) + ":" + std::to_string(l.line);
      if (l.self) n.line_self[key] = l.self;
      if (l.total) n.line_total[key] = l.total;
    }
  ThreadsResult tr = thread_weights(idx, v, false);
  EXPECT_TRUE(tr.error.empty()) << tr.error;
  for (const ThreadRow &t : tr.rows)
    if (t.weight)
      n.threads[t.name + (t.os_tid >= 0 ? " tid=" + std::to_string(t.os_tid) : "")] += t.weight;
  return n;
}

View view(const std::string &event, Measure m) {
  View v;
  v.event = event;
  v.measure = m;
  return v;
}

TEST(OtlpQueries, JfrconvCpuWithLinesEqualsTheJfr) {
  auto jfr = load(java_profile("ap-multi.jfr"));
  auto otlp = load(ap_output("ap-multi-cpu-lines.otlp"));
  ASSERT_TRUE(jfr && otlp);
  Numbers want = numbers(*jfr, view("cpu", Measure::count));
  Numbers got = numbers(*otlp, view("cpu", Measure::count));
  EXPECT_EQ(got.total, 672);
  EXPECT_EQ(got.self, want.self);
  EXPECT_EQ(got.total_by, want.total_by);
  EXPECT_EQ(got.line_self, want.line_self);
  EXPECT_EQ(got.line_total, want.line_total);
  EXPECT_EQ(got.threads, want.threads);
  EXPECT_GT(want.line_total.size(), 10u);
  EXPECT_GT(want.line_total.count("org/acme/shop/Pricing.java:15"), 0u);
  // Timestamps: the same time windows and thread filters select the same samples.
  ASSERT_EQ(otlp->profile().metadata.start_time_ns, jfr->profile().metadata.start_time_ns);
  for (auto [from, to] : {std::pair{0.1, 0.4}, std::pair{0.35, 0.9}}) {
    View v = view("cpu", Measure::count);
    v.from_ns = static_cast<int64_t>(jfr->end_ns() * from);
    v.to_ns = static_cast<int64_t>(jfr->end_ns() * to);
    v.threads.names = {"worker-1"};
    Numbers a = numbers(*jfr, v), b = numbers(*otlp, v);
    EXPECT_EQ(b, a) << from << ".." << to;
    EXPECT_GT(a.total, 10);
  }
}

TEST(OtlpQueries, JfrconvAllocCountsEqualTheJfr) {
  auto jfr = load(java_profile("ap-multi.jfr"));
  auto otlp = load(ap_output("ap-multi-alloc.otlp"));
  ASSERT_TRUE(jfr && otlp);
  // jfrconv --alloc without --total writes how many allocations were sampled, not bytes.
  Numbers want = numbers(*jfr, view("alloc", Measure::count));
  Numbers got = numbers(*otlp, view("alloc", Measure::value));
  EXPECT_EQ(got.total, 11099);
  EXPECT_EQ(got.total, want.total);
  EXPECT_EQ(got.self, want.self);
  EXPECT_EQ(got.total_by, want.total_by);
  EXPECT_EQ(got.threads, want.threads);
  // jfrconv writes the line numbers into OTLP with or without --lines.
  EXPECT_EQ(got.line_self, want.line_self);
  EXPECT_EQ(got.line_total, want.line_total);
  EXPECT_GT(got.line_total.count("org/acme/shop/Pricing.java:23"), 0u);
}

TEST(OtlpQueries, RoundTripKeepsEveryNumber) {
  struct Case {
    std::string file;
    std::vector<std::string> events;
  };
  const Case cases[] = {
      {java_profile("ap-multi.jfr"), {"cpu", "alloc", "lock"}},
      {java_profile("ap-wall.jfr"), {"wall"}},
      {java_profile("jdk-alloc-lock.jfr"), {"cpu", "alloc", "alloc-sample", "lock"}},
      {java_profile("ap-cpu-lines-threads.collapsed"), {"samples"}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.file);
    auto a = load(c.file);
    ASSERT_TRUE(a);
    auto b = round_trip(a->profile());
    ASSERT_TRUE(b);
    ASSERT_EQ(b->profile().metadata.format, "otlp");
    for (const std::string &e : c.events)
      for (Measure m : {Measure::count, Measure::value}) {
        Numbers want = numbers(*a, view(e, m));
        EXPECT_GT(want.total, 0) << e;
        Numbers got = numbers(*b, view(e, m));
        EXPECT_EQ(got, want) << e << (m == Measure::count ? " count" : "") << diff(got, want);
      }
    if (a->profile().events[0].samples.has_time()) {
      View v = view(c.events[0], Measure::value);
      v.from_ns = a->end_ns() / 3;
      v.to_ns = a->end_ns() / 2;
      Numbers got = numbers(*b, v), want = numbers(*a, v);
      EXPECT_EQ(got, want) << diff(got, want);
    }
  }
}

TEST(OtlpQueries, RoundTripOfPprofKeepsValuesAndCountsApart) {
  // pprof pairs (samples + cpu, alloc_objects + alloc_space, ...): OTLP has one value per
  // sample type, so the counts go to a second profile, read back as an event of their own.
  struct Case {
    std::string file, event, count_event;
  };
  const Case cases[] = {
      {fixture_path("go-shop/profiles/cpu.pprof"), "cpu", "cpu_count"},
      {fixture_path("go-shop/profiles/mem.pprof"), "alloc", "alloc_objects"},
      {fixture_path("go-shop/profiles/mem.pprof"), "inuse", "inuse_objects"},
      {fixture_path("go-shop/profiles/block.pprof"), "lock", "contentions"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.file + " " + c.event);
    auto a = load(c.file);
    ASSERT_TRUE(a);
    auto b = round_trip(a->profile());
    ASSERT_TRUE(b);
    Numbers want = numbers(*a, view(c.event, Measure::value)),
            got = numbers(*b, view(c.event, Measure::value));
    EXPECT_GT(want.total, 0);
    EXPECT_EQ(got, want) << diff(got, want);
    want = numbers(*a, view(c.event, Measure::count));
    got = numbers(*b, view(c.count_event, Measure::value));
    EXPECT_EQ(got, want) << diff(got, want);
  }
  // A value-only pprof type (jfrconv's allocations/count) keeps its values, under the OTLP
  // reader's name for the type. (The pprof reader keeps jfrconv's Java names as written,
  // `java/lang/Thread.run`; read from OTLP they are JVM frames, `java.lang.Thread.run`, as
  // from JFR, so only the totals compare.)
  auto a = load(java_profile("ap-alloc.pb"));
  ASSERT_TRUE(a);
  auto b = round_trip(a->profile());
  ASSERT_TRUE(b);
  Numbers want = numbers(*a, view("allocations", Measure::value)),
          got = numbers(*b, view("alloc", Measure::value));
  EXPECT_EQ(want.total, 11099);
  EXPECT_EQ(got.total, want.total);
  EXPECT_EQ(got.total_by["java.lang.Thread.run"], want.total_by["java/lang/Thread.run"]);
}

TEST(OtlpQueries, HotlinesAndAsyncProfilerWriteTheSameNumbers) {
  auto jfr = load(java_profile("ap-multi.jfr"));
  ASSERT_TRUE(jfr);
  auto ours = round_trip(jfr->profile());
  auto cpu = load(ap_output("ap-multi-cpu-lines.otlp"));
  auto alloc = load(ap_output("ap-multi-alloc.otlp"));
  ASSERT_TRUE(ours && cpu && alloc);
  EXPECT_EQ(numbers(*ours, view("cpu", Measure::count)),
            numbers(*cpu, view("cpu", Measure::count)));
  Numbers our_alloc = numbers(*ours, view("alloc", Measure::count));
  Numbers their_alloc = numbers(*alloc, view("alloc", Measure::count));
  EXPECT_EQ(our_alloc.total, their_alloc.total);
  EXPECT_EQ(our_alloc.self, their_alloc.self);
  EXPECT_EQ(our_alloc.total_by, their_alloc.total_by);
  EXPECT_EQ(our_alloc.threads, their_alloc.threads);
}

TEST(OtlpQueries, AgentOutputIsHotWhereTheProgramIs) {
  auto idx = load(ap_output("ap-cpu.otlp"));
  ASSERT_TRUE(idx);
  Numbers n = numbers(*idx, view("cpu", Measure::value));
  // Internal consistency: self weights add up to the total; no total exceeds it.
  int64_t self_sum = 0;
  for (auto &[name, w] : n.self) self_sum += w;
  EXPECT_EQ(self_sum, n.total);
  for (auto &[name, w] : n.total_by) EXPECT_LE(w, n.total) << name;
  // The program's known hot spots are the hottest frames: libmSin (Math.sin under
  // Pricing.discount) first by self, then Pricing.cached and Pricing.discount among the top 4;
  // by total the hottest of the program's methods is cached.
  std::vector<std::pair<int64_t, std::string>> by_self, by_total;
  for (auto &[name, w] : n.self) by_self.emplace_back(w, name);
  for (auto &[name, w] : n.total_by)
    if (name.starts_with("org.acme.shop.Pricing.")) by_total.emplace_back(w, name);
  std::sort(by_self.rbegin(), by_self.rend());
  std::sort(by_total.rbegin(), by_total.rend());
  ASSERT_GE(by_self.size(), 4u);
  ASSERT_GE(by_total.size(), 2u);
  EXPECT_EQ(by_self[0].second, "libmSin");
  std::set<std::string> top;
  for (size_t i = 0; i < 4; i++) top.insert(by_self[i].second);
  EXPECT_TRUE(top.count("org.acme.shop.Pricing.cached"));
  EXPECT_TRUE(top.count("org.acme.shop.Pricing.discount"));
  EXPECT_EQ(by_total[0].second, "org.acme.shop.Pricing.cached");
}

} // namespace
