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
