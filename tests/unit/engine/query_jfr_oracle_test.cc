// Exactness against the JDK's own parser: for every JFR fixture, every event and both
// measures, the engine's hot functions (self, total), per-line tables and per-thread weights
// equal tests/oracles/jfr_aggregate.py (the JDK's `jfr print`, aggregated), restricted by
// its --thread and --from-ns/--to-ns options for filtered views. A one-event load whose
// samples are merged per stack (LoadOptions::merge_samples, as the CLI's one-query commands
// load) gives the same hot rows, totals and sample counts as the full load.
#include "formats/loader.h"
#include "query_test_util.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/query_threads.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace hotlines;
using namespace hotlines::test;
using json = nlohmann::json;

namespace {

json run_oracle(const std::string &file, const std::string &extra = "") {
  std::string cmd = "python3 " + oracle_path("jfr_aggregate.py") + " '" + file + "' " + extra;
  int status = 0;
  std::string out = run_command(cmd, &status);
  EXPECT_EQ(status, 0) << cmd;
  return json::parse(out, nullptr, false);
}

std::shared_ptr<const ProfileIndex> load(const std::string &file) {
  LoadResult r = load_profile_file(file);
  EXPECT_TRUE(r.ok()) << r.describe();
  if (!r.ok()) return nullptr;
  return ProfileIndex::build(std::shared_ptr<const Profile>(std::move(r.profile)));
}

// The oracle's method key of a function: "dotted.Class.method" (raw class, hidden-class
// address and all), "library.name" for native frames, else the name.
std::string oracle_key(const Profile &p, const Function &f) {
  if (f.class_name) {
    std::string c(p.str(f.class_name));
    for (char &ch : c)
      if (ch == '/') ch = '.';
    return c + "." + std::string(p.str(f.method));
  }
  if (f.library) return std::string(p.str(f.library)) + "." + std::string(p.str(f.name));
  return std::string(p.str(f.name));
}

struct Checked {
  size_t functions = 0, lines = 0, merged = 0;
};

// Compares one event of one view (both measures) with the oracle's aggregates `o`.
void compare(const ProfileIndex &idx, const View &base, const std::string &event, const json &o,
             const std::string &what, Checked *checked) {
  const Profile &p = idx.profile();
  for (Measure m : {Measure::count, Measure::value}) {
    SCOPED_TRACE(what + " event " + event + (m == Measure::count ? " count" : " value"));
    View v = base;
    v.event = event;
    v.measure = m;
    ViewResult r = compute_view(idx, v);
    ASSERT_TRUE(r.ok()) << r.error;
    const ViewWeights &w = *r.weights;
    const std::string sfx = m == Measure::count ? "" : "_value";
    EXPECT_EQ(w.total, o[m == Measure::count ? "count" : "weight"].get<int64_t>());

    // Oracle keys grouped by our function labels.
    const FunctionKeys &fk = w.functions();
    std::map<std::string, std::string> label_of_key;
    for (FunctionId f = 0; f < p.functions.size(); f++)
      label_of_key.emplace(oracle_key(p, p.functions[f]), fk.label(fk.key_of_function(f)));
    std::map<std::string, int64_t> want_self;
    std::map<std::string, std::vector<int64_t>> want_total;
    for (auto &[k, n] : o["self" + sfx].items()) {
      ASSERT_TRUE(label_of_key.count(k)) << "oracle method " << k << " unknown to the reader";
      want_self[label_of_key[k]] += n.get<int64_t>();
    }
    for (auto &[k, n] : o["total" + sfx].items()) {
      ASSERT_TRUE(label_of_key.count(k)) << "oracle method " << k << " unknown to the reader";
      want_total[label_of_key[k]].push_back(n.get<int64_t>());
    }
    std::map<std::string, int64_t> got_self, got_total;
    for (const FunctionRow &row : hot_functions(w, {}).rows) {
      if (row.self) got_self[std::string(row.name)] = row.self;
      got_total[std::string(row.name)] = row.total;
    }
    EXPECT_EQ(got_self, want_self);
    EXPECT_EQ(got_total.size(), want_total.size());
    for (auto &[label, totals] : want_total) {
      int64_t sum = 0, max = 0;
      for (int64_t t : totals) {
        sum += t;
        max = std::max(max, t);
      }
      if (totals.size() == 1) {
        EXPECT_EQ(got_total[label], sum) << label;
      } else { // several raw methods share a display name: once per sample lies in between
        EXPECT_GE(got_total[label], max) << label;
        EXPECT_LE(got_total[label], sum) << label;
        checked->merged++;
      }
      checked->functions++;
    }

    // Per-line tables of every recorded file.
    std::map<std::string, int64_t> got_ls, got_lt, want_ls, want_lt;
    for (const RecordedFile &f : recorded_files(w))
      for (const FileLine &l : file_lines(w, f.file).lines) {
        std::string key = std::string(f.file) + ":" + std::to_string(l.line);
        if (l.self) got_ls[key] = l.self;
        if (l.total) got_lt[key] = l.total;
      }
    for (auto &[k, n] : o["lines_self" + sfx].items())
      if (n.get<int64_t>()) want_ls[k] = n.get<int64_t>();
    for (auto &[k, n] : o["lines_total" + sfx].items())
      if (n.get<int64_t>()) want_lt[k] = n.get<int64_t>();
    EXPECT_EQ(got_ls, want_ls);
    EXPECT_EQ(got_lt, want_lt);
    checked->lines += want_lt.size();

    if (m == Measure::count) {
      ThreadsResult tr = thread_weights(idx, v, false);
      ASSERT_TRUE(tr.error.empty()) << tr.error;
      std::map<std::string, int64_t> got_threads, want_threads;
      for (const ThreadRow &t : tr.rows) got_threads[t.name.empty() ? "?" : t.name] += t.weight;
      for (auto &[k, n] : o["threads"].items()) want_threads[k] = n.get<int64_t>();
      EXPECT_EQ(got_threads, want_threads);
    }
  }
}

class JfrOracle : public ::testing::TestWithParam<const char *> {};

TEST_P(JfrOracle, UnfilteredViewsMatch) {
  std::string file = java_profile(GetParam());
  auto idx = load(file);
  ASSERT_NE(idx, nullptr);
  json o = run_oracle(file);
  if (std::string(GetParam()) == "ap-cpu-then-wall-2chunks.jfr") {
    // The JDK's parser mixes the constant pools of the two concatenated recordings (its wall
    // stacks resolve to methods of the cpu recording), so each event is compared with the
    // oracle of the recording it came from.
    o = json::object();
    o["cpu"] = run_oracle(java_profile("ap-cpu.jfr"))["cpu"];
    o["wall"] = run_oracle(java_profile("ap-wall.jfr"))["wall"];
  }
  ASSERT_FALSE(o.is_discarded());
  ASSERT_EQ(o.size(), idx->profile().events.size());
  Checked c;
  for (auto &[event, agg] : o.items()) compare(*idx, {}, event, agg, GetParam(), &c);
  EXPECT_GT(c.functions, 10u);
  EXPECT_GT(c.lines, 5u);
  RecordProperty("functions_checked", static_cast<int>(c.functions));
  RecordProperty("lines_checked", static_cast<int>(c.lines));
  RecordProperty("merged_names", static_cast<int>(c.merged));
}

// What a one-query command loads (CliInput: one event, no threads or times, samples merged
// per stack): the same views as a full load, sample count and all.
TEST_P(JfrOracle, MergedOneEventLoadsGiveTheSameViews) {
  std::string file = java_profile(GetParam());
  auto full = load(file);
  ASSERT_NE(full, nullptr);
  size_t compared = 0;
  for (size_t i = 0; i < full->profile().events.size() * 2; i++) {
    const std::string event(full->profile().str(full->profile().events[i / 2].name));
    LoadOptions o;
    o.only_event = event;
    o.sample_threads = o.sample_times = false;
    o.merge_samples = true;
    o.jfr_merged_keys = i % 2 ? 16 : 0; // some stacks in a row per sample too
    LoadResult r = load_profile_file(file, o);
    ASSERT_TRUE(r.ok()) << r.describe();
    auto one = ProfileIndex::build(std::shared_ptr<const Profile>(std::move(r.profile)));
    for (Measure m : {Measure::count, Measure::value}) {
      SCOPED_TRACE(std::string(GetParam()) + " " + event + (m == Measure::count ? " count" : ""));
      View v;
      v.event = event;
      v.measure = m;
      ViewResult a = compute_view(*full, v), b = compute_view(*one, v);
      ASSERT_TRUE(a.ok() && b.ok());
      EXPECT_EQ(b.weights->total, a.weights->total);
      EXPECT_EQ(b.weights->samples, a.weights->samples);
      std::vector<std::tuple<std::string, int64_t, int64_t>> ra, rb;
      for (const FunctionRow &row : hot_functions(*a.weights, {}).rows)
        ra.emplace_back(row.name, row.self, row.total);
      for (const FunctionRow &row : hot_functions(*b.weights, {}).rows)
        rb.emplace_back(row.name, row.self, row.total);
      std::sort(ra.begin(), ra.end());
      std::sort(rb.begin(), rb.end());
      EXPECT_EQ(rb, ra);
      for (const Event &e : one->profile().events) compared += e.merged;
    }
  }
  const std::string name = GetParam();
  if (name == "jdk-alloc-lock.jfr" || name == "ap-multi.jfr") {
    EXPECT_GT(compared, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, JfrOracle,
                         ::testing::Values("ap-cpu.jfr", "ap-wall.jfr", "ap-multi.jfr",
                                           "jdk-profile.jfr", "jdk-alloc-lock.jfr",
                                           "ap-cpu-then-wall-2chunks.jfr"),
                         [](const auto &info) {
                           std::string n = info.param;
                           for (char &ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// Thread filters, thread-state filters and time windows, against the oracle restricted by hand.
TEST(JfrOracleFiltered, ThreadFilterStatesAndWindows) {
  struct Case {
    const char *file, *thread;
    double from_frac, to_frac; // window as fractions of the profile span; <0: none
    const char *states = nullptr;
  };
  const Case cases[] = {
      {"ap-cpu.jfr", "worker-1", -1, -1},
      {"ap-wall.jfr", nullptr, 0.25, 0.6},
      {"ap-multi.jfr", "worker-0", 0.1, 0.7},
      {"jdk-alloc-lock.jfr", nullptr, 0.3, 0.9},
      {"ap-wall.jfr", nullptr, -1, -1, "RUNNABLE"},
      {"ap-wall.jfr", "worker-2", 0.2, 0.8, "sleeping"},
      {"jdk-alloc-lock.jfr", nullptr, -1, -1, "STATE_RUNNABLE"},
  };
  for (const Case &k : cases) {
    std::string file = java_profile(k.file);
    auto idx = load(file);
    ASSERT_NE(idx, nullptr);
    const Profile &p = idx->profile();
    ASSERT_GT(p.metadata.start_time_ns, 0);
    View v;
    std::string extra;
    if (k.thread) {
      v.threads.names = {k.thread};
      extra += std::string(" --thread '") + k.thread + "'";
    }
    if (k.states) {
      v.states = {k.states};
      extra += std::string(" --state ") + k.states;
    }
    if (k.from_frac >= 0) {
      int64_t span = idx->end_ns();
      v.from_ns = static_cast<int64_t>(span * k.from_frac);
      v.to_ns = static_cast<int64_t>(span * k.to_frac);
      extra += " --from-ns " + std::to_string(p.metadata.start_time_ns + *v.from_ns) + " --to-ns " +
               std::to_string(p.metadata.start_time_ns + *v.to_ns);
    }
    json o = run_oracle(file, extra);
    ASSERT_FALSE(o.is_discarded());
    Checked c;
    size_t events = 0;
    for (auto &[event, agg] : o.items()) {
      compare(*idx, v, event, agg, std::string(k.file) + extra, &c);
      events++;
    }
    EXPECT_GT(events, 0u) << k.file;
    // Events the filters emptied are absent from the oracle: ours are empty too, or, for a
    // state filter on an event without states, refused.
    for (const Event &e : p.events) {
      std::string name(p.str(e.name));
      if (o.contains(name)) continue;
      View ev = v;
      ev.event = name;
      ViewResult r = compute_view(*idx, ev);
      if (k.states && e.samples.state.empty()) {
        EXPECT_NE(r.error.find("records no thread states"), std::string::npos) << r.error;
        continue;
      }
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r.weights->total, 0) << k.file << " " << name;
    }
  }
}

} // namespace
