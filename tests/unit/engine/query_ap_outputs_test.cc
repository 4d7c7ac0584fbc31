// async-profiler's HTML pages converted by its jfrconv from ap-multi.jfr answer every query
// exactly as that JFR does: the event's total against tests/oracles/jfr_aggregate.py (the
// JDK's parser), and hot functions (self, total) and per-line tables against our own load of
// the JFR, which query_jfr_oracle_test holds equal to that oracle.
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

namespace {

std::shared_ptr<const ProfileIndex> load(const std::string &file) {
  LoadResult r = load_profile_file(file);
  EXPECT_TRUE(r.ok()) << r.describe();
  if (!r.ok()) return nullptr;
  return ProfileIndex::build(std::shared_ptr<const Profile>(std::move(r.profile)));
}

struct Answers {
  int64_t total = 0;
  std::map<std::string, std::pair<int64_t, int64_t>> functions; // label -> (self, total)
  std::map<std::string, std::pair<int64_t, int64_t>> lines;     // file:line -> (self, total)
  std::vector<std::string> top;                                 // hottest 5 by self
  std::map<std::string, int64_t> threads;                       // name -> weight
};

Answers answers(const ProfileIndex &idx, const std::string &event, Measure m) {
  Answers a;
  View v;
  v.event = event;
  v.measure = m;
  ViewResult r = compute_view(idx, v);
  EXPECT_TRUE(r.ok()) << r.error;
  if (!r.ok()) return a;
  const ViewWeights &w = *r.weights;
  a.total = w.total;
  HotFunctions hot = hot_functions(w, {});
  a.functions = rows_of(hot);
  for (size_t i = 0; i < hot.rows.size() && i < 5; i++) a.top.emplace_back(hot.rows[i].name);
  ThreadsResult tr = thread_weights(idx, v, false);
  EXPECT_TRUE(tr.error.empty()) << tr.error;
  for (const ThreadRow &t : tr.rows) a.threads[t.name] += t.weight;
  for (const RecordedFile &f : recorded_files(w))
    for (const FileLine &l : file_lines(w, f.file).lines)
      a.lines[std::string(f.file) + ":" + std::to_string(l.line)] = {l.self, l.total};
  return a;
}

int64_t oracle_total(const std::string &event, const char *field) {
  int status = 0;
  const std::string out = run_command("python3 '" + oracle_path("jfr_aggregate.py") + "' '" +
                                          java_profile("ap-multi.jfr") + "'",
                                      &status);
  EXPECT_EQ(status, 0);
  nlohmann::json o = nlohmann::json::parse(out, nullptr, false);
  EXPECT_FALSE(o.is_discarded());
  return o.is_discarded() ? -1 : o.at(event).at(field).get<int64_t>();
}

struct Page {
  const char *file, *event;
  Measure measure; // the page's weight: samples (count) or bytes / ns (value)
  bool lines;      // made with --lines
  bool threads;    // made with --threads
};

class JfrconvPage : public ::testing::TestWithParam<Page> {};

TEST_P(JfrconvPage, AnswersEqualTheJfr) {
  const Page &page = GetParam();
  auto html = load(ap_output(page.file));
  auto jfr = load(java_profile("ap-multi.jfr"));
  ASSERT_TRUE(html && jfr);
  const Profile &p = html->profile();
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.str(p.events[0].name), page.event);
  EXPECT_EQ(p.metadata.format, "async-profiler-html");

  const Answers got = answers(*html, page.event, page.measure);
  const Answers want = answers(*jfr, page.event, page.measure);
  EXPECT_EQ(got.total,
            oracle_total(page.event, page.measure == Measure::count ? "count" : "weight"));
  EXPECT_EQ(got.total, want.total);
  EXPECT_EQ(got.functions, want.functions);
  EXPECT_EQ(got.top, want.top);
  if (page.lines) {
    EXPECT_GE(want.lines.size(), 8u);
    EXPECT_EQ(got.lines, want.lines);
  } else {
    EXPECT_TRUE(got.lines.empty()); // a page without --lines records none
  }
  if (page.threads) {
    EXPECT_EQ(got.threads.size(), 3u);
    EXPECT_EQ(got.threads, want.threads);
  } else {
    EXPECT_EQ(got.threads.size(), 1u); // one unnamed thread
  }
}

INSTANTIATE_TEST_SUITE_P(
    AsyncProfilerOutputs, JfrconvPage,
    ::testing::Values(Page{"ap-multi-cpu-lines.html", "cpu", Measure::count, true, false},
                      Page{"ap-multi-cpu-tree.html.gz", "cpu", Measure::count, false, false},
                      Page{"ap-multi-alloc-total.html.gz", "alloc", Measure::value, false, false},
                      Page{"ap-multi-lock-threads-dot.html.gz", "lock", Measure::value, true,
                           true}),
    [](const auto &info) {
      std::string n = info.param.file;
      for (char &ch : n)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return n;
    });

} // namespace
