// `hotlines resolve`: the report as text and JSON on the fixtures, --remap, --all, usage
// errors, and a workspace where the Go profile's paths resolve nowhere.
#include "cli_test_util.h"
#include "source_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace hotlines {
namespace {

using test::fixture_path;
using test::hotlines_cli;

const std::string kJavaShop = fixture_path("java-shop");
const std::string kGoShop = fixture_path("go-shop");

TEST(SourceCli, JavaShopText) {
  test::CliRun r =
      hotlines_cli("resolve " + test::java_profile("ap-cpu.jfr") + " --root " + kJavaShop);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("workspace: 27 files under " + kJavaShop), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("resolved      2438   96.36%          7\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unresolved       0    0.00%          0\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("jvm-class-path 7"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("warning:"), std::string::npos) << r.out;
}

TEST(SourceCli, GoShopJsonWithRemapAndAll) {
  test::CliRun r =
      hotlines_cli("resolve " + fixture_path("go-shop/profiles/cpu.pprof") + " --root " + kGoShop +
                   " --remap /build/go-shop=" + kGoShop + " --all --json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["command"], "resolve");
  EXPECT_EQ(j["report"]["resolved"]["weight"], 280000000);
  EXPECT_EQ(j["report"]["resolved"]["functions"], 5);
  EXPECT_EQ(j["report"]["unresolved"]["functions"], 0);
  EXPECT_EQ(j["report"]["roots"], nlohmann::json::array({kGoShop}));
  const nlohmann::json &first = j["functions"][0];
  EXPECT_EQ(first["name"], "example.com/gows/internal/shop.TestWorkload");
  EXPECT_EQ(first["status"], "resolved");
  EXPECT_EQ(first["rule"], "remap");
  EXPECT_EQ(first["path"], kGoShop + "/internal/shop/shop_test.go");
  EXPECT_EQ(first["line"], 5);
  EXPECT_EQ(first["line_from"], "declaration");
  EXPECT_EQ(first["recorded"], "/build/go-shop/internal/shop/shop_test.go");
  EXPECT_EQ(first["total"], 280000000);
}

TEST(SourceCli, PathsThatResolveNowhereNameThePrefix) {
  test::TempTree t;
  t.write("elsewhere/shop.go", "package shop\n\nfunc Discount(n int) float64 { return 0 }\n");
  test::CliRun r = hotlines_cli("resolve " + fixture_path("go-shop/profiles/cpu.pprof") +
                                " --root " + t.path() + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json rep = nlohmann::json::parse(r.out)["report"];
  EXPECT_EQ(rep["resolved"]["weight"], 0);
  EXPECT_EQ(rep["unresolved"]["weight"], 280000000);
  ASSERT_EQ(rep["failingPrefixes"].size(), 2u);
  // shop.go is in another folder, shop_test.go nowhere; both are under every shop sample.
  EXPECT_EQ(rep["failingPrefixes"][0]["prefix"], "/build/go-shop/internal/shop");
  EXPECT_EQ(rep["failingPrefixes"][0]["weight"], 280000000);
  EXPECT_EQ(rep["failingPrefixes"][0]["files"], 1);
  EXPECT_EQ(rep["failingPrefixes"][0]["wouldResolve"], 1);
  EXPECT_EQ(
      rep["failingPrefixes"][0]["suggestedRemap"],
      (nlohmann::json{{"from", "/build/go-shop/internal/shop"}, {"to", t.path("elsewhere")}}));
  EXPECT_EQ(rep["failingPrefixes"][1]["prefix"], "/build/go-shop/internal/shop");
  EXPECT_EQ(rep["failingPrefixes"][1]["weight"], 280000000);
  EXPECT_EQ(rep["failingPrefixes"][1]["examples"],
            nlohmann::json::array({"/build/go-shop/internal/shop/shop_test.go"}));
  EXPECT_EQ(rep["failingPrefixes"][1]["suggestedRemap"],
            (nlohmann::json{{"from", "/build/go-shop/internal/shop"}, {"to", t.path()}}));
  EXPECT_EQ(rep["failingPrefixes"][1]["wouldResolve"], 0);
  EXPECT_EQ(rep["warning"],
            "90% of the cpu weight is in frames that do not resolve to workspace files: remap "
            "/build/go-shop/internal/shop to " +
                t.path("elsewhere") + " (resolves 1 files)");

  test::CliRun text =
      hotlines_cli("resolve " + fixture_path("go-shop/profiles/cpu.pprof") + " --root " + t.path());
  EXPECT_NE(text.out.find("--remap /build/go-shop/internal/shop=" + t.path("elsewhere") +
                          " (resolves 1)"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("warning: 90% of the cpu weight"), std::string::npos) << text.out;
}

TEST(SourceCli, UsageErrors) {
  test::CliRun bad = hotlines_cli("resolve " + test::java_profile("ap-cpu.jfr") + " --root " +
                                  kJavaShop + " --remap nothing");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--remap wants FROM=TO, got 'nothing'"), std::string::npos) << bad.err;
  test::CliRun none = hotlines_cli("resolve");
  EXPECT_EQ(none.status, 2);
  test::CliRun help = hotlines_cli("resolve --help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("--root"), std::string::npos);
}

} // namespace
} // namespace hotlines
