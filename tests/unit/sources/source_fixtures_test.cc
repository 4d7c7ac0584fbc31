// The java-shop and go-shop fixtures (tests/fixtures) resolve fully against their checkouts, with
// no configuration: every org/acme/shop class and every example.com/gows/internal/shop function
// lands on its file (the Go profiles were recorded under /build/go-shop), JDK, runtime and native
// frames are external, nothing is unresolved.
#include "formats/loader.h"
#include "server/engine/profile_index.h"
#include "server/sources/resolution_report.h"
#include "source_test_util.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <map>

namespace hotlines {
namespace {

using test::fixture_path;
using test::index_roots;
using test::resolve_profile;

std::shared_ptr<const Profile> load(const std::string &path) {
  LoadResult r = load_profile_file(path);
  EXPECT_TRUE(r.ok()) << path << ": " << r.error;
  return std::shared_ptr<const Profile>(std::move(r.profile));
}

// Display name -> "file-basename:line (rule)" of every resolved function.
std::map<std::string, std::string> resolved(const ProfileResolution &res) {
  std::map<std::string, std::string> out;
  const Profile &p = res.profile();
  for (FunctionId f = 0; f < p.functions.size(); f++) {
    const Resolution &r = res.of(f);
    if (r.status != ResolutionStatus::resolved) continue;
    out[std::string(p.str(p.functions[f].name))] = std::string(path_basename(r.path)) + ":" +
                                                   std::to_string(r.line) + " (" +
                                                   std::string(r.rule) + ")";
  }
  return out;
}

const std::string kJavaShop = fixture_path("java-shop");
const std::string kGoShop = fixture_path("go-shop");

TEST(SourceFixtures, JavaShopJfrResolvesEveryShopFrame) {
  auto profile = load(test::java_profile("ap-cpu.jfr"));
  auto ws = index_roots({kJavaShop});
  auto res = resolve_profile(profile, ws);
  ASSERT_TRUE(res);
  EXPECT_EQ(res->count(ResolutionStatus::unresolved), 0u);
  EXPECT_EQ(resolved(*res),
            (std::map<std::string, std::string>{
                {"org.acme.shop.Main$$Lambda.run", "Main.java:0 (jvm-class-path)"},
                {"org.acme.shop.Main.lambda$main$0", "Main.java:4 (jvm-class-path)"},
                {"org.acme.shop.Main.main", "Main.java:4 (jvm-class-path)"},
                {"org.acme.shop.Pricing$Inner.spin", "Pricing.java:40 (jvm-class-path)"},
                {"org.acme.shop.Pricing.cached", "Pricing.java:28 (jvm-class-path)"},
                {"org.acme.shop.Pricing.discount", "Pricing.java:12 (jvm-class-path)"},
                {"org.acme.shop.Pricing.labels", "Pricing.java:20 (jvm-class-path)"}}));
  const std::string pricing = kJavaShop + "/src/main/java/org/acme/shop/Pricing.java";
  const std::string main_java = kJavaShop + "/src/main/java/org/acme/shop/Main.java";
  EXPECT_EQ(res->files(), (std::vector<std::string>{main_java, pricing}));
  std::vector<std::string> names;
  for (FunctionId f : res->functions_in(pricing))
    names.emplace_back(profile->str(profile->functions[f].name));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{
                       "org.acme.shop.Pricing$Inner.spin", "org.acme.shop.Pricing.cached",
                       "org.acme.shop.Pricing.discount", "org.acme.shop.Pricing.labels"}));
  std::span<const std::string> keys = res->recorded_files_in(pricing);
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.end()),
            std::vector<std::string>{"org/acme/shop/Pricing.java"});
  // The hot line of discount is a frame line (15), its function line the declaration (12).
  bool saw_15 = false;
  for (FrameId fr : res->frames_in(pricing))
    if (profile->str(profile->functions[profile->frames[fr].function].name) ==
        "org.acme.shop.Pricing.discount")
      saw_15 = saw_15 || res->line_of_frame(fr) == 15;
  EXPECT_TRUE(saw_15);

  ResolutionReport rep = build_resolution_report(
      *res, *ProfileIndex::build(profile)->unfiltered(0, Measure::value), 10);
  EXPECT_EQ(rep.total, 2530);
  EXPECT_EQ(rep.resolved, 2438);
  EXPECT_EQ(rep.unresolved, 0);
  EXPECT_EQ(rep.external, 92);
  EXPECT_TRUE(rep.top_unresolved.empty());
  EXPECT_TRUE(rep.failing_prefixes.empty());
  EXPECT_TRUE(rep.ties.empty());
  EXPECT_EQ(rep.warning, "");
}

TEST(SourceFixtures, JavaShopEveryFormatResolvesTheShopClasses) {
  auto ws = index_roots({kJavaShop});
  for (const char *name : {"ap-cpu.jfr", "ap-wall.jfr", "ap-multi.jfr",
                           "ap-cpu-then-wall-2chunks.jfr", "jdk-profile.jfr", "jdk-alloc-lock.jfr",
                           "ap-cpu.collapsed", "ap-cpu-lines-threads.collapsed", "ap-alloc.pb"}) {
    SCOPED_TRACE(name);
    auto profile = load(test::java_profile(name));
    auto res = resolve_profile(profile, ws);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->count(ResolutionStatus::unresolved), 0u);
    size_t shop = 0;
    for (FunctionId f = 0; f < profile->functions.size(); f++) {
      std::string_view n = profile->str(profile->functions[f].name);
      if (n.find("org.acme.shop.") != 0 && n.find("org/acme/shop/") != 0) continue;
      shop++;
      const Resolution &r = res->of(f);
      EXPECT_EQ(r.status, ResolutionStatus::resolved) << n;
      const bool in_main = n.find("Main") != std::string_view::npos;
      EXPECT_EQ(r.path, kJavaShop + "/src/main/java/org/acme/shop/" +
                            (in_main ? "Main.java" : "Pricing.java"))
          << n;
    }
    EXPECT_GE(shop, 4u);
  }
}

TEST(SourceFixtures, GoShopResolvesFromBuildPathsWithoutConfiguration) {
  auto ws = index_roots({kGoShop});
  ASSERT_EQ(ws->go_modules().size(), 1u);
  EXPECT_EQ(ws->go_modules()[0].path, "example.com/gows");
  auto cpu = load(fixture_path("go-shop/profiles/cpu.pprof"));
  auto res = resolve_profile(cpu, ws);
  ASSERT_TRUE(res);
  EXPECT_EQ(res->count(ResolutionStatus::unresolved), 0u);
  EXPECT_EQ(resolved(*res),
            (std::map<std::string, std::string>{
                {"example.com/gows/internal/shop.(*spinner).Spin", "shop.go:29 (path-suffix)"},
                {"example.com/gows/internal/shop.Discount", "shop.go:10 (path-suffix)"},
                {"example.com/gows/internal/shop.Labels", "shop.go:19 (path-suffix)"},
                {"example.com/gows/internal/shop.Spin", "shop.go:37 (path-suffix)"},
                {"example.com/gows/internal/shop.TestWorkload", "shop_test.go:5 (path-suffix)"}}));
  const std::string shop_go = kGoShop + "/internal/shop/shop.go";
  EXPECT_EQ(res->files(),
            (std::vector<std::string>{shop_go, kGoShop + "/internal/shop/shop_test.go"}));
  std::span<const std::string> keys = res->recorded_files_in(shop_go);
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.end()),
            std::vector<std::string>{"/build/go-shop/internal/shop/shop.go"});
  EXPECT_EQ(res->functions_in(shop_go).size(), 4u);
  for (FunctionId f = 0; f < cpu->functions.size(); f++) {
    std::string_view file = cpu->str(cpu->functions[f].file);
    if (file.rfind("/usr/lib/go", 0) == 0) {
      EXPECT_EQ(res->of(f).status, ResolutionStatus::external) << file;
      EXPECT_EQ(res->of(f).rule, kRuleExternalPath);
    }
  }
  ResolutionReport rep =
      build_resolution_report(*res, *ProfileIndex::build(cpu)->unfiltered(0, Measure::value), 10);
  EXPECT_EQ(rep.total, 310000000);
  EXPECT_EQ(rep.resolved, 280000000);
  EXPECT_EQ(rep.unresolved, 0);
  EXPECT_EQ(rep.external, 30000000);

  auto block = load(fixture_path("go-shop/profiles/block.pprof"));
  auto bres = resolve_profile(block, ws);
  EXPECT_EQ(
      resolved(*bres),
      (std::map<std::string, std::string>{
          {"example.com/gows/internal/shop.TestContention", "shop_test.go:17 (path-suffix)"},
          {"example.com/gows/internal/shop.runContention", "contention.go:9 (path-suffix)"}}));
  EXPECT_EQ(bres->count(ResolutionStatus::unresolved), 0u);

  auto mem = load(fixture_path("go-shop/profiles/mem.pprof"));
  auto mres = resolve_profile(mem, ws);
  EXPECT_EQ(mres->count(ResolutionStatus::unresolved), 0u);
  EXPECT_EQ(mres->count(ResolutionStatus::resolved), 2u);
}

} // namespace
} // namespace hotlines
