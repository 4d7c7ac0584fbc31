// CLI tests for `hotlines flamegraph` and `hotlines convert … .speedscope.json`: the real
// binary on the java-shop fixtures — the page holds the document and the embedded bundle and
// nothing that loads from the network; flags and their errors.
#include "cli_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace hotlines::test;
using json = nlohmann::json;

namespace {

const std::string kJavaShop = fixture_path("java-shop");

std::string between(const std::string &s, const std::string &open, const std::string &close) {
  size_t a = s.find(open);
  if (a == std::string::npos) return {};
  a += open.size();
  return s.substr(a, s.find(close, a) - a);
}

TEST(CliFlamegraph, PageHoldsTheDocumentAndTheBundle) {
  std::string out = temp_dir() + "/cpu.html";
  CliRun r = hotlines_cli("flamegraph " + java_profile("ap-cpu.jfr") + " -o " + out + " --root " +
                          kJavaShop);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("wrote " + out), std::string::npos);
  std::string html = read_file(out);
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  std::string data =
      between(html, "<script type=\"application/json\" id=\"hotlines-data\">", "</script>");
  json d = json::parse(data);
  EXPECT_EQ(d["format"], "hotlines-flame");
  EXPECT_EQ(d["title"], "ap-cpu.jfr");
  EXPECT_EQ(d["events"][0]["total_count"], 2530);
  EXPECT_EQ(d["link"]["scheme"], "vscode");
  bool found = false;
  for (const json &f : d["functions"])
    if (f["name"] == "org.acme.shop.Pricing.discount") {
      found = true;
      EXPECT_EQ(f["status"], "resolved");
      EXPECT_EQ(f["file"], "org/acme/shop/Pricing.java");
      EXPECT_EQ(f["path"], kJavaShop + "/src/main/java/org/acme/shop/Pricing.java");
    }
  EXPECT_TRUE(found);
  // The bundle follows the data; it is the committed editors/web/dist/view.js.
  std::string bundle = read_file(std::string(HOTLINES_SOURCE_DIR) + "/editors/web/dist/view.js");
  ASSERT_GT(bundle.size(), 1000u);
  EXPECT_NE(html.find(bundle), std::string::npos);
  EXPECT_EQ(html.find("</script", html.find("id=\"hotlines-data\">") + 30),
            html.find("</script>\n<script>"));
}

TEST(CliFlamegraph, JsonDocumentAndInitialSelections) {
  std::string out = temp_dir() + "/multi.json";
  CliRun r = hotlines_cli("flamegraph " + java_profile("ap-multi.jfr") + " -o " + out +
                          " --event alloc --count --threads worker-0,worker-1 --link file");
  ASSERT_EQ(r.status, 0) << r.err;
  json d = json::parse(read_file(out));
  EXPECT_EQ(d["events"][d["initial"]["event"].get<size_t>()]["name"], "alloc");
  EXPECT_EQ(d["initial"]["measure"], "count");
  EXPECT_EQ(d["initial"]["threads"].size(), 2u);
  EXPECT_EQ(d["link"]["scheme"], "file");
  EXPECT_TRUE(d["rows"].contains("value")); // alloc bytes differ from counts
  // A root without the sources: the frame says why it has no file.
  r = hotlines_cli("flamegraph " + java_profile("ap-cpu.jfr") + " -o " + out + " --root " +
                   temp_dir());
  ASSERT_EQ(r.status, 0) << r.err;
  d = json::parse(read_file(out));
  for (const json &f : d["functions"])
    if (f["name"] == "org.acme.shop.Pricing.discount") {
      EXPECT_FALSE(f.contains("path"));
      EXPECT_EQ(f["status"], "external");
      EXPECT_EQ(f["why"], "no source root has package org.acme.shop");
    }
}

TEST(CliFlamegraph, UsageErrors) {
  std::string in = java_profile("ap-cpu.jfr"), out = temp_dir() + "/x.html";
  CliRun r = hotlines_cli("flamegraph " + in);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("needs -o OUT.html"), std::string::npos) << r.err;
  r = hotlines_cli("flamegraph " + in + " -o " + out + " --link ftp");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--link wants vscode, file or none"), std::string::npos) << r.err;
  r = hotlines_cli("flamegraph " + in + " -o " + out + " --event wall");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no event 'wall' in the profile (events: cpu)"), std::string::npos) << r.err;
  r = hotlines_cli("flamegraph " + in + " -o " + out + " --from 1s");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("does not take --from/--to"), std::string::npos) << r.err;
  r = hotlines_cli("flamegraph /nonexistent.jfr -o " + out);
  EXPECT_EQ(r.status, 3);
  r = hotlines_cli("flamegraph " + in + " -o " + out + " --baseline " +
                   java_profile("ap-wall.jfr"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the baseline has no event 'cpu'"), std::string::npos) << r.err;
}

TEST(CliConvert, SpeedscopeByExtensionOrFormat) {
  std::string out = temp_dir() + "/cpu.speedscope.json";
  CliRun r = hotlines_cli("convert " + java_profile("ap-cpu.jfr") + " " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  json f = json::parse(read_file(out));
  EXPECT_EQ(f["name"], "ap-cpu.jfr");
  EXPECT_EQ(f["profiles"].size(), 9u); // one per thread with cpu samples
  int64_t total = 0;
  for (const json &p : f["profiles"]) total += p["endValue"].get<int64_t>();
  EXPECT_EQ(total, 2530);
  r = hotlines_cli("convert " + java_profile("ap-cpu.collapsed") + " - --format speedscope");
  ASSERT_EQ(r.status, 0) << r.err;
  f = json::parse(r.out);
  EXPECT_EQ(f["profiles"].size(), 1u);
  EXPECT_EQ(f["profiles"][0]["endValue"], 452); // the file's counts add up to 452
  r = hotlines_cli("convert " + java_profile("ap-cpu.jfr") + " " + temp_dir() + "/x.collapsed");
  EXPECT_EQ(r.status, 2);
}

} // namespace
