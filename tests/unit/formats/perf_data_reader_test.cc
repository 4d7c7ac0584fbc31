// The perf.data reader around `perf script`: a real recording (perf record of a shell loop)
// loads, also gzipped (inflated to a temporary file for perf), and equals the text perf script
// prints for it; a file perf cannot read fails with perf's own message; a cancelled load stops.
#include "formats/loader.h"
#include "formats/perf_data_reader.h"
#include "formats/perf_script_reader.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

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

} // namespace
