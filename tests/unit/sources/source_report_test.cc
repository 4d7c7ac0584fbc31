// The resolution report: attributed status weights, top unresolved frames, failing path
// prefixes with a verified (or template) remap, ties, the warning, and the JSON shape.
#include "server/engine/profile_index.h"
#include "server/sources/resolution_report.h"
#include "server/sources/resolution_report_json.h"
#include "source_test_util.h"

#include <gtest/gtest.h>

namespace hotlines {
namespace {

using test::index_roots;
using test::resolve_profile;
using test::SourceProfile;
using test::TempTree;

struct Built {
  std::shared_ptr<const ProfileIndex> index;
  std::shared_ptr<const ProfileResolution> resolution;
  ResolutionReport report;
};

Built report_for(std::shared_ptr<const Profile> profile, std::shared_ptr<const WorkspaceIndex> ws,
                 ResolverOptions options = {}) {
  Built b;
  b.index = ProfileIndex::build(profile);
  b.resolution = resolve_profile(profile, ws, std::move(options));
  b.report = build_resolution_report(*b.resolution, *b.index->unfiltered(0, Measure::value), 20);
  return b;
}

// Paths recorded on a CI agent; the workspace has the same files in a folder named
// differently (only basenames match), plus one file it does not have at all.
class NowhereProfile : public ::testing::Test {
protected:
  void SetUp() override {
    core = t.write("ws/native/core.c", "int core_run(void) { return 0; }\n");
    util = t.write("ws/native/util.c", "int util_sum(void) { return 0; }\n");
    FunctionId core_fn = sp.path("core_run", "/home/ci/agent/_work/7/s/engine/core.c", 1);
    FunctionId util_fn = sp.path("util_sum", "/home/ci/agent/_work/7/s/engine/util.c", 1);
    FunctionId gone = sp.path("gone", "/home/ci/agent/_work/7/s/engine/missing.c", 4);
    FunctionId memcpy_fn = sp.native("memcpy");
    sp.sample({sp.frame(util_fn, 3), sp.frame(core_fn, 2)}, 6);
    sp.sample({sp.frame(gone, 5)}, 3);
    sp.sample({sp.frame(core_fn, 2), sp.frame(memcpy_fn)}, 1);
    profile = sp.finish();
  }
  TempTree t;
  SourceProfile sp;
  std::shared_ptr<const Profile> profile;
  std::string core, util;
};

TEST_F(NowhereProfile, NamesThePrefixAndSuggestsARemap) {
  Built b = report_for(profile, index_roots({t.path("ws")}));
  const ResolutionReport &r = b.report;
  EXPECT_EQ(r.event, "cpu");
  EXPECT_EQ(r.total, 10);
  EXPECT_EQ(r.resolved, 0);
  EXPECT_EQ(r.unresolved, 10); // memcpy's sample counts for core_run, its caller
  EXPECT_EQ(r.external, 0);
  EXPECT_DOUBLE_EQ(r.unresolved_pct, 100.0);
  EXPECT_EQ(r.functions_unresolved, 3u);
  EXPECT_EQ(r.functions_external, 1u);
  ASSERT_EQ(r.top_unresolved.size(), 3u);
  EXPECT_EQ(r.top_unresolved[0].name, "core_run");
  EXPECT_EQ(r.top_unresolved[0].total, 7);
  EXPECT_EQ(r.top_unresolved[0].self, 6);
  EXPECT_EQ(r.top_unresolved[0].attributed, 7);
  EXPECT_EQ(r.top_unresolved[0].recorded, "/home/ci/agent/_work/7/s/engine/core.c");
  EXPECT_EQ(r.top_unresolved[0].rule, "unmatched-path");
  EXPECT_EQ(r.top_unresolved[1].name, "util_sum");
  EXPECT_EQ(r.top_unresolved[1].total, 6);
  EXPECT_EQ(r.top_unresolved[1].attributed, 0);
  EXPECT_EQ(r.top_unresolved[2].name, "gone");
  EXPECT_EQ(r.top_unresolved[2].reason, "no workspace file ends with engine/missing.c");

  ASSERT_EQ(r.failing_prefixes.size(), 2u);
  const FailingPrefix &p0 = r.failing_prefixes[0];
  EXPECT_EQ(p0.prefix, "/home/ci/agent/_work/7/s/engine");
  EXPECT_EQ(p0.weight, 7);
  EXPECT_EQ(p0.files, 2u);
  ASSERT_TRUE(p0.has_remap);
  EXPECT_EQ(p0.remap.from, "/home/ci/agent/_work/7/s/engine");
  EXPECT_EQ(p0.remap.to, t.path("ws/native"));
  EXPECT_EQ(p0.would_resolve, 2u);
  EXPECT_EQ(p0.examples, (std::vector<std::string>{"/home/ci/agent/_work/7/s/engine/core.c",
                                                   "/home/ci/agent/_work/7/s/engine/util.c"}));
  const FailingPrefix &p1 = r.failing_prefixes[1];
  EXPECT_EQ(p1.prefix, "/home/ci/agent/_work/7/s/engine");
  EXPECT_EQ(p1.weight, 3);
  EXPECT_EQ(p1.files, 1u);
  ASSERT_TRUE(p1.has_remap); // a template: to the first root, resolving nothing yet
  EXPECT_EQ(p1.remap.to, t.path("ws"));
  EXPECT_EQ(p1.would_resolve, 0u);
  EXPECT_EQ(r.warning, "100% of the cpu weight is in frames that do not resolve to workspace "
                       "files: remap /home/ci/agent/_work/7/s/engine to " +
                           t.path("ws/native") + " (resolves 2 files)");

  // Following the suggestion resolves those two files.
  ResolverOptions o;
  o.remaps = {p0.remap};
  Built fixed = report_for(profile, index_roots({t.path("ws")}), o);
  EXPECT_EQ(fixed.report.resolved, 7);
  EXPECT_EQ(fixed.report.unresolved, 3);
  EXPECT_DOUBLE_EQ(fixed.report.resolved_pct, 70.0);
  ASSERT_EQ(fixed.report.failing_prefixes.size(), 1u);
  EXPECT_EQ(fixed.report.failing_prefixes[0].files, 1u);
  EXPECT_EQ(fixed.report.warning, "");
  const FunctionId core_fn = fixed.resolution->functions_in(core)[0];
  EXPECT_EQ(fixed.resolution->of(core_fn).rule, kRuleRemap);
  EXPECT_EQ(fixed.resolution->of(core_fn).line, 1);
  EXPECT_EQ(fixed.resolution->of(core_fn).line_from, "recorded");
}

TEST_F(NowhereProfile, EmptyWorkspaceStillNamesThePrefix) {
  TempTree empty;
  Built b = report_for(profile, index_roots({empty.path()}));
  ASSERT_EQ(b.report.failing_prefixes.size(), 1u);
  EXPECT_EQ(b.report.failing_prefixes[0].prefix, "/home/ci/agent/_work/7/s/engine");
  EXPECT_EQ(b.report.failing_prefixes[0].files, 3u);
  EXPECT_EQ(b.report.failing_prefixes[0].weight, 10);
  EXPECT_EQ(b.report.failing_prefixes[0].remap.to, empty.path());
  EXPECT_EQ(b.report.failing_prefixes[0].would_resolve, 0u);
  EXPECT_EQ(b.report.warning,
            "100% of the cpu weight is in frames that do not resolve to workspace files: files "
            "under /home/ci/agent/_work/7/s/engine are not in the workspace; add their checkout "
            "as a source root or remap /home/ci/agent/_work/7/s/engine to it");
}

TEST(ResolutionReport, JsonShapeWithTies) {
  TempTree t;
  t.write("app/src/main.c");
  std::string mine = t.write("app/src/util/str.c");
  t.write("old/src/util/str.c");
  SourceProfile sp;
  FunctionId m = sp.path("main", "/b/app/src/main.c", 1);
  FunctionId s = sp.path("str_dup", "/b/src/util/str.c", 1);
  FunctionId lib = sp.path("write", "/usr/include/unistd.h");
  sp.sample({sp.frame(m, 2), sp.frame(s, 3)}, 3);
  sp.sample({sp.frame(m, 2), sp.frame(lib)}, 1);
  Built b = report_for(sp.finish(), index_roots({t.path()}));
  nlohmann::json j = resolution_report_json(b.report);
  EXPECT_EQ(j["event"], "cpu");
  EXPECT_EQ(j["unit"], "samples");
  EXPECT_EQ(j["measure"], "value");
  EXPECT_EQ(j["total"], 4);
  EXPECT_EQ(j["resolved"], (nlohmann::json{{"weight", 4}, {"pct", 100.0}, {"functions", 2}}));
  EXPECT_EQ(j["unresolved"], (nlohmann::json{{"weight", 0}, {"pct", 0.0}, {"functions", 0}}));
  EXPECT_EQ(j["external"], (nlohmann::json{{"weight", 0}, {"pct", 0.0}, {"functions", 1}}));
  EXPECT_EQ(j["roots"], nlohmann::json::array({t.path()}));
  EXPECT_EQ(j["workspaceFiles"], 3);
  EXPECT_EQ(j["rules"],
            (nlohmann::json::array(
                {{{"rule", "path-suffix"}, {"status", "resolved"}, {"functions", 2}},
                 {{"rule", "external-path"}, {"status", "external"}, {"functions", 1}}})));
  EXPECT_EQ(j["topUnresolved"], nlohmann::json::array());
  EXPECT_EQ(j["failingPrefixes"], nlohmann::json::array());
  EXPECT_EQ(j["ties"],
            (nlohmann::json::array({{{"recorded", "/b/src/util/str.c"},
                                     {"rule", "path-suffix"},
                                     {"candidates", {mine, t.path("old/src/util/str.c")}},
                                     {"chosen", mine},
                                     {"functions", 1}}})));
  EXPECT_EQ(j["warning"], "");
}

} // namespace
} // namespace hotlines
