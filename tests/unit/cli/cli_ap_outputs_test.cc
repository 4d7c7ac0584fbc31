// CLI tests for async-profiler's HTML and text outputs through the real binary: `info` names
// each format, a jfrconv page's hot lines equal those of the JFR it was made from, and a flat
// list (self weights only) answers self and says totals and trees are unavailable.
#include "cli_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace hotlines::test;
using json = nlohmann::json;

namespace {

TEST(CliApOutputs, InfoNamesEachFormat) {
  const std::pair<const char *, const char *> files[] = {
      {"ap-multi-cpu-lines.html", "async-profiler-html"},
      {"ap-cpu-tree.html.gz", "async-profiler-html"},
      {"ap-cpu-traces.txt.gz", "async-profiler-text"},
      {"ap-cpu-flat.txt", "async-profiler-text"}};
  for (const auto &[file, format] : files) {
    CliRun r = hotlines_cli("info " + ap_output(file) + " --json");
    ASSERT_EQ(r.status, 0) << file << ": " << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["format"], format) << file;
    EXPECT_EQ(j["self_only"], std::string(file) == "ap-cpu-flat.txt") << file;
  }
  CliRun r = hotlines_cli("info " + ap_output("ap-multi-heatmap.html.gz"));
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("heatmap"), std::string::npos) << r.err;
}

// The editor's question, asked of the page alone: Pricing.java's lines as the JFR has them.
TEST(CliApOutputs, PageLinesEqualTheJfrs) {
  CliRun a =
      hotlines_cli("lines " + ap_output("ap-multi-cpu-lines.html") + " --file Pricing.java --json");
  CliRun b =
      hotlines_cli("lines " + java_profile("ap-multi.jfr") + " -e cpu --file Pricing.java --json");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  json ja = json::parse(a.out), jb = json::parse(b.out);
  EXPECT_EQ(ja["file"], "org/acme/shop/Pricing.java");
  EXPECT_GE(ja["lines"].size(), 5u);
  EXPECT_EQ(ja["lines"], jb["lines"]);
  EXPECT_EQ(ja["view"]["total"], jb["view"]["total"]);
}

TEST(CliApOutputs, FlatListHasSelfButNoTotals) {
  const std::string flat = ap_output("ap-cpu-flat.txt");
  CliRun r = hotlines_cli("hot " + flat + " --json --top 3");
  ASSERT_EQ(r.status, 0) << r.err;
  json j = json::parse(r.out);
  // The file's first row: `1506323000   49.50%      750  libmSin`.
  EXPECT_EQ(j["functions"][0]["name"], "libmSin");
  EXPECT_EQ(j["functions"][0]["self"], 1506323000);
  EXPECT_TRUE(j["functions"][0]["total"].is_null());
  EXPECT_TRUE(j["functions"][0]["total_pct"].is_null());
  r = hotlines_cli("hot " + flat + " --top 3");
  EXPECT_NE(r.out.find("n/a"), std::string::npos) << r.out;
  for (const char *cmd : {"hot --total", "tree", "trace", "callers -m libmSin"}) {
    SCOPED_TRACE(cmd);
    std::string c(cmd);
    const size_t sp = c.find(' ');
    r = hotlines_cli(c.substr(0, sp) + " " + flat + (sp == std::string::npos ? "" : c.substr(sp)));
    EXPECT_EQ(r.status, 3);
    EXPECT_NE(r.err.find("totals and call trees are unavailable"), std::string::npos) << r.err;
  }
  r = hotlines_cli("flamegraph " + flat + " -o " + temp_dir() + "/flat.html");
  EXPECT_EQ(r.status, 3);
  // A full profile of the same program answers them.
  EXPECT_EQ(hotlines_cli("tree " + ap_output("ap-cpu-traces.txt.gz")).status, 0);
}

} // namespace
