// The perf.data reader around `perf script`: a real recording (perf record of a shell loop)
// loads, also gzipped (inflated to a temporary file for perf), and equals the text perf script
// prints for it; a file perf cannot read fails with perf's own message; a cancelled load stops;
// a binary rebuilt after the recording gives its lines from perf's build-id cache, or none; one
// without .debug_aranges gives its lines; events perf lost while recording are said.
#include "formats/loader.h"
#include "formats/perf_data_reader.h"
#include "formats/perf_script_reader.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>

using namespace hotlines;
using namespace hotlines::test;

namespace {

namespace fs = std::filesystem;

class PerfData : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_FALSE(tmp_.path().empty()); }
  test::TempDir tmp_{"hotlines-perf-data"};
  const std::string &dir_ = tmp_.path();
};

TEST_F(PerfData, RecordingLoadsPlainAndGzippedAsItsText) {
  int status = 0;
  std::string out = run_command(
      "cd " + dir_ +
          " && perf record -q -e cpu-clock -F 2000 -g -o perf.data -- sh -c 'i=0; while [ $i -lt "
          "300000 ]; do i=$((i+1)); done' 2>&1 && gzip -k perf.data && perf script -f -i perf.data "
          "-F +pid,+period > perf.txt 2>/dev/null",
      &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_TRUE(is_perf_data(read_file(dir_ + "/perf.data")));
  LoadResult plain = load_profile_file(dir_ + "/perf.data");
  ASSERT_TRUE(plain.ok()) << plain.describe();
  EXPECT_EQ(plain.profile->metadata.format, "perf-data");
  EXPECT_EQ(plain.profile->check_valid(), "");
  LoadResult text = read_perf_script(read_file(dir_ + "/perf.txt"));
  ASSERT_TRUE(text.ok()) << text.describe();
  EXPECT_GT(text.profile->events[0].total_count, 100);
  EXPECT_EQ(plain.profile->events[0].total_count, text.profile->events[0].total_count);
  EXPECT_EQ(plain.profile->events[0].total_value, text.profile->events[0].total_value);
  LoadResult gz = load_profile_file(dir_ + "/perf.data.gz");
  ASSERT_TRUE(gz.ok()) << gz.describe();
  EXPECT_EQ(gz.profile->events[0].total_value, plain.profile->events[0].total_value);

  std::atomic<bool> cancel{true};
  LoadOptions o;
  o.cancel = &cancel;
  LoadResult cancelled = read_perf_data_file(dir_ + "/perf.data", o);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error, "cancelled");

  // The text perf prints is limited though it is never held whole.
  LoadOptions small;
  small.limits.max_bytes = 4096;
  small.limits.bytes_hint = "--max-profile-mib";
  LoadResult limited = read_perf_data_file(dir_ + "/perf.data", small);
  ASSERT_FALSE(limited.ok());
  EXPECT_EQ(limited.error,
            "perf script printed more than the limit of 0 MiB (raise it with --max-profile-mib)");
}

// A recording whose ring buffer (one page) cannot hold one DWARF sample (8 KiB of stack) loses
// them all: the load's error says so, in perf's words. A recording that lost some loads with
// the same words as a warning.
TEST_F(PerfData, LostEventsAreSaid) {
  int status = 0;
  std::string out = run_command("cd " + dir_ +
                                    " && perf record -q -m 1 --call-graph dwarf -F 4000 -e "
                                    "cpu-clock -o perf.data -- sh -c 'i=0; while [ $i -lt 300000 "
                                    "]; do i=$((i+1)); done' 2>&1",
                                &status);
  ASSERT_EQ(status, 0) << out;
  LoadResult r = load_profile_file(dir_ + "/perf.data");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("perf script text without samples (perf lost events while recording "
                         "(perf script: Processed "),
            std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find(" and lost 100.00%!"), std::string::npos) << r.error;

  EXPECT_EQ(perf_lost_warning("Warning:\nProcessed 1135 events and lost 26 chunks!\n\nCheck "
                              "IO/CPU overload!\n\nProcessed 819 samples and lost 31.17%!\n"),
            "perf lost events while recording (perf script: Processed 1135 events and lost 26 "
            "chunks!; Processed 819 samples and lost 31.17%!): samples, and the mappings of "
            "programs that started meanwhile, may be missing; record at a lower frequency (-F) "
            "or on a less loaded machine");
  EXPECT_EQ(perf_lost_warning("Warning:\nsomething else\n"), "");
}

TEST_F(PerfData, PerfsErrorIsTheLoadError) {
  std::string bad = std::string("PERFILE2") + std::string(200, '\x01');
  { std::ofstream(dir_ + "/bad.data", std::ios::binary) << bad; }
  LoadResult r = load_profile_file(dir_ + "/bad.data");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.rfind(dir_ + "/bad.data: perf script failed (exit code ", 0), 0u) << r.error;
  EXPECT_NE(r.error.find("): "), std::string::npos) << r.error; // perf's stderr follows

  LoadOptions no_tools;
  no_tools.run_tools = false;
  LoadResult refused = load_profile_bytes(bad, no_tools);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error.find("by running 'perf script'"), std::string::npos) << refused.error;
}

// Samples by the line of their leaf frame, those in `file`.
std::map<int32_t, int64_t> leaf_lines(const Profile &p, const std::string &file) {
  std::map<int32_t, int64_t> out;
  const SampleColumns &c = p.events[0].samples;
  for (size_t i = 0; i < c.size(); i++) {
    if (c.stack[i] == kNoStack) continue;
    const Frame &f = p.frames[p.stack_frame[c.stack[i]]];
    if (p.str(p.functions[f.function].file) == file) out[f.line]++;
  }
  return out;
}

// Whether spin's loop (lines 4 and 5 of `program`) holds at least 90% of the samples, its body
// (line 5) more than `body` of them. Which of the two is hotter depends on the CPU: on some,
// the samples of the division land as much on the increment after it.
testing::AssertionResult loop_is_hot(const std::map<int32_t, int64_t> &lines, int64_t body) {
  int64_t all = 0, loop = 0;
  for (auto [line, n] : lines) all += n, loop += line == 4 || line == 5 ? n : 0;
  const auto body_n = lines.count(5) ? lines.at(5) : 0;
  if (loop * 10 >= all * 9 && body_n > body) return testing::AssertionSuccess();
  std::string said;
  for (auto [line, n] : lines) said += " line " + std::to_string(line) + ": " + std::to_string(n);
  return testing::AssertionFailure() << "samples by line:" << said;
}

// spin's loop is lines 4 (its test and increment) and 5 (its body).
const std::string program =
    "#include <cstdio>\n"
    "__attribute__((noinline)) double spin(long n) {\n"
    "  double s = 0;\n"
    "  for (long i = 0; i < n; i++)\n"
    "    s += static_cast<double>(i) * 0.5 / (static_cast<double>(i) + 1.5);\n"
    "  return s;\n"
    "}\n"
    "int main() { std::printf(\"%f\\n\", spin(100000000)); }\n";
// Builds hot.cc into hot (in the current directory).
const std::string build_hot = "g++ -g -O1 -fno-omit-frame-pointer hot.cc -o hot 2>&1";

} // namespace

// A binary without .debug_aranges (clang's by default; here GCC's with the section
// removed) has its lines: its compile units are found by their own ranges.
TEST_F(PerfData, LinesWithoutDebugAranges) {
  { std::ofstream(dir_ + "/hot.cc") << program; }
  int status = 0;
  std::string out = run_command(
      "cd " + dir_ + " && " + build_hot +
          " && objcopy --remove-section=.debug_aranges hot 2>&1"
          " && readelf -S hot | grep -c debug_aranges;"
          " perf record -q --no-buildid-cache -e cpu-clock -F 2000 -g -o perf.data ./hot 2>&1 "
          ">/dev/null",
      &status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(out, "0\n"); // no .debug_aranges left
  LoadResult r = load_profile_file(dir_ + "/perf.data");
  ASSERT_TRUE(r.ok()) << r.describe();
  std::map<int32_t, int64_t> lines = leaf_lines(*r.profile, dir_ + "/hot.cc");
  EXPECT_TRUE(loop_is_hot(lines, 50));
}

// hot.cc rebuilt has three lines more at the top (its loop on line 8). Recorded with perf's
// build-id cache in cache/ and without one.
TEST_F(PerfData, RebuiltBinaryLinesComeFromTheBuildIdCacheOrNone) {
  { std::ofstream(dir_ + "/hot.cc") << program; }
  int status = 0;
  std::string out = run_command(
      "cd " + dir_ + " && " + build_hot + " && perf --buildid-dir " + dir_ +
          "/cache record -q -e cpu-clock -F 2000 -g -o "
          "cached.data ./hot 2>&1 >/dev/null"
          " && perf record -q --no-buildid-cache -e cpu-clock -F 2000 -g -o uncached.data ./hot "
          "2>&1 >/dev/null && mkdir empty",
      &status);
  ASSERT_EQ(status, 0) << out;
  const std::string hot_cc = dir_ + "/hot.cc", hot = dir_ + "/hot";
  setenv("PERF_BUILDID_DIR", (dir_ + "/cache").c_str(), 1);
  LoadResult before = load_profile_file(dir_ + "/cached.data");
  ASSERT_TRUE(before.ok()) << before.describe();
  EXPECT_TRUE(loop_is_hot(leaf_lines(*before.profile, hot_cc), 50));

  { std::ofstream(dir_ + "/hot.cc") << "\n\n\n" << program; }
  out = run_command("cd " + dir_ + " && " + build_hot, &status);
  ASSERT_EQ(status, 0) << out;
  // The cached copy: the recorded lines, line for line what they were before the rebuild.
  LoadResult cached = load_profile_file(dir_ + "/cached.data");
  ASSERT_TRUE(cached.ok()) << cached.describe();
  EXPECT_EQ(leaf_lines(*cached.profile, hot_cc), leaf_lines(*before.profile, hot_cc));
  for (const LoadWarning &w : cached.profile->metadata.warnings)
    EXPECT_EQ(w.message.find("rebuilt"), std::string::npos) << w.message;

  // No copy: no line from the rebuilt binary, and a warning that names it.
  setenv("PERF_BUILDID_DIR", (dir_ + "/empty").c_str(), 1);
  LoadResult uncached = load_profile_file(dir_ + "/uncached.data");
  unsetenv("PERF_BUILDID_DIR");
  ASSERT_TRUE(uncached.ok()) << uncached.describe();
  std::map<int32_t, int64_t> lines = leaf_lines(*uncached.profile, hot_cc);
  EXPECT_EQ(lines.count(8), 0u);
  EXPECT_EQ(lines.count(5), 0u);
  bool warned = false;
  std::string said;
  for (const LoadWarning &w : uncached.profile->metadata.warnings) {
    said += w.message + "\n";
    warned |= w.message == "no source lines for " + hot +
                               ": rebuilt since the recording (its build-id is not the one perf "
                               "recorded) and not in perf's build-id cache";
  }
  EXPECT_TRUE(warned) << said;
}
