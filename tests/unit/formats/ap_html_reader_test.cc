// Tests for the async-profiler HTML page reader on the agent's own pages (their printed
// totals, the program's known hot spots), the event each page loads as, the heatmap refusal,
// and malformed pages (each error names its line). Equality with the JFR the jfrconv pages
// were made from is in tests/unit/engine/query_ap_outputs_test.cc.
#include "ap_test_util.h"
#include "formats/ap_html_reader.h"
#include "formats/loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>

using namespace hotlines;
using namespace hotlines::test;

namespace {

// The root's width as the page prints it: its first node call after the frame names,
// `n(3,1510)`, is the whole flame graph (`all`).
int64_t printed_root_width(const std::string &text) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(text, m, std::regex("\n\n[nf]\\(3,(?:0,0,)?([0-9]+)\\)\n")));
  return m.empty() ? -1 : std::stoll(m[1]);
}

// Per display name: self weight (leaf) and the sum of sample weights.
struct Tally {
  int64_t total = 0;
  std::map<std::string, int64_t> self;
  std::map<std::string, FrameKind> kind;
};

Tally tally(const Profile &p, bool value) {
  Tally t;
  const SampleColumns &c = p.events[0].samples;
  for (size_t i = 0; i < c.size(); i++) {
    const int64_t w = value ? c.value_at(i) : c.count_at(i);
    t.total += w;
    const Frame &f = p.frames[p.stack_frame[c.stack[i]]];
    t.self[std::string(p.str(p.functions[f.function].name))] += w;
  }
  for (const Frame &f : p.frames) t.kind[std::string(p.str(p.functions[f.function].name))] = f.kind;
  return t;
}

std::vector<std::string> top_self(const Tally &t, size_t n) {
  std::vector<std::pair<int64_t, std::string>> v;
  for (const auto &[name, w] : t.self) v.emplace_back(-w, name);
  std::sort(v.begin(), v.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < n && i < v.size(); i++) out.push_back(v[i].second);
  return out;
}

LoadResult load_text(const std::string &text) {
  return load_profile_bytes(text);
}

// The 1-based line of the first occurrence of `needle` in `text`.
int64_t line_of(const std::string &text, const std::string &needle) {
  const size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
}

} // namespace

// The agent's own pages: their totals are the root's printed width, the stacks add up to it,
// and the hottest frames are the program's known hot spots.
TEST(ApHtmlReader, AgentPagesAddUpToTheirPrintedTotals) {
  for (const char *name : {"ap-cpu-flame.html.gz", "ap-cpu-tree.html.gz"}) {
    SCOPED_TRACE(name);
    const std::string text = ap_output_text(name);
    EXPECT_EQ(detect_format(text), Format::ap_html);
    LoadResult r = load_profile_file(ap_output(name)); // gzip is transparent
    ASSERT_TRUE(r.ok()) << r.describe();
    const Profile &p = *r.profile;
    EXPECT_EQ(p.check_valid(), "");
    EXPECT_EQ(p.metadata.format, "async-profiler-html");
    EXPECT_EQ(p.metadata.producer, std::string(name).find("tree") != std::string::npos
                                       ? "async-profiler tree view"
                                       : "async-profiler flame graph");
    ASSERT_EQ(p.events.size(), 1u);
    EXPECT_EQ(p.str(p.events[0].name), "cpu"); // title "CPU profile"
    EXPECT_EQ(p.str(p.events[0].unit), "samples");
    const int64_t printed = printed_root_width(text);
    EXPECT_GT(printed, 1000);
    EXPECT_EQ(p.events[0].total_count, printed);
    EXPECT_EQ(p.events[0].total_value, printed);
    const Tally t = tally(p, false);
    EXPECT_EQ(t.total, printed);
    const std::vector<std::string> top = top_self(t, 5);
    ASSERT_GE(top.size(), 4u);
    EXPECT_EQ(top[0], "libmSin");
    for (const char *hot : {"org.acme.shop.Pricing.cached", "org.acme.shop.Pricing.discount"})
      EXPECT_NE(std::find(top.begin(), top.end(), hot), top.end()) << hot;
    // Frame kinds are the page's colours.
    EXPECT_EQ(t.kind.at("libmSin"), FrameKind::native);
    EXPECT_EQ(t.kind.at("org.acme.shop.Pricing.cached"), FrameKind::jit);
    EXPECT_EQ(t.kind.at("clear_page_erms"), FrameKind::kernel);
    EXPECT_EQ(t.kind.at("Thread::call_run"), FrameKind::cpp);
    EXPECT_EQ(t.kind.at("java.lang.Thread.run"), FrameKind::interpreted);
    EXPECT_TRUE(p.metadata.warnings.empty());
  }
}

// An allocation page's stacks end in the allocated class, which is not code: the weight stays
// on the allocating frame, and the class leaves no frame behind.
TEST(ApHtmlReader, AllocationClassesAreNotFrames) {
  LoadResult r = load_profile_file(ap_output("ap-multi-alloc-total.html.gz"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.str(p.events[0].name), "alloc");
  EXPECT_EQ(p.str(p.events[0].unit), "bytes");
  EXPECT_EQ(p.events[0].total_value,
            printed_root_width(ap_output_text("ap-multi-alloc-total.html.gz")));
  for (const Function &f : p.functions)
    for (const char *cls : {"byte[]", "java.lang.String", "java.lang.Object[]"})
      EXPECT_NE(p.str(f.name), cls);
  // Every stack now ends in the Java method that allocated.
  const SampleColumns &c = p.events[0].samples;
  for (size_t i = 0; i < c.size(); i++) {
    const Function &leaf = p.functions[p.frames[p.stack_frame[c.stack[i]]].function];
    EXPECT_NE(leaf.class_name, 0u) << p.str(leaf.name);
  }
}

TEST(ApHtmlReader, HeatmapIsRefusedWithTheReason) {
  const std::string text = ap_output_text("ap-multi-heatmap.html.gz");
  EXPECT_EQ(detect_format(text), Format::ap_html);
  LoadResult r = load_profile_file(ap_output("ap-multi-heatmap.html.gz"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("heatmap"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("20 ms"), std::string::npos) << r.error;
  EXPECT_EQ(r.error_line, line_of(text, "executionsHeatmap"));
}

TEST(ApHtmlReader, OtherHtmlIsAClearError) {
  LoadResult r = load_text("<!DOCTYPE html>\n<html><body><p>hello</p></body></html>\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("not an async-profiler flame graph"), std::string::npos) << r.error;
  // Ordinary text starting otherwise is still collapsed stacks.
  EXPECT_EQ(detect_format("a;b 1\n"), Format::collapsed);
  EXPECT_EQ(detect_format("  <HTML>\n"), Format::ap_html);
}

// Each malformed page fails at the line that broke it, never with a crash.
TEST(ApHtmlReader, MalformedPagesNameTheLine) {
  const std::string good = ap_output_text("ap-multi-cpu-lines.html");
  ASSERT_TRUE(load_text(good).ok());
  struct Case {
    const char *what, *from, *to, *error;
  };
  const Case cases[] = {
      {"a frame index past the names", "\nu(2408)\n", "\nu(99999999)\n", "names frame"},
      {"a child wider than its parent", "\nu(1867,30)\n", "\nu(1867,700)\n", "outside its parent"},
      {"a level below no parent", "\nu(2408)\n", "\nf(2408,40,0)\n", "below no parent"},
      {"a malformed call", "\nu(2408)\n", "\nu(2408,)\n", "malformed node call"},
      {"a bad escape", "\n'all',\n", "\n'a\\ll',\n", "escape"},
      {"frame type 7", "\nu(2408)\n", "\nu(2415)\n", "type 7"},
      {"a name that is not quoted", "\n];\nunpack(cpool);", "\nunpack(cpool);",
       "not a quoted string"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    std::string bad = good;
    const size_t at = bad.find(c.from);
    ASSERT_NE(at, std::string::npos);
    bad.replace(at, strlen(c.from), c.to);
    LoadResult r = load_text(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find(c.error), std::string::npos) << r.error;
    EXPECT_EQ(r.error_line, line_of(bad, std::string(c.to).substr(1))) << r.error;
    EXPECT_NE(r.describe().find("(line "), std::string::npos);
  }
  // Cut anywhere, the page is an error, not a crash.
  for (size_t cut = 0; cut < good.size(); cut += 997) {
    LoadResult r = load_text(good.substr(0, cut));
    EXPECT_TRUE(r.ok() || !r.error.empty());
  }
  LoadResult r = load_text(good.substr(0, good.find("\n];\n")));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("does not end"), std::string::npos) << r.error;
}
