// Tests for the async-profiler text output reader on the agent's `traces` and `flat` files:
// their printed totals and shares recomputed from the text independently (regular
// expressions here, not the reader's parser), the program's known hot spots, the self-only
// profile of a flat list, a cut listing's warning, and malformed files (errors name the line).
#include "ap_test_util.h"
#include "formats/ap_text_reader.h"
#include "formats/loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

using namespace hotlines;
using namespace hotlines::test;

namespace {

// What the text prints: `Total samples`, and per block (or flat row) weight, share, samples.
struct Printed {
  int64_t total_samples = 0, weight = 0, samples = 0, rows = 0, pct_hundredths = 0;
  std::vector<std::pair<int64_t, double>> weight_pct;
};

Printed printed(const std::string &text, const std::regex &row) {
  Printed p;
  std::smatch m;
  EXPECT_TRUE(std::regex_search(text, m, std::regex("Total samples\\s*: ([0-9]+)")));
  p.total_samples = std::stoll(m[1]);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator();
       ++it) {
    const int64_t w = std::stoll((*it)[1]);
    p.weight += w;
    p.samples += std::stoll((*it)[3]);
    p.rows++;
    const std::string pct = (*it)[2];
    p.pct_hundredths += std::lround(std::stod(pct) * 100);
    p.weight_pct.emplace_back(w, std::stod(pct));
  }
  return p;
}

const std::regex kTraceRow("\n--- ([0-9]+) ns \\(([0-9.]+)%\\), ([0-9]+) samples?\n");
const std::regex kFlatRow("\n +([0-9]+) +([0-9.]+)% +([0-9]+)  [^\n]+");

std::vector<std::string> top_self(const Profile &p, size_t n) {
  std::map<std::string, int64_t> self;
  const SampleColumns &c = p.events[0].samples;
  for (size_t i = 0; i < c.size(); i++)
    self[std::string(p.str(p.functions[p.frames[p.stack_frame[c.stack[i]]].function].name))] +=
        c.value_at(i);
  std::vector<std::pair<int64_t, std::string>> v;
  for (const auto &[name, w] : self) v.emplace_back(-w, name);
  std::sort(v.begin(), v.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < n && i < v.size(); i++) out.push_back(v[i].second);
  return out;
}

} // namespace

TEST(ApTextReader, TracesAddUpToTheirPrintedTotals) {
  const std::string text = ap_output_text("ap-cpu-traces.txt.gz");
  EXPECT_EQ(detect_format(text), Format::ap_text);
  const Printed want = printed(text, kTraceRow);
  ASSERT_GT(want.rows, 300);
  // The file's own arithmetic: its blocks hold every sample it counted, and each printed share
  // is the block's weight over the sum (to the printed two decimals).
  EXPECT_EQ(want.samples, want.total_samples);
  for (const auto &[w, pct] : want.weight_pct)
    EXPECT_NEAR(100.0 * static_cast<double>(w) / static_cast<double>(want.weight), pct, 0.005);

  LoadResult r = load_profile_file(ap_output("ap-cpu-traces.txt.gz"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  EXPECT_EQ(p.metadata.format, "async-profiler-text");
  EXPECT_EQ(p.metadata.producer, "async-profiler traces");
  EXPECT_FALSE(p.metadata.self_only);
  EXPECT_TRUE(p.metadata.warnings.empty());
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.str(p.events[0].name), "cpu");
  EXPECT_EQ(p.str(p.events[0].unit), "nanoseconds");
  EXPECT_EQ(p.events[0].total_count, want.samples);
  EXPECT_EQ(p.events[0].total_value, want.weight);
  EXPECT_EQ(p.sample_count(), static_cast<size_t>(want.rows));
  const std::vector<std::string> top = top_self(p, 4);
  ASSERT_EQ(top.size(), 4u);
  EXPECT_EQ(top[0], "libmSin");
  for (const char *hot : {"org.acme.shop.Pricing.cached", "org.acme.shop.Pricing.discount"})
    EXPECT_NE(std::find(top.begin(), top.end(), hot), top.end()) << hot;
  // Dotted names become the collapsed form's classes; `_[k]` frames are kernel frames.
  bool pricing = false, kernel = false;
  for (const Frame &f : p.frames) {
    const Function &fn = p.functions[f.function];
    if (p.str(fn.name) == "org.acme.shop.Pricing.cached")
      pricing = p.str(fn.class_name) == "org/acme/shop/Pricing";
    if (p.str(fn.name) == "clear_page_erms") kernel = f.kind == FrameKind::kernel;
    // Hidden classes lose their per-run address, as in collapsed stacks.
    EXPECT_TRUE(!fn.class_name || p.str(fn.name).find("0x") == std::string::npos) << p.str(fn.name);
  }
  EXPECT_TRUE(pricing);
  EXPECT_TRUE(kernel);
}

TEST(ApTextReader, FlatListIsASelfOnlyProfile) {
  const std::string text = ap_output_text("ap-cpu-flat.txt");
  const Printed want = printed(text, kFlatRow);
  ASSERT_GT(want.rows, 100);
  EXPECT_EQ(want.samples, want.total_samples);
  for (const auto &[w, pct] : want.weight_pct)
    EXPECT_NEAR(100.0 * static_cast<double>(w) / static_cast<double>(want.weight), pct, 0.005);

  LoadResult r = load_profile_file(ap_output("ap-cpu-flat.txt"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  EXPECT_TRUE(p.metadata.self_only);
  EXPECT_EQ(p.metadata.producer, "async-profiler flat");
  EXPECT_TRUE(p.metadata.warnings.empty());
  EXPECT_EQ(p.str(p.events[0].name), "cpu");
  EXPECT_EQ(p.events[0].total_count, want.samples);
  EXPECT_EQ(p.events[0].total_value, want.weight);
  EXPECT_EQ(p.sample_count(), static_cast<size_t>(want.rows));
  for (size_t s = 0; s < p.stack_count(); s++) EXPECT_EQ(p.stack_parent[s], kNoStack);
  EXPECT_EQ(top_self(p, 4), (std::vector<std::string>{"libmSin", "java.lang.Integer.getChars",
                                                      "org.acme.shop.Pricing.cached",
                                                      "org.acme.shop.Pricing.discount"}));
}

// async-profiler's `traces=N` prints only the heaviest N stacks: the shares no longer add up
// from the listed weights, and the load says how much of the profile the file holds.
TEST(ApTextReader, ACutListingSaysWhatItHolds) {
  const std::string text = ap_output_text("ap-cpu-traces.txt.gz");
  size_t cut = 0;
  for (int block = 0; block <= 20; block++) cut = text.find("\n--- ", cut + 1);
  const std::string first20 = text.substr(0, cut + 1);
  const Printed want = printed(first20, kTraceRow);
  ASSERT_EQ(want.rows, 20);
  LoadResult r = load_profile_bytes(first20);
  ASSERT_TRUE(r.ok()) << r.describe();
  ASSERT_EQ(r.profile->metadata.warnings.size(), 1u);
  const std::string &w = r.profile->metadata.warnings[0].message;
  char share[32];
  snprintf(share, sizeof share, "%lld.%02lld%%", static_cast<long long>(want.pct_hundredths / 100),
           static_cast<long long>(want.pct_hundredths % 100));
  EXPECT_NE(w.find("lists 20 stacks holding " + std::string(share)), std::string::npos) << w;
}

TEST(ApTextReader, MalformedFilesNameTheLine) {
  const std::string good = ap_output_text("ap-cpu-traces.txt.gz");
  struct Case {
    const char *what, *from, *to, *error;
  };
  const Case cases[] = {
      {"a bad block header", "\n--- 562917827 ns (18.92%), 280 samples\n",
       "\n--- 562917827 ns (18.92), 280 samples\n", "expected '--- WEIGHT"},
      {"a skipped frame index", "\n  [ 1] org.acme.shop.Pricing.discount\n  [ 2]",
       "\n  [ 1] org.acme.shop.Pricing.discount\n  [ 3]", "frame [3] where [2] was due"},
      {"a frame outside a block", "\n\n--- 180032879 ns", "\n\n  [ 0] x\n--- 180032879 ns",
       "outside a stack block"},
      {"mixed units", "\n--- 80514921 ns", "\n--- 80514921 bytes", "units 'bytes' after 'ns'"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    std::string bad = good;
    const size_t at = bad.find(c.from);
    ASSERT_NE(at, std::string::npos);
    bad.replace(at, strlen(c.from), c.to);
    LoadResult r = load_profile_bytes(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find(c.error), std::string::npos) << r.error;
    // The line that differs from the good file.
    size_t diff = 0;
    while (bad[diff] == good[diff]) diff++;
    EXPECT_EQ(r.error_line, 1 + std::count(bad.begin(), bad.begin() + diff, '\n')) << r.error;
  }
  LoadResult r = load_profile_bytes("--- Execution profile ---\nTotal samples : x\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error_line, 2);
  // Empty text (the fuzzer's first find): the error is on line 1, not on no line.
  r = read_ap_text("", LoadOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error_line, 1) << r.error;
  r = load_profile_bytes("--- Execution profile ---\nTotal samples       : 0\n\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("without stacks"), std::string::npos) << r.error;
  for (size_t cut = 0; cut < good.size(); cut += 4999) {
    LoadResult rc = load_profile_bytes(good.substr(0, cut));
    EXPECT_TRUE(rc.ok() || !rc.error.empty());
  }
}
