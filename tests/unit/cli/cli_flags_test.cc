// Tests for the CLI flag parser: durations, relative and absolute times, common and
// command flags, `--flag=value`, errors, and the View the flags describe.
#include "query_test_util.h"
#include "server/cli/flags.h"
#include "server/engine/units.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

TEST(CliFlags, Durations) {
  int64_t ns = 0;
  EXPECT_TRUE(parse_duration_ns("2s", &ns));
  EXPECT_EQ(ns, 2000000000);
  EXPECT_TRUE(parse_duration_ns("500ms", &ns));
  EXPECT_EQ(ns, 500000000);
  EXPECT_TRUE(parse_duration_ns("1m30s", &ns));
  EXPECT_EQ(ns, 90000000000);
  EXPECT_TRUE(parse_duration_ns("1.5s", &ns));
  EXPECT_EQ(ns, 1500000000);
  EXPECT_TRUE(parse_duration_ns("250us", &ns));
  EXPECT_EQ(ns, 250000);
  EXPECT_TRUE(parse_duration_ns("1h", &ns));
  EXPECT_EQ(ns, 3600000000000);
  for (const char *bad : {"", "2", "s", "2parsecs", "-1s", "1.2.3s"})
    EXPECT_FALSE(parse_duration_ns(bad, &ns)) << bad;
}

TEST(CliFlags, RelativeAndAbsoluteTimes) {
  int64_t rel = 0;
  std::string err;
  const int64_t start = 1795238867854989000; // 2026-11-21T05:27:47.854989Z
  EXPECT_TRUE(parse_time_ns("2s", start, &rel, &err));
  EXPECT_EQ(rel, 2000000000);
  EXPECT_TRUE(parse_time_ns("1795238868855", start, &rel, &err)) << err; // epoch ms
  EXPECT_EQ(rel, 1795238868855000000 - start);
  EXPECT_FALSE(parse_time_ns("1500", start, &rel, &err)); // before the start: a hint to add a unit
  EXPECT_NE(err.find("1500ms"), std::string::npos) << err;
  EXPECT_FALSE(parse_time_ns("1795238868855", 0, &rel, &err)); // no start time recorded
  EXPECT_NE(err.find("no start time"), std::string::npos) << err;
  EXPECT_FALSE(parse_time_ns("soon", start, &rel, &err));
}

TEST(CliFlags, ParsesCommonAndCommandFlags) {
  const FlagSpec extra[] = {{"buckets", 0, true, "n"}, {"lines", 0, false, "l"}};
  CliFlags f;
  std::string err;
  ASSERT_TRUE(f.parse({"a.jfr",
                       "-e",
                       "wall",
                       "-t",
                       "worker",
                       "-t42",
                       "--from=1s",
                       "--to",
                       "2s",
                       "--top",
                       "5",
                       "--depth=3",
                       "--min-pct",
                       "0.5",
                       "--hide",
                       "fw\\.",
                       "--include",
                       "A",
                       "--exclude",
                       "B",
                       "--fqn",
                       "--no-idle",
                       "--assert-below",
                       "20",
                       "-m",
                       "Pricing.discount",
                       "--count",
                       "--json",
                       "--buckets",
                       "7",
                       "--lines",
                       "b.jfr"},
                      extra, true, &err))
      << err;
  EXPECT_EQ(f.files, (std::vector<std::string>{"a.jfr", "b.jfr"}));
  EXPECT_EQ(f.event, "wall");
  EXPECT_EQ(f.threads, (std::vector<std::string>{"worker", "42"}));
  EXPECT_EQ(f.from, "1s");
  EXPECT_EQ(*f.top, 5u);
  EXPECT_EQ(*f.depth, 3u);
  EXPECT_DOUBLE_EQ(*f.min_pct, 0.5);
  EXPECT_TRUE(f.fqn && f.no_idle && f.json);
  EXPECT_DOUBLE_EQ(*f.assert_below, 20);
  EXPECT_EQ(f.method, "Pricing.discount");
  EXPECT_EQ(*f.measure, Measure::count);
  EXPECT_EQ(f.value("buckets"), "7");
  EXPECT_TRUE(f.has("lines"));

  TestProfile t;
  t.sample("wall", {t.java("p/A", "a")}, "worker", 5);
  t.metadata().start_time_ns = 1000000000000;
  auto idx = index_of(t);
  View v;
  ASSERT_TRUE(make_view(f, *idx, &v, &err)) << err;
  EXPECT_EQ(v.event, "wall");
  EXPECT_EQ(v.measure, Measure::count);
  EXPECT_EQ(v.threads.patterns, (std::vector<std::string>{"worker"}));
  EXPECT_EQ(v.threads.ids, (std::vector<int64_t>{42}));
  EXPECT_EQ(*v.from_ns, 1000000000);
  EXPECT_EQ(*v.to_ns, 2000000000);
  EXPECT_EQ(v.hide, (std::vector<std::string>{"fw\\."}));
  EXPECT_EQ(v.grouping, FunctionGrouping::fqn);
  EXPECT_TRUE(v.no_idle);
}

TEST(CliFlags, Errors) {
  CliFlags f;
  std::string err;
  EXPECT_FALSE(f.parse({"--nope"}, {}, true, &err));
  EXPECT_EQ(err, "unknown flag '--nope'");
  EXPECT_FALSE(CliFlags().parse({"--top"}, {}, true, &err));
  EXPECT_EQ(err, "flag --top needs a value");
  EXPECT_FALSE(CliFlags().parse({"--top", "-3"}, {}, true, &err));
  EXPECT_FALSE(CliFlags().parse({"--min-pct", "x"}, {}, true, &err));
  EXPECT_FALSE(CliFlags().parse({"--json=yes"}, {}, true, &err));
  EXPECT_EQ(err, "flag --json takes no value");
  CliFlags stdin_file;
  EXPECT_TRUE(stdin_file.parse({"-", "--", "-odd-name"}, {}, true, &err));
  EXPECT_EQ(stdin_file.files, (std::vector<std::string>{"-", "-odd-name"}));
}

} // namespace
