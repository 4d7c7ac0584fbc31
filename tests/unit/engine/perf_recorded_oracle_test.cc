// Exactness against perf itself, on recordings made here: the native-shop programs
// (tests/fixtures/native-shop) are built with g++ -g and Debian's rustc -g into a temporary
// folder and profiled by a real `perf record -g`; the perf.data is loaded as hotlines loads
// it (perf script underneath). Per source line, the engine's self samples equal `perf report
// --sort srcline -n` for every line of the program's file, its hot line is perf annotate's
// hottest line, functions inlined there are frames of their own, and every frame name equals
// what perf prints for it demangled, from the mangled names alone (perf script --no-demangle):
// C++, Rust's legacy and v0 manglings.
#include "formats/loader.h"
#include "formats/native_names.h"
#include "server/engine/profile_index.h"
#include "server/engine/query_lines.h"
#include "server/engine/view_weights.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

using namespace hotlines;
using namespace hotlines::test;

namespace {

namespace fs = std::filesystem;

class PerfRecorded : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_FALSE(tmp_.path().empty()); }

  // Runs a shell command in the temporary folder; fails the test when it fails.
  std::string sh(const std::string &cmd) {
    int status = 0;
    std::string out = run_command("cd '" + dir_ + "' && " + cmd + " 2>" + dir_ + "/err", &status);
    EXPECT_EQ(status, 0) << cmd << "\n" << read_file(dir_ + "/err");
    return out;
  }

  // perf record -g of the program at `bin` with its arguments.
  void record(const std::string &bin_and_args) {
    sh("perf record -q -e cpu-clock -F 999 -g -o perf.data " + bin_and_args + " >/dev/null");
  }

  // perf report --sort srcline: "file:line" -> samples.
  std::map<std::string, int64_t> perf_srclines() {
    std::istringstream in(sh("perf report -f -i perf.data --stdio -n --sort srcline "
                             "--no-children -g none --full-source-path"));
    static const std::regex row(R"(^\s*[0-9.]+%\s+([0-9]+)\s+(\S.*\S)\s*$)");
    std::map<std::string, int64_t> out;
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (line[0] != '#' && std::regex_match(line, m, row)) out[m[2]] += std::stoll(m[1]);
    }
    return out;
  }

  // perf annotate's summary of the binary's hottest function: its first (hottest) `file:line`
  // with a line. Line 0 (code of no line, which perf report leaves out too) can come first: on
  // some CPUs the samples of a loop land as much on the instruction after its division.
  std::string annotate_hottest(const std::string &bin) {
    std::string out = sh("perf annotate -f -i perf.data --stdio -l --full-paths");
    std::smatch m;
    std::regex summary("Sorted summary for file " +
                       std::regex_replace(bin, std::regex("\\."), "\\.") +
                       "\n-+\n\n((?:\\s+[0-9.]+ \\S+:[0-9]+\n)+)");
    EXPECT_TRUE(std::regex_search(out, m, summary)) << out.substr(0, 2000);
    std::istringstream rows(m.size() > 1 ? std::string(m[1]) : "");
    for (std::string percent, where; rows >> percent >> where;)
      if (!where.ends_with(":0")) return where;
    return "";
  }

  // Checks the loaded perf.data's lines of `source` against perf report and annotate.
  void expect_lines_match_perf(const std::string &source, const std::string &bin) {
    LoadResult r = load_profile_file(dir_ + "/perf.data");
    ASSERT_TRUE(r.ok()) << r.describe();
    EXPECT_EQ(r.profile->metadata.format, "perf-data");
    auto idx = ProfileIndex::build(std::move(r.profile));
    View v;
    v.measure = Measure::count;
    ViewResult vr = compute_view(*idx, v);
    ASSERT_TRUE(vr.ok()) << vr.error;
    FileLines fl = file_lines(*vr.weights, source);
    ASSERT_TRUE(fl.found) << source;

    std::map<std::string, int64_t> perf = perf_srclines();
    std::map<std::string, int64_t> ours, theirs;
    for (const FileLine &l : fl.lines)
      if (l.self > 0) ours[source + ":" + std::to_string(l.line)] = l.self;
    for (const auto &[where, n] : perf)
      if (where.rfind(source + ":", 0) == 0 && where != source + ":0") theirs[where] = n;
    EXPECT_EQ(ours, theirs);
    ASSERT_FALSE(ours.empty());
    auto hottest = std::max_element(ours.begin(), ours.end(),
                                    [](auto &a, auto &b) { return a.second < b.second; });
    EXPECT_EQ(hottest->first, annotate_hottest(bin));
    hot_line_ = hottest->first;
    for (const FileLine &l : fl.lines) line_total_[l.line] = l.total;
  }

  // For every frame perf prints, the mangled name demangled as perf does it.
  void expect_demangled_like_perf() {
    std::istringstream plain(sh("perf script -f -i perf.data -F ip,sym")),
        mangled(sh("perf script -f -i perf.data -F ip,sym --no-demangle"));
    std::string a, b;
    size_t names = 0, differ = 0;
    while (std::getline(plain, a) && std::getline(mangled, b)) {
      auto name = [](const std::string &s) {
        size_t at = s.find_first_not_of(" \t");
        at = s.find(' ', at);
        return at == std::string::npos ? std::string() : s.substr(at + 1);
      };
      std::string want = name(a), got = name(b);
      if (got.empty()) continue;
      names++;
      differ += want != got;
      EXPECT_EQ(demangle_native(got), want) << got;
    }
    EXPECT_GT(names, 100u);
    EXPECT_GT(differ, 0u); // some names were mangled
  }

  // The Rust shop built with `flags`, recorded, its lines and names compared with perf's.
  void expect_rust_like_perf(const std::string &flags) {
    const std::string src = fixture_path("native-shop/rust/shop.rs");
    sh("cp '" + src + "' shop.rs && /usr/bin/rustc -g -C opt-level=1 -C force-frame-pointers=yes " +
       flags + " -o shop shop.rs");
    record("./shop 100000000");
    expect_lines_match_perf(dir_ + "/shop.rs", dir_ + "/shop");
    EXPECT_EQ(hot_line_, dir_ + "/shop.rs:12"); // the loop of Pricing::<f32>::discount
    expect_demangled_like_perf();
  }

  test::TempDir tmp_{"hotlines-perf-test"};
  const std::string &dir_ = tmp_.path();
  std::string hot_line_;
  std::map<int32_t, int64_t> line_total_; // of the program's file, by line
};

} // namespace

TEST_F(PerfRecorded, CppHotLineEqualsPerfReportAndAnnotate) {
  const std::string src = fixture_path("native-shop/src/shop.cc");
  sh("cp '" + src + "' shop.cc && g++ -g -O1 -fno-omit-frame-pointer -pthread -o shop shop.cc");
  record("./shop 100000000");
  expect_lines_match_perf(dir_ + "/shop.cc", dir_ + "/shop");
  EXPECT_EQ(hot_line_, dir_ + "/shop.cc:17"); // the loop of Pricing::discount
  // std::to_string is inlined into Pricing::labels' loop: DWARF's inlined frames give that line
  // a total beyond what perf attributes to it as a leaf.
  auto perf = perf_srclines();
  EXPECT_GT(line_total_[22], perf[dir_ + "/shop.cc:22"] + 10);
  expect_demangled_like_perf();
}

TEST_F(PerfRecorded, RustHotLineEqualsPerfReportAndAnnotate) {
  expect_rust_like_perf("");
}

// Rust's v0 mangling (`_RNv…`): names demangled as perf prints them.
TEST_F(PerfRecorded, RustV0HotLineEqualsPerfReportAndAnnotate) {
  expect_rust_like_perf("-C symbol-mangling-version=v0");
  EXPECT_NE(sh("perf script -f -i perf.data -F ip,sym --no-demangle").find("_RNv"),
            std::string::npos);
}
