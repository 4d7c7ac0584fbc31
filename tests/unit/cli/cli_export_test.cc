// CLI tests for timeline, diff, filter and collapse: the real binary on small collapsed
// profiles (exact text) and on the JFR fixtures (bucket sums, windows, round trips).
#include "cli_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace hotlines::test;
using json = nlohmann::json;

namespace {

std::string without_first_lines(std::string s, int n) {
  while (n-- > 0) s = s.substr(s.find('\n') + 1);
  return s;
}

TEST(CliExport, CollapseAndFilter) {
  std::string in =
      write_temp("export.collapsed", "[main tid=1];p/Main.main:5_[j];p/Calc.calc:10_[j] 6\n"
                                     "[main tid=1];p/Main.main:5_[j];p/Work.work:20_[j] 3\n"
                                     "[worker-1 tid=2];p/Main.main:5_[j];p/Work.work:21_[j] 1\n");
  CliRun r = hotlines_cli("collapse " + in);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "p/Main.main;p/Calc.calc 6\n"
                   "p/Main.main;p/Work.work 4\n");
  r = hotlines_cli("collapse " + in + " --threads --lines --kinds -t worker");
  EXPECT_EQ(r.out, "[worker-1 tid=2];p/Main.main:5_[j];p/Work.work:21_[j] 1\n");
  r = hotlines_cli("filter " + in + " -m Calc --lines");
  EXPECT_EQ(r.out, "p/Main.main:5;p/Calc.calc:10 6\n");
  r = hotlines_cli("filter " + in + " --hide Main.main --json");
  EXPECT_EQ(r.status, 2); // filter needs a method
  r = hotlines_cli("collapse " + in + " --hide Main.main --json");
  json j = json::parse(r.out);
  ASSERT_EQ(j["stacks"].size(), 2u);
  EXPECT_EQ(j["stacks"][0]["stack"], "p/Calc.calc");
  EXPECT_EQ(j["stacks"][0]["weight"], 6);
  std::string out = temp_dir() + "/out.collapsed";
  r = hotlines_cli("collapse " + in + " -o " + out);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_file(out), "p/Main.main;p/Calc.calc 6\np/Main.main;p/Work.work 4\n");
  r = hotlines_cli("filter " + in + " -m Nope");
  EXPECT_EQ(r.status, 3);
}

TEST(CliExport, CollapseOfAJfrRoundTrips) {
  std::string jfr = java_profile("ap-multi.jfr");
  std::string out = temp_dir() + "/alloc.collapsed";
  CliRun r = hotlines_cli("collapse " + jfr + " -e alloc --lines -o " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  CliRun a = hotlines_cli("hot " + jfr + " -e alloc --json --top 5");
  CliRun b = hotlines_cli("hot " + out + " --json --top 5");
  json ja = json::parse(a.out), jb = json::parse(b.out);
  EXPECT_EQ(ja["view"]["total"], jb["view"]["total"]);
  for (size_t i = 0; i < 5; i++) {
    EXPECT_EQ(ja["functions"][i]["self"], jb["functions"][i]["self"]);
    EXPECT_EQ(ja["functions"][i]["total"], jb["functions"][i]["total"]);
  }
}

TEST(CliExport, DiffOfTwoProfilesAndTwoWindows) {
  std::string before = write_temp("before.collapsed", "a;b 5\na;c 3\na;old 2\n");
  std::string after = write_temp("after.collapsed", "a;b 6\na;c 2\na;new 2\n");
  CliRun r = hotlines_cli("diff " + before + " " + after);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(without_first_lines(r.out, 2), "before self%  after self%   delta  status   function\n"
                                           "       0.00%       20.00%  +20.00  new      new\n"
                                           "      20.00%        0.00%  -20.00  gone     old\n"
                                           "      50.00%       60.00%  +10.00  changed  b\n"
                                           "      30.00%       20.00%  -10.00  changed  c\n");
  r = hotlines_cli("diff " + before + " " + after + " --min-delta 15 --json");
  json j = json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["name"], "new");
  EXPECT_EQ(j["rows"][0]["status"], "new");
  EXPECT_DOUBLE_EQ(j["rows"][0]["delta_pct"].get<double>(), 20.0);

  std::string cpu = java_profile("ap-cpu.jfr");
  r = hotlines_cli("diff " + cpu + " --before ..1s --after 1s.. --json");
  ASSERT_EQ(r.status, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_EQ(j["before"]["filters"]["to_ns"], 1000000000);
  EXPECT_EQ(j["after"]["filters"]["from_ns"], 1000000000);
  EXPECT_EQ(j["before"]["total"].get<int64_t>() + j["after"]["total"].get<int64_t>(), 2530);
  r = hotlines_cli("diff " + cpu + " --before 1s");
  EXPECT_EQ(r.status, 2);
  r = hotlines_cli("diff " + cpu + " " + java_profile("ap-multi.jfr") +
                   " --file org/acme/shop/Pricing.java --json");
  j = json::parse(r.out);
  ASSERT_GT(j["rows"].size(), 0u);
  EXPECT_TRUE(j["rows"][0].contains("line"));
  // A file named by its trailing components; rows name the function at the line. Line 32 has
  // 181 of 2530 samples before and 59 of 672 after (the JFR oracle's lines_self).
  r = hotlines_cli("diff " + cpu + " " + java_profile("ap-multi.jfr") +
                   " --file Pricing.java --json");
  ASSERT_EQ(r.status, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_EQ(j["file"], "org/acme/shop/Pricing.java");
  ASSERT_GT(j["rows"].size(), 0u);
  EXPECT_EQ(j["rows"][0]["line"], 32);
  EXPECT_EQ(j["rows"][0]["name"], "org.acme.shop.Pricing.cached");
  EXPECT_EQ(j["rows"][0]["before"], 181);
  EXPECT_EQ(j["rows"][0]["after"], 59);
  r = hotlines_cli("diff " + cpu + " " + java_profile("ap-multi.jfr") + " --file Pricing.java");
  EXPECT_NE(r.out.find("org/acme/shop/Pricing.java:15  org.acme.shop.Pricing.discount"),
            std::string::npos)
      << r.out;
  r = hotlines_cli("diff " + cpu + " " + java_profile("ap-multi.jfr") + " --file Nope.java");
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("no recorded file 'Nope.java' in either profile"), std::string::npos)
      << r.err;
  // The same naming for `lines --file`.
  r = hotlines_cli("lines " + cpu + " --file shop/Pricing.java --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["file"], "org/acme/shop/Pricing.java");
}

TEST(CliExport, TimelineBucketsPeaksAndCompare) {
  std::string two = java_profile("ap-cpu-then-wall-2chunks.jfr");
  CliRun r = hotlines_cli("timeline " + two + " --buckets 5 --json --compare wall");
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  ASSERT_EQ(j["buckets"].size(), 5u);
  int64_t sum = 0, wall = 0;
  for (const json &b : j["buckets"]) {
    sum += b["weight"].get<int64_t>();
    wall += b["compare_weight"].get<int64_t>();
  }
  EXPECT_EQ(sum, 2530);
  EXPECT_EQ(wall, 14332);
  EXPECT_EQ(j["compare_total"], 14332);
  EXPECT_EQ(j["buckets"][0]["hot_function"], "libmSin");
  r = hotlines_cli("timeline " + java_profile("ap-cpu.jfr") +
                   " --resolution 500ms --from 1s --to 2s");
  EXPECT_EQ(r.status, 0);
  std::string text = without_first_lines(r.out, 3);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << r.out; // two 500 ms buckets
  EXPECT_EQ(text.substr(0, 14), "1.000s  1.500s");
  r = hotlines_cli("timeline " + java_profile("ap-cpu.jfr") + " --resolution fast");
  EXPECT_EQ(r.status, 2);
  r = hotlines_cli("timeline " + write_temp("nt.collapsed", "a 1\n"));
  EXPECT_EQ(r.status, 3);
}

TEST(CliExport, HelpListsEveryCommand) {
  CliRun r = hotlines_cli("--help");
  for (const char *c : {"info", "hot", "lines", "tree", "callers", "trace", "threads", "events",
                        "timeline", "diff", "filter", "collapse", "convert"})
    EXPECT_NE(r.out.find(std::string("  ") + c + " "), std::string::npos) << c;
}

} // namespace
