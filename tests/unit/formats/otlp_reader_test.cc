// Tests for the OTLP reader, its detection and the writer's output at the model level: the
// files async-profiler 4.5 wrote (agent and jfrconv) against the protobuf library's own parse
// of the same bytes (otlp_profiles.proto through protoc), frame names as the collapsed reader
// gives them, threads and times, gzip, bad input with offsets, and other spec versions
// rejected by name. Numbers against the JFR and round trips through the engine's queries are
// in tests/unit/engine/query_otlp_test.cc.
#include "formats/collapsed_reader.h"
#include "formats/gzip.h"
#include "formats/jvm_names.h"
#include "formats/loader.h"
#include "formats/otlp_reader.h"
#include "formats/otlp_writer.h"
#include "otlp_profiles.pb.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

using namespace hotlines;
using namespace hotlines::test;

namespace {

namespace pb = hotlines::otlp;

std::string ap_output(const std::string &name) {
  return java_profile("async-profiler-outputs/" + name);
}

std::unique_ptr<Profile> load(const std::string &path) {
  LoadResult r = load_profile_file(path);
  EXPECT_TRUE(r.ok()) << r.describe();
  return r.ok() ? std::move(r.profile) : nullptr;
}

pb::ProfilesData parse(const std::string &bytes) {
  pb::ProfilesData d;
  EXPECT_TRUE(d.ParseFromString(bytes));
  return d;
}

// What the protobuf library sees: per sample type "type/unit", the sum of the observations
// (values, or one per timestamp) and the number of observations.
std::map<std::string, std::pair<int64_t, int64_t>> library_sums(const pb::ProfilesData &d) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  const auto &strings = d.dictionary().string_table();
  for (const auto &rp : d.resource_profiles())
    for (const auto &sp : rp.scope_profiles())
      for (const auto &p : sp.profiles()) {
        auto &o = out[strings[p.sample_type().type_strindex()] + "/" +
                      strings[p.sample_type().unit_strindex()]];
        for (const auto &s : p.samples()) {
          if (s.values_size() == 0) {
            o.first += s.timestamps_unix_nano_size();
            o.second += s.timestamps_unix_nano_size();
          }
          for (int64_t v : s.values()) {
            o.first += v;
            o.second++;
          }
        }
      }
  return out;
}

// Raw protobuf wire encoding, to build messages of other spec versions.
std::string varint(uint64_t v) {
  std::string s;
  while (v >= 0x80) {
    s.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  s.push_back(static_cast<char>(v));
  return s;
}
std::string len_field(int field, const std::string &body) {
  return varint(static_cast<uint64_t>(field) << 3 | 2) + varint(body.size()) + body;
}
std::string varint_field(int field, uint64_t v) {
  return varint(static_cast<uint64_t>(field) << 3) + varint(v);
}

// A minimal well-formed v1.10.0 file whose one sample is `sample`, stack 1 = one location.
std::string file_with_sample(const std::string &sample, const std::string &profile_extra = "") {
  std::string dict = len_field(5, "") + len_field(5, "cpu") + len_field(5, "count") +
                     len_field(5, "main") + len_field(3, "") + len_field(3, varint_field(1, 3)) +
                     len_field(2, "") + len_field(2, len_field(3, varint_field(1, 1))) +
                     len_field(7, "") + len_field(7, len_field(1, varint(1)));
  std::string profile =
      len_field(1, varint_field(1, 1) + varint_field(2, 2)) + profile_extra + len_field(2, sample);
  return len_field(1, len_field(2, len_field(2, profile))) + len_field(2, dict);
}

LoadResult read_bytes(const std::string &bytes) {
  return load_profile_bytes(bytes);
}

TEST(OtlpDetect, TellsOtlpFromPprof) {
  for (const char *f : {"ap-cpu.otlp", "ap-multi-cpu-lines.otlp", "ap-multi-alloc.otlp"})
    EXPECT_EQ(detect_format(read_file(ap_output(f))), Format::otlp) << f;
  EXPECT_EQ(detect_format(read_file(java_profile("ap-alloc.pb"))), Format::pprof);
  for (const char *f : {"cpu.pprof", "mem.pprof", "mutex.pprof", "block.pprof"}) {
    std::string raw, err;
    ASSERT_TRUE(gunzip(read_file(fixture_path(std::string("go-shop/profiles/") + f)), &raw, &err));
    EXPECT_EQ(detect_format(raw), Format::pprof) << f;
    EXPECT_FALSE(looks_like_otlp(raw)) << f;
  }
  EXPECT_EQ(format_name(Format::otlp), "otlp");
  // A pprof file whose only message is a sample type: field 1 holds varints.
  EXPECT_FALSE(looks_like_otlp(len_field(1, varint_field(1, 1) + varint_field(2, 2))));
  EXPECT_TRUE(looks_like_otlp(file_with_sample(varint_field(1, 1) + varint_field(4, 3))));
}

TEST(OtlpReader, AgentOutputMatchesTheProtobufLibrary) {
  const std::string bytes = read_file(ap_output("ap-cpu.otlp"));
  auto sums = library_sums(parse(bytes));
  ASSERT_EQ(sums.size(), 1u);
  ASSERT_EQ(sums.begin()->first, "perf_events/count");
  auto p = load(ap_output("ap-cpu.otlp"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->check_valid(), "");
  EXPECT_EQ(p->metadata.format, "otlp");
  EXPECT_EQ(p->metadata.producer, "opentelemetry-proto v1.10.0");
  ASSERT_EQ(p->events.size(), 1u);
  const Event &e = p->events[0];
  EXPECT_EQ(p->str(e.name), "cpu");
  EXPECT_EQ(p->str(e.unit), "samples");
  EXPECT_EQ(e.total_count, sums.begin()->second.first);
  EXPECT_EQ(e.total_value, sums.begin()->second.first);
  EXPECT_EQ(p->metadata.period, 2000000);
  EXPECT_EQ(p->metadata.period_type, "perf_events/ns");
  EXPECT_FALSE(e.samples.has_time());
  // Kernel frames: `_[k]` is the kind, not the name; Java frames are split like collapsed ones.
  bool kernel = false, java = false;
  for (const Frame &fr : p->frames) {
    const Function &f = p->functions[fr.function];
    if (p->str(f.name) == "clear_page_erms") kernel = fr.kind == FrameKind::kernel;
    if (p->str(f.name) == "org.acme.shop.Pricing.cached")
      java = p->str(f.class_name) == "org/acme/shop/Pricing" && p->str(f.method) == "cached";
    EXPECT_EQ(p->str(f.name).find("_[k]"), std::string_view::npos);
  }
  EXPECT_TRUE(kernel);
  EXPECT_TRUE(java);
}

TEST(OtlpReader, JfrconvOutputHasThreadsTimesAndLines) {
  const std::string bytes = read_file(ap_output("ap-multi-cpu-lines.otlp"));
  const pb::ProfilesData d = parse(bytes);
  auto sums = library_sums(d);
  ASSERT_EQ(sums.size(), 1u);
  EXPECT_EQ(sums.begin()->first, "cpu/count");
  auto p = load(ap_output("ap-multi-cpu-lines.otlp"));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->check_valid(), "");
  const Event &e = p->events.at(0);
  EXPECT_EQ(e.total_count, sums.begin()->second.first);
  EXPECT_EQ(e.total_count, 672); // tests/fixtures/README.md: ap-multi.jfr cpu 672
  ASSERT_TRUE(e.samples.has_time());
  const auto &prof = d.resource_profiles(0).scope_profiles(0).profiles(0);
  EXPECT_EQ(p->metadata.start_time_ns, static_cast<int64_t>(prof.time_unix_nano()));
  EXPECT_EQ(p->metadata.duration_ns, static_cast<int64_t>(prof.duration_nano()));
  for (size_t i = 0; i < e.samples.size(); i++) {
    EXPECT_GE(e.samples.time_at(i), 0);
    EXPECT_LT(e.samples.time_at(i), p->metadata.duration_ns);
  }
  // Threads: `[worker-1 tid=24848]` is the thread worker-1, OS tid 24848.
  bool worker1 = false;
  for (const Thread &t : p->threads)
    if (p->str(t.name) == "worker-1") worker1 = t.os_tid == 24848;
  EXPECT_TRUE(worker1);
  // Lines: Line.line, on Java frames.
  std::set<int32_t> discount_lines;
  for (const Frame &fr : p->frames)
    if (p->str(p->functions[fr.function].name) == "org.acme.shop.Pricing.discount")
      discount_lines.insert(fr.line);
  EXPECT_TRUE(discount_lines.count(15)) << "Pricing.discount line 15 is the known hot spot";
}

TEST(OtlpReader, FunctionsAreTheCollapsedReaders) {
  // jfrconv's collapsed and OTLP outputs name frames alike; both readers must make the same
  // functions of them (display name, class, method).
  auto otlp = load(ap_output("ap-multi-cpu-lines.otlp"));
  auto collapsed = load(java_profile("ap-cpu-lines-threads.collapsed"));
  ASSERT_TRUE(otlp && collapsed);
  std::map<std::string, std::pair<std::string, std::string>> by_name;
  for (const Function &f : collapsed->functions)
    by_name[std::string(collapsed->str(f.name))] = {std::string(collapsed->str(f.class_name)),
                                                    std::string(collapsed->str(f.method))};
  size_t shared = 0;
  for (const Function &f : otlp->functions) {
    auto it = by_name.find(std::string(otlp->str(f.name)));
    if (it == by_name.end()) continue;
    shared++;
    // Classes as recorded: hidden classes keep their per-run addresses.
    EXPECT_EQ(normalize_jvm_class(it->second.first), normalize_jvm_class(otlp->str(f.class_name)))
        << it->first;
    EXPECT_EQ(it->second.second, otlp->str(f.method)) << it->first;
  }
  EXPECT_GT(shared, 20u);
  EXPECT_TRUE(by_name.count("org.acme.shop.Main$$Lambda.run")); // normalized hidden class
}

TEST(OtlpReader, GzipIsTransparent) {
  const std::string bytes = read_file(ap_output("ap-multi-alloc.otlp"));
  LoadResult plain = read_bytes(bytes), gz = read_bytes(gzip_compress(bytes));
  ASSERT_TRUE(plain.ok() && gz.ok()) << gz.describe();
  EXPECT_EQ(gz.profile->events.at(0).total_count, plain.profile->events.at(0).total_count);
  EXPECT_EQ(plain.profile->events.at(0).total_count, 11099); // ap-multi.jfr's alloc samples
  // An error in gzipped data names its offset in the inflated bytes.
  LoadResult bad = read_bytes(gzip_compress(bytes.substr(0, bytes.size() / 2)));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("inflated"), std::string::npos) << bad.error;
}

TEST(OtlpReader, BadInputIsAnErrorWithAnOffset) {
  const std::string bytes = read_file(ap_output("ap-multi-cpu-lines.otlp"));
  // Every truncation (in steps) fails cleanly, at an offset inside the data.
  for (size_t n = 1; n < bytes.size(); n += 97) {
    LoadResult r = read_otlp(std::string_view(bytes).substr(0, n));
    if (r.ok()) continue; // a cut between whole top-level messages can still be valid
    EXPECT_NE(r.error, "");
    EXPECT_GE(r.error_offset, 0) << r.error;
    EXPECT_LE(r.error_offset, static_cast<int64_t>(n)) << r.error;
  }
  // A sample pointing past the stack table.
  pb::ProfilesData d = parse(bytes);
  d.mutable_resource_profiles(0)
      ->mutable_scope_profiles(0)
      ->mutable_profiles(0)
      ->mutable_samples(3)
      ->set_stack_index(99999);
  LoadResult r = read_bytes(d.SerializeAsString());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("Sample stack_index 99999 is out of range"), std::string::npos) << r.error;
  EXPECT_GT(r.error_offset, 0);
  // Values and timestamps that do not pair up.
  r = read_bytes(file_with_sample(varint_field(1, 1) + len_field(4, varint(1) + varint(2)) +
                                  len_field(5, std::string(8, '\0'))));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("2 values and 1 timestamps"), std::string::npos) << r.error;
  // A negative count.
  r = read_bytes(file_with_sample(varint_field(1, 1) + varint_field(4, uint64_t(-5))));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("negative count -5"), std::string::npos) << r.error;
  // Index 0 of tables that are absent is their zero value: here no stack and no attribute.
  {
    std::string dict = len_field(5, "") + len_field(5, "cpu") + len_field(5, "count");
    std::string sample = varint_field(1, 0) + varint_field(2, 0) + varint_field(4, 2);
    std::string profile =
        len_field(1, varint_field(1, 1) + varint_field(2, 2)) + len_field(2, sample);
    r = read_bytes(len_field(1, len_field(2, len_field(2, profile))) + len_field(2, dict));
    ASSERT_TRUE(r.ok()) << r.describe();
    EXPECT_EQ(r.profile->check_valid(), "");
    EXPECT_EQ(r.profile->events.at(0).stackless, 1u);
  }
  // A timestamp 2^64-1 ns after the start (found by the fuzzer) stays a valid, non-negative
  // time.
  r = read_bytes(file_with_sample(varint_field(1, 1) + len_field(5, std::string(8, '\xff')) +
                                  len_field(5, std::string(7, '\0') + '\x01')));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->check_valid(), "");
  // The minimal file itself is fine.
  r = read_bytes(file_with_sample(varint_field(1, 1) + varint_field(4, 3)));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events.at(0).total_count, 3);
}

TEST(OtlpReader, OtherSpecVersionsAreRejectedByName) {
  struct Case {
    std::string bytes, version;
  };
  const Case cases[] = {
      // v1.9.0: Sample.values was field 2 (packed), attribute_indices 3, link_index 4.
      {file_with_sample(varint_field(1, 1) + len_field(2, varint(7))), "v1.8.0 or v1.9.0"},
      {file_with_sample(varint_field(1, 1) + len_field(2, varint(7)) + len_field(3, varint(1))),
       "v1.8.0 or v1.9.0"},
      // v1.7.0: Profile field 3 was location_indices (packed).
      {file_with_sample(varint_field(1, 1) + varint_field(4, 1), len_field(3, varint(1))),
       "v1.7.0 or earlier"},
      // v1.6.0: the tables were fields of ProfilesData.
      {len_field(1, len_field(2, "")) + len_field(6, "cpu"), "v1.6.0"},
  };
  for (const Case &c : cases) {
    LoadResult r = read_bytes(c.bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find("OTLP profiles of " + c.version), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("hotlines reads opentelemetry-proto v1.10.0"), std::string::npos)
        << r.error;
    EXPECT_GE(r.error_offset, 0);
  }
  // A field that no version had: named with the version read.
  LoadResult r =
      read_bytes(file_with_sample(varint_field(1, 1) + varint_field(4, 1) + varint_field(9, 1)));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("Sample field 9 (varint) is not in opentelemetry-proto v1.10.0"),
            std::string::npos)
      << r.error;
}

TEST(OtlpWriter, WritesWhatTheProtobufLibraryReads) {
  auto jfr = load(java_profile("ap-multi.jfr"));
  ASSERT_TRUE(jfr);
  std::string err;
  const std::string bytes = write_otlp(*jfr, {}, &err);
  ASSERT_EQ(err, "");
  EXPECT_EQ(detect_format(bytes), Format::otlp);
  const pb::ProfilesData d = parse(bytes);
  // Zero values first in every table (the specification's rule).
  const auto &dict = d.dictionary();
  EXPECT_EQ(dict.string_table(0), "");
  EXPECT_EQ(dict.stack_table(0).location_indices_size(), 0);
  EXPECT_EQ(dict.location_table(0).lines_size(), 0);
  EXPECT_EQ(dict.attribute_table(0).key_strindex(), 0);
  // One profile per event; alloc and lock keep their units and every sample is one
  // observation with its timestamp.
  auto sums = library_sums(d);
  std::map<std::string, std::pair<int64_t, int64_t>> want;
  for (const Event &e : jfr->events) {
    bool counting = std::string_view(jfr->str(e.unit)) == "samples";
    want[std::string(jfr->str(e.name)) + "/" +
         (counting ? "count" : std::string(jfr->str(e.unit)))] = {
        counting ? e.total_count : e.total_value, e.total_count};
  }
  EXPECT_EQ(sums, want);
  EXPECT_EQ(d.resource_profiles(0).scope_profiles(0).scope().name(), "hotlines");
}

TEST(OtlpConvertCli, WritesOtlpByExtensionOrFormat) {
  const std::string dir = std::string(HOTLINES_BUILD_DIR) + "/otlp-writer-test";
  std::filesystem::create_directories(dir);
  const std::string bin = HOTLINES_BINARY, in = java_profile("ap-multi.jfr");
  int status = -1;
  run_command(bin + " convert --event cpu '" + in + "' " + dir + "/cpu.otlp 2>&1", &status);
  EXPECT_EQ(status, 0);
  auto p = load(dir + "/cpu.otlp");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->metadata.format, "otlp");
  ASSERT_EQ(p->events.size(), 1u);
  EXPECT_EQ(p->events[0].total_count, 672);
  EXPECT_EQ(p->metadata.producer, "hotlines " HOTLINES_VERSION ", opentelemetry-proto v1.10.0");
  // .otlp.gz is gzipped; --format otlp writes raw OTLP to stdout.
  run_command(bin + " convert '" + in + "' " + dir + "/all.otlp.gz 2>&1", &status);
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(is_gzip(read_file(dir + "/all.otlp.gz")));
  auto all = load(dir + "/all.otlp.gz");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->events.size(), 3u);
  const std::string out = run_command(bin + " convert --format otlp '" + in + "' -", &status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(detect_format(out), Format::otlp);
  EXPECT_EQ(parse(out).SerializeAsString().size(), out.size());
  std::string err = run_command(bin + " convert '" + in + "' - 2>&1", &status);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("speedscope, otlp)"), std::string::npos) << err;
}

} // namespace
