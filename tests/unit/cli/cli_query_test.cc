// CLI tests for the read-only query commands (hot, lines, tree, callers, trace, threads,
// events, info): the real binary on a small collapsed profile with exact expected text, the
// JSON fields, flag errors and exit codes, and spot checks on the JFR fixtures.
#include "cli_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

using namespace hotlines::test;
using json = nlohmann::json;

namespace {

// 10 samples: main 9 (calc 6 on line 10, work 3 on line 20), worker-1 1 (work line 21).
std::string small() {
  static std::string path =
      write_temp("small.collapsed", "[main tid=1];p/Main.main:5_[j];p/Calc.calc:10_[j] 6\n"
                                    "[main tid=1];p/Main.main:5_[j];p/Work.work:20_[j] 3\n"
                                    "[worker-1 tid=2];p/Main.main:5_[j];p/Work.work:21_[j] 1\n");
  return path;
}

std::string without_first_line(const std::string &s) {
  return s.substr(s.find('\n') + 1);
}

TEST(CliQuery, HotPrintsAnAlignedTable) {
  CliRun r = hotlines_cli("hot " + small());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "event samples, 10 samples  (" + small() +
                       ")\n"
                       "self   self%  total   total%  function\n"
                       "   6  60.00%      6   60.00%  p.Calc.calc\n"
                       "   4  40.00%      4   40.00%  p.Work.work\n"
                       "   0   0.00%     10  100.00%  p.Main.main\n");
  r = hotlines_cli("hot " + small() + " --total --top 1 -t main");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "event samples, 9 samples  thread~main  (" + small() +
                       ")\n"
                       "self  self%  total   total%  function\n"
                       "   0  0.00%      9  100.00%  p.Main.main\n"
                       "(2 more; --top N shows more)\n");
}

TEST(CliQuery, HotJsonFields) {
  CliRun r = hotlines_cli("hot --json " + small() + " --lines");
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["command"], "hot");
  EXPECT_EQ(j["view"]["event"], "samples");
  EXPECT_EQ(j["view"]["measure"], "value");
  EXPECT_EQ(j["view"]["total"], 10);
  ASSERT_EQ(j["lines"].size(), 4u);
  EXPECT_EQ(j["lines"][0]["function"], "p.Calc.calc");
  EXPECT_EQ(j["lines"][0]["file"], "p/Calc.java");
  EXPECT_EQ(j["lines"][0]["line"], 10);
  EXPECT_EQ(j["lines"][0]["self"], 6);
  EXPECT_DOUBLE_EQ(j["lines"][0]["self_pct"].get<double>(), 60.0);
}

TEST(CliQuery, AssertBelowGatesOnTheTopSelfPercent) {
  CliRun r = hotlines_cli("hot " + small() + " --assert-below 60");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "ASSERT FAILED: p.Calc.calc self=60.00% >= 60.00%\n");
  r = hotlines_cli("hot " + small() + " --assert-below 60.01 --json");
  EXPECT_EQ(r.status, 0);
  json j = json::parse(r.out);
  EXPECT_EQ(j["assert"]["passed"], true);
  EXPECT_EQ(j["assert"]["top"], "p.Calc.calc");
}

TEST(CliQuery, LinesOfAMethodAndOfAFile) {
  CliRun r = hotlines_cli("lines " + small() + " -m Work.work");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(without_first_line(r.out), "\np.Work.work  (p/Work.java)\n"
                                       "line  self   self%  total  total%\n"
                                       "  20     3  30.00%      3  30.00%\n"
                                       "  21     1  10.00%      1  10.00%\n");
  r = hotlines_cli("lines " + small() + " --file p/Main.java --json");
  ASSERT_EQ(r.status, 0);
  json j = json::parse(r.out);
  EXPECT_EQ(j["file"], "p/Main.java");
  EXPECT_EQ(j["total"], 10);
  ASSERT_EQ(j["lines"].size(), 1u);
  EXPECT_EQ(j["lines"][0]["line"], 5);
  EXPECT_EQ(j["lines"][0]["total"], 10);
  r = hotlines_cli("lines " + small() + " --file p/Nope.java");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("no recorded file 'p/Nope.java'"), std::string::npos) << r.err;
  r = hotlines_cli("lines " + small() + " --files");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("100.00%     0   0.00%  p/Main.java"), std::string::npos) << r.out;
}

TEST(CliQuery, TreeCallersTrace) {
  CliRun r = hotlines_cli("tree " + small());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(without_first_line(r.out), "total   total%  self   self%  function\n"
                                       "   10  100.00%     0   0.00%  p.Main.main\n"
                                       "    6   60.00%     6  60.00%    p.Calc.calc\n"
                                       "    4   40.00%     4  40.00%    p.Work.work\n");
  r = hotlines_cli("tree " + small() + " --lines --depth 2 --min-pct 20");
  EXPECT_EQ(without_first_line(r.out), "total   total%  self   self%  function\n"
                                       "   10  100.00%     0   0.00%  p.Main.main:5\n"
                                       "    6   60.00%     6  60.00%    p.Calc.calc:10\n"
                                       "    3   30.00%     3  30.00%    p.Work.work:20\n");
  r = hotlines_cli("callers " + small() + " -m work");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(without_first_line(r.out), "callers of 'work': 4 (40.00%)\n"
                                       "total  total%  self   self%  function\n"
                                       "    4  40.00%     4  40.00%  p.Work.work\n"
                                       "    4  40.00%     0   0.00%    p.Main.main\n");
  r = hotlines_cli("callers " + small() + " --line p/Work.java:21 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["anchor_total"], 1);
  ASSERT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(j["nodes"][1]["name"], "p.Main.main");
  EXPECT_EQ(j["nodes"][1]["parent"], 0);
  EXPECT_TRUE(j["nodes"][0]["parent"].is_null());
  EXPECT_EQ(j["nodes"][1]["file"], "p/Main.java");
  EXPECT_EQ(j["nodes"][1]["line"], 5);
  EXPECT_EQ(j["nodes"][1]["kind"], "jit");
  r = hotlines_cli("trace " + small());
  EXPECT_EQ(without_first_line(r.out), "total   total%  self   self%  function\n"
                                       "   10  100.00%     0   0.00%  p.Main.main\n"
                                       "    6   60.00%     6  60.00%    p.Calc.calc\n");
  r = hotlines_cli("callers " + small());
  EXPECT_EQ(r.status, 2);
}

TEST(CliQuery, NoMatchSuggestsClosestNames) {
  CliRun r = hotlines_cli("tree " + small() + " -m Calc.clac");
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err, "hotlines: no function matches 'Calc.clac'; closest:\n  p.Calc.calc\n");
  r = hotlines_cli("hot " + small() + " -m Wrok --json");
  EXPECT_EQ(r.status, 3);
  json j = json::parse(r.out);
  EXPECT_EQ(j["exit_code"], 3);
  EXPECT_EQ(j["closest"][0], "p.Work.work");
}

TEST(CliQuery, ThreadsEventsInfo) {
  CliRun r = hotlines_cli("threads " + small());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(without_first_line(r.out), "weight     pct  threads  tid  name\n"
                                       "     9  90.00%        1    1  main\n"
                                       "     1  10.00%        1    2  worker-1\n");
  r = hotlines_cli("events " + small());
  EXPECT_EQ(r.out, "event      count  value  unit     time  sources\n"
                   "samples *     10     10  samples  no    collapsed\n"
                   "(* the default event)\n");
  r = hotlines_cli("info " + small() + " --json");
  ASSERT_EQ(r.status, 0);
  json j = json::parse(r.out);
  EXPECT_EQ(j["format"], "collapsed");
  EXPECT_EQ(j["samples"], 3);
  EXPECT_EQ(j["hot"][0]["name"], "p.Calc.calc");
  EXPECT_EQ(j["thread_groups"].size(), 2u);
}

// `info` names each event's JFR sources (which estimate alloc took) and the samples recorded
// without a stack, which `hot` shows as the frame `[no stack]`.
TEST(CliQuery, InfoNamesSourcesAndSamplesWithoutAStack) {
  const std::string file = java_profile("jdk-alloc-lock.jfr");
  CliRun r = hotlines_cli("info " + file + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  std::map<std::string, json> events;
  for (const json &e : j["events"]) events[e["name"]] = e;
  EXPECT_EQ(events["alloc"]["sources"], json::array({"jdk.ObjectAllocationInNewTLAB"}));
  EXPECT_EQ(events["alloc-sample"]["sources"], json::array({"jdk.ObjectAllocationSample"}));
  EXPECT_EQ(events["alloc"]["stackless"], 2);
  EXPECT_EQ(events["alloc-sample"]["stackless"], 1);
  EXPECT_EQ(events["cpu"]["stackless"], 0);
  r = hotlines_cli("info " + file);
  EXPECT_NE(r.out.find("alloc: 2 of 2586 samples have no stack (0.08%), shown as [no stack]\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("jdk.ObjectAllocationInNewTLAB\n"), std::string::npos) << r.out;
  r = hotlines_cli("hot " + file + " -e alloc --count --top 1000 --json");
  bool shown = false;
  j = json::parse(r.out);
  for (const json &f : j["functions"])
    if (f["name"] == "[no stack]") {
      shown = true;
      EXPECT_EQ(f["self"], 2);
      EXPECT_EQ(f["total"], 2);
    }
  EXPECT_TRUE(shown);
}

// Thread states: listed with their sample counts by `info` and `threads`, selected by --state.
// The numbers are the JDK parser's (jfr_aggregate.py --state, query_jfr_oracle_test).
TEST(CliQuery, ThreadStatesAreListedAndSelect) {
  const std::string file = java_profile("ap-wall.jfr");
  CliRun r = hotlines_cli("info " + file);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wall thread states: SLEEPING 12655 (88.30%), RUNNABLE 1677 (11.70%)\n"),
            std::string::npos)
      << r.out;
  r = hotlines_cli("threads " + file + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_EQ(j["states"].size(), 2u);
  EXPECT_EQ(j["states"][0]["name"], "SLEEPING");
  EXPECT_EQ(j["states"][0]["count"], 12655);
  EXPECT_EQ(j["states"][0]["samples"], 1118); // events, each of several samples
  EXPECT_EQ(j["states"][1]["name"], "RUNNABLE");
  EXPECT_EQ(j["states"][1]["count"], 1677);
  for (const char *state : {"runnable", "STATE_RUNNABLE", "Runnable,runnable"}) {
    r = hotlines_cli("hot " + file + " --state " + state + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    j = json::parse(r.out);
    EXPECT_EQ(j["view"]["total"], 1677) << state;
    EXPECT_EQ(j["view"]["filters"]["states"].size(),
              std::string(state).find(',') != std::string::npos ? 2u : 1u);
  }
  r = hotlines_cli("hot " + file + " --state RUNNABLE,SLEEPING --json");
  EXPECT_EQ(json::parse(r.out)["view"]["total"], 14332);
  r = hotlines_cli("hot " + file + " --state blocked");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("no thread state 'blocked' in the profile (states: SLEEPING, RUNNABLE)"),
            std::string::npos)
      << r.err;
  r = hotlines_cli("hot " + java_profile("jdk-alloc-lock.jfr") + " -e alloc --state runnable");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("event alloc records no thread states, so --state cannot apply"),
            std::string::npos)
      << r.err;
}

// Every JFR type with a stack by its full name: the JDK's own types the table does not map
// load under their names (listed by `info` with a warning), and a mapped type's name selects
// what it fed (jdk.ObjectAllocationSample is alloc-sample here, beside the TLAB events).
// The numbers are the JDK parser's (jfr_aggregate.py, query_jfr_oracle_test).
TEST(CliQuery, JfrTypesSelectByTheirNames) {
  CliRun r = hotlines_cli("info " + java_profile("jdk-profile.jfr"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("load as events of their own names (select one with its full name): "
                       "jdk.ThreadStart (7 events), jdk.JavaErrorThrow (2 events), "
                       "jdk.Deoptimization (6 events), jdk.OldObjectSample (1 event)"),
            std::string::npos)
      << r.out;
  r = hotlines_cli("hot " + java_profile("jdk-profile.jfr") + " -e jdk.ThreadStart --json");
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["view"]["total"], 7);
  const std::string file = java_profile("jdk-alloc-lock.jfr");
  r = hotlines_cli("hot " + file + " -e jdk.ObjectAllocationSample --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["view"]["total"], 3214560040);
  r = hotlines_cli("hot " + file + " -e jdk.JavaMonitorEnter --count --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["view"]["total"], 3964);
  r = hotlines_cli("hot " + file + " -e jdk.NoSuchType");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(
      r.err.find(
          "no event 'jdk.NoSuchType' in the profile (events: lock, alloc-sample, alloc, cpu)"),
      std::string::npos)
      << r.err;
}

TEST(CliQuery, UsageAndInputErrors) {
  EXPECT_EQ(hotlines_cli("hot").status, 2);
  EXPECT_EQ(hotlines_cli("hot " + small() + " --frob").status, 2);
  EXPECT_EQ(hotlines_cli("hot " + small() + " --top x").status, 2);
  EXPECT_EQ(hotlines_cli("hot " + small() + " --from 2parsecs").status, 2);
  EXPECT_EQ(hotlines_cli("hot /nonexistent/file.jfr").status, 3);
  CliRun r = hotlines_cli("hot " + small() + " -e cpu");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("no event 'cpu' in the profile (events: samples)"), std::string::npos)
      << r.err;
  r = hotlines_cli("hot " + small() + " --from 1s");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("no sample timestamps"), std::string::npos) << r.err;
  r = hotlines_cli("hot --help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("--assert-below"), std::string::npos);
}

TEST(CliQuery, HostilePatternsAreUsageErrors) {
  std::string deep = std::string(30000, '(') + "a" + std::string(30000, ')');
  CliRun r = hotlines_cli("hot " + small() + " --include '" + deep + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.substr(0, 40), "hotlines: include: bad pattern '((((((((");
  EXPECT_NE(r.err.find("longer than 4096 bytes (60001)"), std::string::npos) << r.err;
  r = hotlines_cli("hot " + small() + " -m 'a(?=b)'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "hotlines: -m: bad pattern 'a(?=b)': invalid perl operator: (?= (patterns are "
                   "RE2 syntax)\n");
  r = hotlines_cli("tree " + small() + " -t '(a)\\1'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("threads: bad pattern '(a)\\1': invalid escape sequence"), std::string::npos)
      << r.err;
  // Backtracking patterns are fine: RE2 matches in linear time.
  r = hotlines_cli("hot " + small() + " --hide '^(.*.*.*)*#$' -m '^p\\.(Calc|Work)\\.'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("p.Calc.calc"), std::string::npos);
  EXPECT_NE(r.out.find("p.Work.work"), std::string::npos);
}

TEST(CliQuery, JfrFixtures) {
  std::string cpu = java_profile("ap-cpu.jfr");
  CliRun r = hotlines_cli("hot " + cpu + " --top 3");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(without_first_line(r.out), "self   self%  total  total%  function\n"
                                       "1208  47.75%   1216  48.06%  libmSin\n"
                                       " 241   9.53%    252   9.96%  java.lang.Integer.getChars\n"
                                       " 182   7.19%   1299  51.34%  org.acme.shop.Pricing.cached\n"
                                       "(569 more; --top N shows more)\n");
  // Units: bytes for allocations, time for locks.
  r = hotlines_cli("hot " + java_profile("ap-multi.jfr") + " -e alloc --top 1");
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "event alloc, 2.71 GiB  (" + java_profile("ap-multi.jfr") + ")");
  EXPECT_NE(r.out.find("1.24 GiB  45.62%"), std::string::npos) << r.out;
  r = hotlines_cli("hot " + java_profile("ap-multi.jfr") + " -e lock --top 1");
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "event lock, 2.18 s  (" + java_profile("ap-multi.jfr") + ")");
  r = hotlines_cli("hot " + java_profile("ap-multi.jfr") + " -e alloc --count --top 1 --json");
  EXPECT_EQ(json::parse(r.out)["view"]["total"], 11099);
  // Per-line table of Pricing.java: line 15 is the CPU hot spot.
  r = hotlines_cli("lines " + cpu + " --file org/acme/shop/Pricing.java --json");
  json j = json::parse(r.out);
  bool found = false;
  for (const json &l : j["lines"])
    if (l["line"] == 15) {
      found = true;
      EXPECT_EQ(l["self"], 105);
      EXPECT_EQ(l["total"], 650);
    }
  EXPECT_TRUE(found);
  // A thread filter and a window.
  r = hotlines_cli("hot " + cpu + " -t worker --from 1s --to 2s --json --top 1");
  j = json::parse(r.out);
  EXPECT_EQ(j["view"]["filters"]["from_ns"], 1000000000);
  EXPECT_EQ(j["view"]["filters"]["threads"][0], "worker");
  EXPECT_EQ(j["view"]["total"], 679);
  // A one-event command reads the samples' threads and times only when a filter needs them:
  // each filter alone is exact too (worker-* threads 1841 below, the window 877 samples as in
  // queries.transcript), and without filters nothing is left out.
  EXPECT_EQ(json::parse(hotlines_cli("hot " + cpu + " -t worker --json").out)["view"]["total"],
            1841);
  EXPECT_EQ(
      json::parse(hotlines_cli("hot " + cpu + " --from 1s --to 2s --json").out)["view"]["total"],
      877);
  EXPECT_EQ(json::parse(hotlines_cli("hot " + cpu + " --json").out)["view"]["total"], 2530);
  // Thread groups.
  r = hotlines_cli("threads " + cpu);
  EXPECT_EQ(without_first_line(r.out), "weight     pct  threads    tid  name\n"
                                       "  1841  72.77%        3         worker-*\n"
                                       "   599  23.68%        1  24669  DestroyJavaVM\n"
                                       "    61   2.41%        1  24709  C2 CompilerThre\n"
                                       "    18   0.71%        1  24710  C1 CompilerThre\n"
                                       "     8   0.32%        2         GC Thread#*\n"
                                       "     3   0.12%        1  24694  VM Thread\n");
  // --no-idle on wall drops the futex waits.
  r = hotlines_cli("hot " + java_profile("ap-wall.jfr") + " --no-idle --top 1 --json");
  j = json::parse(r.out);
  EXPECT_LT(j["view"]["total"].get<int64_t>(), 14332 - 13000);
  EXPECT_NE(j["functions"][0]["name"], "__futex_abstimed_wait_common");
}

} // namespace

TEST(CliQuery, ServeRejectsABadMessageLimit) {
  for (const char *bad : {"abc", "-1", "0", "12x"}) {
    CliRun r = hotlines_cli(std::string("serve --max-message-bytes ") + bad + " </dev/null");
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--max-message-bytes takes a positive byte count"), std::string::npos)
        << r.err;
  }
  CliRun missing = hotlines_cli("serve --max-message-bytes </dev/null");
  EXPECT_EQ(missing.status, 2);
}
