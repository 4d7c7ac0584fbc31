// Bad pprof input: truncated gzip, truncated and corrupt protobuf, ids that point nowhere,
// value counts that do not match the sample types, string indices out of range. Each must be
// a clear error (never a crash); every truncation and byte flip of the fixtures either fails
// cleanly or yields a valid model. Run under -DHOTLINES_SANITIZE=address,undefined too.
#include "formats/gzip.h"
#include "formats/loader.h"
#include "formats/pprof_reader.h"
#include "pprof_proto_builder.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::string raw_fixture(const std::string &rel) {
  std::string d = read_file(fixture_path(rel)), out, err;
  if (is_gzip(d)) {
    EXPECT_TRUE(gunzip(d, &out, &err)) << err;
  }
  return is_gzip(d) ? out : d;
}

const char *kFixtures[] = {"go-shop/profiles/cpu.pprof", "go-shop/profiles/mem.pprof",
                           "go-shop/profiles/block.pprof", "java-shop/profiles/ap-alloc.pb"};

// A small valid profile the tests then break.
ProtoProfile valid() {
  ProtoProfile pp;
  pp.type("samples", "count");
  pp.type("cpu", "nanoseconds");
  uint64_t a = pp.frame("main.a", 3), b = pp.frame("main.b", 7);
  pp.sample({a, b}, {1, 10});
  return pp;
}

std::string error_of(const std::string &bytes) {
  LoadResult r = read_pprof(bytes);
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string() : r.describe();
}

std::string error_of(const ProtoProfile &pp) {
  return error_of(pp.bytes());
}

#define EXPECT_HAS(haystack, needle)                                                               \
  EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

} // namespace

TEST(PprofBadInput, ValidBaseline) {
  LoadResult r = read_pprof(valid().bytes());
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->check_valid(), "");
}

TEST(PprofBadInput, TruncatedGzip) {
  std::string gz = read_file(fixture_path(kFixtures[0]));
  ASSERT_TRUE(is_gzip(gz));
  for (size_t n : {size_t(10), gz.size() / 2, gz.size() - 5}) {
    LoadResult r = load_profile_bytes(std::string_view(gz).substr(0, n));
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_HAS(r.error, "gzip");
  }
}

TEST(PprofBadInput, TruncatedProtobufSaysWhere) {
  std::string d = raw_fixture(kFixtures[0]);
  std::string e = error_of(d.substr(0, d.size() * 2 / 3));
  EXPECT_HAS(e, "pprof: corrupt or truncated protobuf");
  EXPECT_HAS(e, "at byte");
  // Errors inside gzip name the inflated offset.
  LoadResult r = load_profile_bytes(gzip_compress(d.substr(0, d.size() / 2)));
  ASSERT_FALSE(r.ok());
  EXPECT_HAS(r.describe(), "inflated");
}

TEST(PprofBadInput, EveryTruncationAndByteFlipFailsCleanly) {
  for (const char *rel : kFixtures) {
    std::string d = raw_fixture(rel);
    size_t ok = 0, failed = 0;
    for (size_t n = 0; n < d.size(); n++) {
      LoadResult r = read_pprof(std::string_view(d).substr(0, n));
      if (r.ok()) {
        ok++;
        EXPECT_EQ(r.profile->check_valid(), "") << rel << " truncated at " << n;
      } else {
        failed++;
        EXPECT_FALSE(r.error.empty());
      }
    }
    EXPECT_GT(failed, ok) << rel;
    for (size_t i = 0; i < d.size(); i++)
      for (uint8_t mask : {0x01, 0x80, 0xff}) {
        std::string c = d;
        c[i] = static_cast<char>(c[i] ^ mask);
        LoadResult r = read_pprof(c);
        if (r.ok()) {
          EXPECT_EQ(r.profile->check_valid(), "") << rel << " flip at " << i;
        } else {
          EXPECT_FALSE(r.error.empty());
        }
      }
  }
}

TEST(PprofBadInput, CorruptWireFormat) {
  EXPECT_HAS(error_of(std::string("\x0b\x00", 2)), "unsupported wire type 3"); // a group
  EXPECT_HAS(error_of(std::string("\x00", 1)), "invalid field number 0");
  EXPECT_HAS(error_of(std::string("\x32\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12)),
             "varint");
  EXPECT_HAS(error_of(std::string("\x32\x05\x61", 3)), "runs past the end");
  // A known field with the wrong wire type: sample (2) as a varint.
  ProtoProfile pp = valid();
  std::string bytes = pp.bytes() + std::string("\x10\x01", 2);
  EXPECT_HAS(error_of(bytes), "field Profile.sample has wire type 0, expected 2");
  EXPECT_HAS(error_of(std::string()), "string table is missing");
}

TEST(PprofBadInput, DanglingIds) {
  ProtoProfile s = valid();
  s.pb.mutable_sample(0)->set_location_id(0, 99);
  EXPECT_HAS(error_of(s), "sample 0 refers to location id 99, which does not exist");

  ProtoProfile f = valid();
  f.pb.mutable_location(1)->mutable_line(0)->set_function_id(42);
  EXPECT_HAS(error_of(f), "location id 2 has a line in function id 42, which does not exist");

  ProtoProfile f0 = valid();
  f0.pb.mutable_location(0)->mutable_line(0)->set_function_id(0);
  EXPECT_HAS(error_of(f0), "function id 0, which does not exist");

  ProtoProfile m = valid();
  m.pb.mutable_location(0)->set_mapping_id(7);
  EXPECT_HAS(error_of(m), "refers to mapping id 7, which does not exist");

  ProtoProfile dup = valid();
  dup.pb.mutable_location(1)->set_id(1);
  EXPECT_HAS(error_of(dup), "two locations have id 1");

  ProtoProfile zero = valid();
  zero.pb.mutable_function(0)->set_id(0);
  EXPECT_HAS(error_of(zero), "a function has the reserved id 0");

  // Sparse ids (addresses as ids) resolve through the map path.
  ProtoProfile sparse = valid();
  sparse.pb.mutable_location(0)->set_id(0x7fff00001000);
  sparse.pb.mutable_sample(0)->set_location_id(0, 0x7fff00001000);
  LoadResult r = read_pprof(sparse.bytes());
  ASSERT_TRUE(r.ok()) << r.describe();
  sparse.pb.mutable_sample(0)->set_location_id(0, 0x7fff00001001);
  EXPECT_HAS(error_of(sparse), "location id 140733193392129, which does not exist");
}

TEST(PprofBadInput, ValueCountsMustMatchSampleTypes) {
  ProtoProfile pp = valid();
  pp.pb.mutable_sample(0)->mutable_value()->RemoveLast();
  EXPECT_HAS(error_of(pp), "sample 0 has 1 values but the profile has 2 sample types");
  ProtoProfile no_types = valid();
  no_types.pb.clear_sample_type();
  EXPECT_HAS(error_of(no_types), "has samples but no sample types");
}

TEST(PprofBadInput, StringIndicesOutOfRange) {
  ProtoProfile fn = valid();
  fn.pb.mutable_function(0)->set_name(1000);
  EXPECT_HAS(error_of(fn), "function id 1 name: string index 1000 out of range");

  ProtoProfile neg = valid();
  neg.pb.mutable_function(1)->set_filename(-1);
  EXPECT_HAS(error_of(neg), "string index -1 out of range");

  ProtoProfile type = valid();
  type.pb.mutable_sample_type(1)->set_unit(77);
  EXPECT_HAS(error_of(type), "sample type unit: string index 77");

  ProtoProfile label = valid();
  auto *l = label.pb.mutable_sample(0)->add_label();
  l->set_key(500);
  EXPECT_HAS(error_of(label), "sample 0 label key: string index 500");

  ProtoProfile comment = valid();
  comment.pb.add_comment(31);
  EXPECT_HAS(error_of(comment), "comment: string index 31");

  ProtoProfile first = valid();
  first.pb.set_string_table(0, "x");
  EXPECT_HAS(error_of(first), "must start with an empty string");
}

TEST(PprofBadInput, ValuesBeyondInt64Totals) {
  ProtoProfile pp = valid();
  pp.pb.mutable_sample(0)->set_value(1, INT64_MAX);
  pp.sample({1}, {1, INT64_MAX});
  EXPECT_HAS(error_of(pp), "beyond the 64-bit range");
  ProtoProfile min = valid();
  min.pb.mutable_sample(0)->set_value(1, INT64_MIN);
  EXPECT_HAS(error_of(min), "beyond the 64-bit range");
}

TEST(PprofBadInput, CancelledLoadStops) {
  std::atomic<bool> cancel{true};
  LoadOptions o;
  o.cancel = &cancel;
  ProtoProfile pp = valid();
  LoadResult r = read_pprof(pp.bytes(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "cancelled");
}

TEST(PprofBadInput, ManySampleTypesAndThreadsStayLinear) {
  // 20000 sample types and 20000 distinct threads: grouping, naming and thread creation must
  // not be quadratic (a crafted file should not hang the server).
  ProtoProfile pp;
  const int n = 20000;
  for (int i = 0; i < n; i++) pp.type("t" + std::to_string(i % 5000), "count");
  uint64_t f = pp.frame("main.f", 1);
  std::vector<int64_t> values(n, 1);
  for (int i = 0; i < n; i++) {
    auto *s = pp.sample({f}, i == 0 ? values : std::vector<int64_t>(n, 0));
    pp.num_label(s, "thread_id", i);
    if (i > 50) break; // enough samples; the types dominate
  }
  ProtoProfile threads;
  threads.type("samples", "count");
  uint64_t g = threads.frame("main.g", 1);
  for (int i = 0; i < n; i++) threads.num_label(threads.sample({g}, {1}), "thread_id", i);
  auto t0 = std::chrono::steady_clock::now();
  LoadResult a = read_pprof(pp.bytes());
  LoadResult b = read_pprof(threads.bytes());
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(a.ok()) << a.describe();
  ASSERT_TRUE(b.ok()) << b.describe();
  EXPECT_EQ(a.profile->events.size(), static_cast<size_t>(n));
  EXPECT_EQ(a.profile->check_valid(), "");
  EXPECT_EQ(b.profile->threads.size(), static_cast<size_t>(n));
  EXPECT_LT(s, 10.0);
}
