// The speedscope writer (formats/speedscope_writer.h): one sampled profile per event and
// thread, time order with consecutive equal stacks merged, shared frames by function, units,
// and JSON that parses whatever the strings hold.
#include "formats/loader.h"
#include "formats/speedscope_writer.h"
#include "test_profile.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hotlines {
namespace {

using json = nlohmann::json;
using test::TestProfile;

json write(const Profile &p, SpeedscopeWriteOptions o = {}) {
  std::string error;
  std::string text = write_speedscope(p, o, &error);
  EXPECT_EQ(error, "");
  return json::parse(text);
}

std::vector<std::string> names(const json &file, const json &stack) {
  std::vector<std::string> out;
  for (const json &f : stack) out.push_back(file["shared"]["frames"][f.get<size_t>()]["name"]);
  return out;
}

TEST(SpeedscopeWriter, SampledProfilePerThreadInTimeOrder) {
  TestProfile t;
  FrameId main = t.java("org/acme/Main", "main", 5);
  FrameId calc = t.java("org/acme/Calc", "calc", 10);
  FrameId calc_inl = t.java("org/acme/Calc", "calc", 11, FrameKind::inlined);
  FrameId work = t.java("org/acme/Work$1", "run", 20);
  // Out of time order in the file; two equal consecutive stacks on main merge.
  t.sample("cpu", {main, work}, "main", 300, 1, -1, 1);
  t.sample("cpu", {main, calc}, "main", 100, 1, -1, 1);
  t.sample("cpu", {main, calc_inl}, "main", 200, 1, -1, 1);
  t.sample("cpu", {main}, "worker", 150, 2, -1, 2);
  auto p = t.finish();
  SpeedscopeWriteOptions o;
  o.name = "test.jfr";
  json f = write(*p, o);
  EXPECT_EQ(f["$schema"], "https://www.speedscope.app/file-format-schema.json");
  EXPECT_EQ(f["name"], "test.jfr");
  ASSERT_EQ(f["profiles"].size(), 2u);
  const json &m = f["profiles"][0];
  EXPECT_EQ(m["type"], "sampled");
  EXPECT_EQ(m["name"], "cpu: main (tid 1)");
  EXPECT_EQ(m["unit"], "none");
  EXPECT_EQ(m["startValue"], 0);
  EXPECT_EQ(m["endValue"], 3);
  // calc's JIT and inlined frames are one speedscope frame, so t=100 and t=200 merge.
  ASSERT_EQ(m["samples"].size(), 2u);
  EXPECT_EQ(names(f, m["samples"][0]),
            (std::vector<std::string>{"org.acme.Main.main", "org.acme.Calc.calc"}));
  EXPECT_EQ(names(f, m["samples"][1]),
            (std::vector<std::string>{"org.acme.Main.main", "org.acme.Work$1.run"}));
  EXPECT_EQ(m["weights"], json::array({2, 1}));
  EXPECT_EQ(f["profiles"][1]["name"], "cpu: worker (tid 2)");
  EXPECT_EQ(f["profiles"][1]["weights"], json::array({2}));
  EXPECT_EQ(f["activeProfileIndex"], 0); // main (3) outweighs worker (2)
  // Frames: one per function, with the class's source file.
  ASSERT_EQ(f["shared"]["frames"].size(), 3u);
  EXPECT_EQ(f["shared"]["frames"][2]["file"], "org/acme/Work.java");
}

TEST(SpeedscopeWriter, UnitsAndEventSelection) {
  TestProfile t;
  FrameId a = t.native("alloc_site");
  t.sample("cpu", {a}, "main", 0);
  t.sample("alloc", {a}, "main", 0, 1, 4096);
  t.sample("alloc", {a}, "t2", 0, 1, 8192);
  auto p = t.finish();
  SpeedscopeWriteOptions o;
  o.events = {1};
  json f = write(*p, o);
  ASSERT_EQ(f["profiles"].size(), 2u);
  EXPECT_EQ(f["profiles"][0]["unit"], "bytes");
  EXPECT_EQ(f["profiles"][0]["endValue"], 4096);
  EXPECT_EQ(f["activeProfileIndex"], 1); // t2's 8192 bytes
  o.events = {7};
  std::string error;
  EXPECT_EQ(write_speedscope(*p, o, &error), "");
  EXPECT_EQ(error, "speedscope writer: event 7 does not exist (the profile has 2 events)");
}

TEST(SpeedscopeWriter, StringsAreAlwaysValidJson) {
  EXPECT_EQ(json_quote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\u000a\\u0001\"");
  EXPECT_EQ(json_quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(json_quote("bad\xff\xc3"), "\"bad\\ufffd\\ufffd\"");
  TestProfile t;
  t.sample("cpu", {t.native("we\"ird\xfe name\t")}, "thr\x02");
  auto p = t.finish();
  json f = write(*p);
  EXPECT_EQ(f["shared"]["frames"][0]["name"], "we\"ird\xef\xbf\xbd name\t");
}

TEST(SpeedscopeWriter, JfrFixtureWeightsAddUpToTheEventTotals) {
  LoadResult r = load_profile_file(test::java_profile("ap-multi.jfr"));
  ASSERT_TRUE(r.ok()) << r.describe();
  json f = write(*r.profile);
  std::map<std::string, int64_t> sums;
  for (const json &prof : f["profiles"]) {
    std::string name = prof["name"];
    int64_t w = 0;
    for (const json &x : prof["weights"]) w += x.get<int64_t>();
    EXPECT_EQ(w, prof["endValue"].get<int64_t>());
    EXPECT_EQ(prof["samples"].size(), prof["weights"].size());
    sums[name.substr(0, name.find(':'))] += w;
  }
  for (const Event &e : r.profile->events)
    EXPECT_EQ(sums[std::string(r.profile->str(e.name))], e.total_value) << r.profile->str(e.name);
}

} // namespace
} // namespace hotlines
