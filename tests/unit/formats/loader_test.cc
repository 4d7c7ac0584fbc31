// Tests for format detection by content, gzip handling and load errors.
#include "formats/gzip.h"
#include "formats/loader.h"
#include "test_util.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

TEST(Loader, DetectsByContentNotName) {
  EXPECT_EQ(detect_format(read_file(java_profile("ap-cpu.jfr"))), Format::jfr);
  EXPECT_EQ(detect_format(read_file(java_profile("ap-alloc.pb"))), Format::pprof);
  EXPECT_EQ(detect_format(read_file(fixture_path("go-shop/profiles/mutex.pprof")).substr(0, 2)),
            Format::unknown); // gzip magic alone is not a profile
  EXPECT_EQ(detect_format(read_file(java_profile("ap-cpu.collapsed"))), Format::collapsed);
}

TEST(Loader, GzipIsInflatedAndDetectedAgain) {
  std::string text = read_file(java_profile("ap-cpu.collapsed"));
  std::string gz = gzip_compress(text);
  ASSERT_TRUE(is_gzip(gz));
  LoadResult r = load_profile_bytes(gz);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_count, 452);
  // Concatenated gzip members inflate as one stream, as gunzip does.
  std::string out, err;
  ASSERT_TRUE(gunzip(gzip_compress("ab") + gzip_compress("cd"), &out, &err)) << err;
  EXPECT_EQ(out, "abcd");
}

TEST(Loader, TruncatedGzipIsAnError) {
  std::string gz = gzip_compress(read_file(java_profile("ap-cpu.collapsed")));
  LoadResult r = load_profile_bytes(std::string_view(gz).substr(0, gz.size() / 2));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("gzip: truncated"), std::string::npos) << r.error;
}

TEST(Loader, UnknownBinaryDataSaysWhatWasSeen) {
  std::string junk = std::string("\x7f"
                                 "ELF\x02\x01\x01\x00\x00\x00\x00",
                                 12) +
                     std::string(100, '\x00');
  LoadResult r = load_profile_bytes(junk);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("unrecognized binary data (first bytes: 7f 45 4c 46"), std::string::npos)
      << r.error;
}

TEST(Loader, FileErrorsNameThePath) {
  LoadResult r = load_profile_file("/nonexistent/p.jfr");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "cannot read /nonexistent/p.jfr: No such file or directory");
  r = load_profile_file("/tmp");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("is a directory"), std::string::npos);
  EXPECT_FALSE(load_profile_bytes("").ok());
}

// A gzip bomb: 16 MiB of zeros in 16 KiB. Past the size limit, or past the ratio limit once
// the output passes the ratio floor, inflation stops with an error naming the limit and how
// to raise it.
TEST(Loader, GzipBombStopsAtTheLimits) {
  const std::string bomb = gzip_compress(std::string(16 << 20, '\0'), 9);
  ASSERT_LT(bomb.size(), size_t(64) << 10);
  LoadOptions o;
  o.limits.max_bytes = 1 << 20;
  o.limits.bytes_hint = "the setting hotlines.limits.profileMiB";
  LoadResult r = load_profile_bytes(bomb, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "gzip: inflated size exceeds the limit of 1 MiB (raise it with the setting "
                     "hotlines.limits.profileMiB)");

  LoadOptions ratio;
  ratio.limits.ratio_floor = 1 << 20;
  ratio.limits.max_inflate_ratio = 100;
  ratio.limits.ratio_hint = "--max-inflate-ratio";
  r = load_profile_bytes(bomb, ratio);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "gzip: inflated size passes 100 times the compressed size of " +
                         std::to_string(bomb.size()) +
                         " bytes, the inflate ratio limit (a gzip bomb?) (raise it with "
                         "--max-inflate-ratio)");
  // Raised, it inflates (and is then no profile: binary zeros).
  ratio.limits.max_inflate_ratio = 1e6;
  r = load_profile_bytes(bomb, ratio);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("unrecognized binary data"), std::string::npos) << r.error;
}

TEST(Loader, CompressibleProfilesPassTheDefaultLimits) {
  // Text compresses better than 100:1 here, but 2 MiB is below the ratio floor.
  std::string text;
  for (int i = 0; i < 40000; i++) text += "main;Worker.run;Compute.step 1\n";
  const std::string gz = gzip_compress(text, 9);
  ASSERT_GT(text.size(), 100 * gz.size());
  LoadResult r = load_profile_bytes(gz);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_count, 40000);
}

TEST(Loader, CancelStopsInflating) {
  const std::string bomb = gzip_compress(std::string(4 << 20, '\0'), 9);
  std::atomic<bool> cancel{true};
  std::string out, err;
  EXPECT_FALSE(gunzip(bomb, &out, &err, LoadLimits{}, &cancel));
  EXPECT_EQ(err, "cancelled");
  EXPECT_TRUE(out.empty());
}
