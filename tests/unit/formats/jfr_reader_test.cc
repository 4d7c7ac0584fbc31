// The JFR reader against the JDK's own parser: every .jfr and .jfr.gz under
// tests/fixtures is loaded and compared with tests/oracles/jfr_aggregate.py (per event count and
// weight, per thread, per method and per line self/total) — exactly. Also checks the model's
// invariants, its names, frame kinds, metadata, bytes per sample and thread-count determinism.
#include "formats/gzip.h"
#include "formats/jfr_reader.h"
#include "formats/loader.h"
#include "jfr_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::vector<std::string> fixture_files() {
  std::vector<std::string> out;
  for (const auto &e : std::filesystem::recursive_directory_iterator(fixture_path(""))) {
    std::string p = e.path().string();
    if (e.is_regular_file() && (p.ends_with(".jfr") || p.ends_with(".jfr.gz"))) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string plain_bytes(const std::string &path) {
  std::string raw = read_file(path), out, err;
  if (!is_gzip(raw)) return raw;
  EXPECT_TRUE(gunzip(raw, &out, &err)) << err;
  return out;
}

LoadResult load(std::string_view bytes, unsigned threads) {
  LoadOptions o;
  o.threads = threads;
  return read_jfr(bytes, o);
}

} // namespace

class JfrFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(JfrFixture, MatchesTheJdkOracleExactly) {
  const std::string path = GetParam();
  LoadResult r = load_profile_file(path);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  EXPECT_EQ(p.metadata.format, "jfr");
  ASSERT_GT(p.sample_count(), 0u);
  const double bytes_per_sample = static_cast<double>(p.sample_bytes()) / p.sample_count();
  EXPECT_LE(bytes_per_sample, 24.0);
  printf("[ bytes/sample ] %s: %.2f (%zu samples, %zu stacks, %zu frames)\n",
         std::filesystem::path(path).filename().c_str(), bytes_per_sample, p.sample_count(),
         p.stack_count(), p.frames.size());

  std::string bytes = plain_bytes(path);
  std::string oracle_path = path;
  TempDir dir;
  if (path.ends_with(".gz")) { // the JDK's jfr tool reads plain files only
    oracle_path = dir.file("plain.jfr");
    write_file(oracle_path, bytes);
  }
  Aggregate want = oracle_aggregate(oracle_path, bytes);
  ASSERT_FALSE(want.empty());
  EXPECT_TRUE(expect_same_aggregate(want, model_aggregate(p), path));
}

TEST_P(JfrFixture, SameProfileWithOneOrTwoThreads) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult one = load(bytes, 1), two = load(bytes, 2);
  ASSERT_TRUE(one.ok() && two.ok());
  expect_identical(*one.profile, *two.profile);
}

// Chunks cut into slices decoded in parallel: whatever the slice size (down to one event a
// slice) and thread count, the profile is the one a whole-chunk read gives.
TEST_P(JfrFixture, SameProfileWhateverTheSlices) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult whole = load(bytes, 1);
  ASSERT_TRUE(whole.ok());
  for (size_t slice_bytes : {size_t{1}, size_t{3000}, size_t{64} << 10})
    for (unsigned threads : {1u, 2u}) {
      SCOPED_TRACE("slices of " + std::to_string(slice_bytes) + " bytes, " +
                   std::to_string(threads) + " threads");
      LoadOptions o;
      o.threads = threads;
      o.jfr_slice_bytes = slice_bytes;
      LoadResult sliced = read_jfr(bytes, o);
      ASSERT_TRUE(sliced.ok()) << sliced.describe();
      expect_identical(*whole.profile, *sliced.profile);
    }
}

// A file is read chunk by chunk into reused buffers, never whole; the pages of its stack-trace
// pools are given back (behind the slices, or before every read) and read again when a stack
// needs them, and a chunk held alone (every chunk, with a held limit of 1) is read again
// without them: the profile is the one its bytes in memory give.
TEST_P(JfrFixture, SameProfileReadChunkByChunkFromTheFile) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult whole = load(bytes, 1);
  ASSERT_TRUE(whole.ok());
  TempDir dir;
  const std::string path = dir.file("plain.jfr");
  write_file(path, bytes);
  for (unsigned threads : {1u, 2u})
    for (size_t held : {size_t{0}, size_t{1}}) { // 1: each chunk waits for the last's release
      SCOPED_TRACE(std::to_string(threads) + " threads, held limit " + std::to_string(held));
      LoadOptions o;
      o.threads = threads;
      o.jfr_held_bytes = held;
      o.jfr_slice_bytes = held ? 3000 : 0; // and many slices of each chunk in flight
      // Every stack and new frame read again from the file: the pages of the stack-trace
      // pools given back before each slice reads ahead and before it resolves.
      o.jfr_reread_stack_pools = held == 0;
      LoadResult file = load_profile_file(path, o);
      ASSERT_TRUE(file.ok()) << file.describe();
      expect_identical(*whole.profile, *file.profile);
      EXPECT_EQ(file.profile->metadata.chunks, whole.profile->metadata.chunks);
      EXPECT_EQ(file.profile->metadata.warnings.size(), whole.profile->metadata.warnings.size());
    }
}

// Per "event|thread|time|frames" (frames by function, line and kind), its rows, count and value:
// a profile's samples, whatever ids its stacks have.
std::map<std::string, std::array<int64_t, 3>> samples_by_path(const Profile &p) {
  std::map<std::string, std::array<int64_t, 3>> out;
  for (const Event &e : p.events) {
    const SampleColumns &c = e.samples;
    for (size_t i = 0; i < c.size(); i++) {
      std::string key = std::string(p.str(e.name)) + "|" +
                        std::string(p.str(p.threads[c.thread_at(i)].name)) + "|" +
                        std::to_string(c.time_at(i)) + "|";
      if (c.stack_at(i) != kNoStack)
        for (FrameId f : p.frames_of(c.stack_at(i))) {
          const Frame &fr = p.frames[f];
          key += std::string(p.str(p.functions[fr.function].name)) + ":" + std::to_string(fr.line) +
                 ":" + std::to_string(static_cast<int>(fr.kind)) + ";";
        }
      std::array<int64_t, 3> &row = out[key];
      row[0]++;
      row[1] += c.count_at(i);
      row[2] += c.value_at(i);
    }
  }
  return out;
}

// Stack traces read first, in file order, window by window (LoadOptions::
// jfr_stacks_in_file_order; what a big chunk of one stack pool does), from bytes in memory and
// from the file, whose windows' pages are given back behind them (and before every read): the
// same samples on the same stacks, the same views, the same warnings; the stacks' ids differ.
TEST_P(JfrFixture, SameSamplesWithStackTracesReadInFileOrder) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult whole = load(bytes, 1);
  ASSERT_TRUE(whole.ok());
  const auto want = samples_by_path(*whole.profile);
  const Aggregate want_views = model_aggregate(*whole.profile);
  TempDir dir;
  const std::string path = dir.file("plain.jfr");
  write_file(path, bytes);
  for (unsigned threads : {1u, 2u})
    for (int from : {0, 1, 2}) { // bytes in memory; the file; the file, every read a reread
      SCOPED_TRACE(std::to_string(threads) + " threads, from " + std::to_string(from));
      LoadOptions o;
      o.threads = threads;
      o.jfr_stacks_in_file_order = true;
      o.jfr_slice_bytes = 1000; // windows of 4,000 bytes: many of each pool
      o.jfr_held_bytes = from == 1 ? 1 : 0;
      o.jfr_reread_stack_pools = from == 2;
      LoadResult r = from == 0 ? read_jfr(bytes, o) : load_profile_file(path, o);
      ASSERT_TRUE(r.ok()) << r.describe();
      EXPECT_TRUE(samples_by_path(*r.profile) == want);
      EXPECT_TRUE(expect_same_aggregate(want_views, model_aggregate(*r.profile), GetParam()));
      EXPECT_GE(r.profile->stack_count(), whole.profile->stack_count());
      // The stacks come in the pools' order, not in that of the samples' first references (on
      // every fixture the two differ): the windows made them.
      EXPECT_NE(r.profile->stack_frame, whole.profile->stack_frame);
      EXPECT_EQ(r.profile->metadata.warnings.size(), whole.profile->metadata.warnings.size());
    }
}

// A chunk read from the file without its last checkpoint, which is read piece by piece as its
// pools are indexed, the stack-trace pool's pages given back behind and read again when needed
// (LoadOptions::jfr_read_checkpoints_later; what a big async-profiler chunk does): the same
// profile, with stacks read for each slice, or read first in file order window by window (the
// same samples then), from a chunk held from its survey to its last slice or read again.
TEST_P(JfrFixture, SameProfileWithCheckpointsReadAsThePoolsAreIndexed) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult whole = load(bytes, 1);
  ASSERT_TRUE(whole.ok());
  const auto want = samples_by_path(*whole.profile);
  TempDir dir;
  const std::string path = dir.file("plain.jfr");
  write_file(path, bytes);
  for (unsigned threads : {1u, 2u})
    for (bool windows : {false, true})
      for (size_t held : {size_t{0}, size_t{1}}) { // 1: held alone, read again in pass 2
        SCOPED_TRACE(std::to_string(threads) + " threads, windows " + std::to_string(windows) +
                     ", held limit " + std::to_string(held));
        LoadOptions o;
        o.threads = threads;
        o.jfr_read_checkpoints_later = true;
        o.jfr_stacks_in_file_order = windows;
        o.jfr_slice_bytes = 1000; // pieces of 1,000 bytes: many entries run past one
        o.jfr_held_bytes = held;
        LoadResult r = load_profile_file(path, o);
        ASSERT_TRUE(r.ok()) << r.describe();
        if (windows)
          EXPECT_TRUE(samples_by_path(*r.profile) == want);
        else
          expect_identical(*whole.profile, *r.profile);
        EXPECT_EQ(r.profile->metadata.warnings.size(), whole.profile->metadata.warnings.size());
      }
}

// LoadOptions::only_event: the one event, exactly as in a full load; "" is the default event;
// an event the file lacks loads them all.
TEST_P(JfrFixture, OnlyEventLoadsThatEventExactly) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult all = load(bytes, 2);
  ASSERT_TRUE(all.ok());
  const Aggregate full = model_aggregate(*all.profile);
  for (const Event &e : all.profile->events) {
    const std::string name(all.profile->str(e.name));
    LoadOptions o;
    o.threads = 2;
    o.only_event = name;
    LoadResult one = read_jfr(bytes, o);
    ASSERT_TRUE(one.ok()) << one.describe();
    EXPECT_EQ(one.profile->check_valid(), "");
    ASSERT_EQ(one.profile->events.size(), 1u) << name;
    EXPECT_EQ(one.profile->str(one.profile->events[0].name), name);
    EXPECT_EQ(one.profile->events[0].total_value, e.total_value) << name;
    EXPECT_LE(one.profile->stack_count(), all.profile->stack_count());
    EXPECT_TRUE(expect_same_aggregate(Aggregate{{name, full.at(name)}},
                                      model_aggregate(*one.profile), GetParam() + " -e " + name));
  }
  LoadOptions o;
  o.only_event = "";
  LoadResult def = read_jfr(bytes, o);
  ASSERT_TRUE(def.ok());
  ASSERT_EQ(def.profile->events.size(), 1u);
  EXPECT_EQ(def.profile->str(def.profile->events[0].name),
            all.profile->str(all.profile->events[all.profile->metadata.default_event].name));
  o.only_event = "no-such-event";
  LoadResult none = read_jfr(bytes, o);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none.profile->events.size(), all.profile->events.size());
}

// LoadOptions::only_event with the stack traces read first, in file order (what a big
// async-profiler chunk does): the windows resolve only the stack traces of the samples loaded,
// the first slices decoded for them (ChunkWork::wanted), so the profile has the stacks of that
// event's load without windows, no more, from bytes in memory and from a file read again.
TEST_P(JfrFixture, OnlyEventWindowsResolveOnlyTheStackTracesOfItsSamples) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult all = load(bytes, 2);
  ASSERT_TRUE(all.ok());
  TempDir dir;
  const std::string path = dir.file("plain.jfr");
  write_file(path, bytes);
  for (const Event &e : all.profile->events) {
    LoadOptions base;
    base.threads = 1;
    base.only_event = std::string(all.profile->str(e.name));
    LoadResult plain = read_jfr(bytes, base);
    ASSERT_TRUE(plain.ok()) << plain.describe();
    const auto want = samples_by_path(*plain.profile);
    for (unsigned threads : {1u, 2u})
      for (bool file : {false, true}) {
        SCOPED_TRACE(*base.only_event + ", " + std::to_string(threads) + " threads" +
                     (file ? ", from the file" : ""));
        LoadOptions o = base;
        o.threads = threads;
        o.jfr_stacks_in_file_order = true;
        o.jfr_slice_bytes = 1000; // windows of 4,000 bytes, slices of a few dozen events
        o.jfr_held_bytes = file ? 1 : 0;
        LoadResult r = file ? load_profile_file(path, o) : read_jfr(bytes, o);
        ASSERT_TRUE(r.ok()) << r.describe();
        EXPECT_TRUE(samples_by_path(*r.profile) == want);
        EXPECT_EQ(r.profile->stack_count(), plain.profile->stack_count());
        EXPECT_EQ(r.profile->metadata.warnings.size(), plain.profile->metadata.warnings.size());
      }
  }
}

// LoadOptions::sample_threads and sample_times: a load without them has a full load's events,
// stack tree and weights, sample for sample, and its samples have no thread (thread 0, the
// profile's "unknown") or no time (0).
TEST_P(JfrFixture, SamplesReadWithoutThreadsOrTimesKeepTheirStacksAndWeights) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult all = load(bytes, 2);
  ASSERT_TRUE(all.ok());
  const Profile &a = *all.profile;
  for (const auto &[threads, times] : {std::pair{false, true}, {true, false}, {false, false}}) {
    const std::string what =
        GetParam() + (threads ? "" : " no threads") + (times ? "" : " no times");
    LoadOptions o;
    o.threads = 2;
    o.sample_threads = threads;
    o.sample_times = times;
    LoadResult part = read_jfr(bytes, o);
    ASSERT_TRUE(part.ok()) << part.describe();
    const Profile &b = *part.profile;
    EXPECT_EQ(b.check_valid(), "") << what;
    EXPECT_EQ(b.stack_parent, a.stack_parent) << what;
    EXPECT_EQ(b.stack_frame, a.stack_frame) << what;
    EXPECT_TRUE(b.frames == a.frames) << what;
    ASSERT_EQ(b.events.size(), a.events.size()) << what;
    for (size_t e = 0; e < a.events.size(); e++) {
      const SampleColumns &x = a.events[e].samples, &y = b.events[e].samples;
      EXPECT_EQ(b.str(b.events[e].name), a.str(a.events[e].name)) << what;
      EXPECT_EQ(b.events[e].total_value, a.events[e].total_value) << what;
      EXPECT_EQ(b.events[e].total_count, a.events[e].total_count) << what;
      ASSERT_EQ(y.size(), x.size()) << what;
      EXPECT_EQ(y.stack, x.stack) << what;
      EXPECT_EQ(y.count, x.count) << what;
      EXPECT_EQ(y.value, x.value) << what;
      EXPECT_EQ(y.state, x.state) << what;
      if (threads)
        EXPECT_EQ(y.thread, x.thread) << what;
      else
        EXPECT_TRUE(y.thread.empty()) << what;
      if (times)
        EXPECT_EQ(y.time, x.time) << what;
      else
        EXPECT_TRUE(y.time.empty()) << what;
    }
  }
}

// LoadOptions::merge_samples: with neither threads nor times read, an event without counts or
// states of its own has one row per stack and source, whose count is its number of samples and
// whose value is theirs summed (past jfr_merged_keys, a row per sample); the other events keep
// their rows. Totals, [no stack] samples and the stack tree are a full load's.
TEST_P(JfrFixture, MergedSamplesSumEachStacksSamples) {
  std::string bytes = plain_bytes(GetParam());
  LoadResult all = load(bytes, 2);
  ASSERT_TRUE(all.ok());
  const Profile &a = *all.profile;
  for (size_t keys : {0, 16}) {
    LoadOptions o;
    o.threads = 2;
    o.sample_threads = o.sample_times = false;
    o.merge_samples = true;
    o.jfr_merged_keys = keys;
    LoadResult merged = read_jfr(bytes, o);
    ASSERT_TRUE(merged.ok()) << merged.describe();
    const Profile &b = *merged.profile;
    EXPECT_EQ(b.check_valid(), "");
    EXPECT_EQ(b.stack_parent, a.stack_parent);
    ASSERT_EQ(b.events.size(), a.events.size());
    size_t merged_events = 0, shrunk = 0;
    for (size_t e = 0; e < a.events.size(); e++) {
      const Event &x = a.events[e], &y = b.events[e];
      const std::string what =
          GetParam() + " " + std::string(a.str(x.name)) + " keys " + std::to_string(keys);
      EXPECT_EQ(y.total_count, x.total_count) << what;
      EXPECT_EQ(y.total_value, x.total_value) << what;
      EXPECT_EQ(y.stackless, x.stackless) << what;
      if (!y.merged) {
        EXPECT_EQ(y.samples.size(), x.samples.size()) << what;
        continue;
      }
      merged_events++;
      EXPECT_TRUE(x.samples.count.empty() && x.samples.state.empty()) << what;
      // (stack, source) -> samples, value
      std::map<std::pair<StackId, uint32_t>, std::pair<int64_t, int64_t>> want, got;
      for (size_t i = 0; i < x.samples.size(); i++) {
        auto &w = want[{x.samples.stack[i], x.samples.source_at(i)}];
        w.first++;
        w.second += x.samples.value_at(i);
      }
      size_t merged_rows = 0;
      for (size_t i = 0; i < y.samples.size(); i++) {
        auto &g = got[{y.samples.stack[i], y.samples.source_at(i)}];
        g.first += y.samples.count_at(i);
        g.second += y.samples.value_at(i);
        merged_rows += y.samples.count_at(i) > 1;
      }
      EXPECT_EQ(got, want) << what;
      if (keys == 0) { // a row per stack
        EXPECT_EQ(y.samples.size(), want.size()) << what;
      }
      EXPECT_LE(y.samples.size(), x.samples.size()) << what;
      shrunk += merged_rows > 0;
    }
    const std::string name = std::filesystem::path(GetParam()).filename().string();
    if (name == "jdk-alloc-lock.jfr" || name == "ap-multi.jfr") {
      EXPECT_GT(merged_events, 0u);
      EXPECT_GT(shrunk, 0u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, JfrFixture, ::testing::ValuesIn(fixture_files()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           std::string n = std::filesystem::path(info.param).filename().string();
                           for (char &c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(JfrReader, FixturesHaveAtLeastSixRecordings) {
  EXPECT_GE(fixture_files().size(), 6u);
}

TEST(JfrReader, NamesKindsAndRawClassesOfAsyncProfilerFrames) {
  LoadResult r = load_profile_file(java_profile("ap-multi.jfr"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  bool lambda = false, native_lib = false, kernel = false, inner = false, jit = false;
  for (const Frame &fr : p.frames) {
    const Function &f = p.functions[fr.function];
    std::string_view name = p.str(f.name), cls = p.str(f.class_name);
    if (name == "org.acme.shop.Main$$Lambda.run") {
      lambda = true;
      EXPECT_TRUE(cls.starts_with("org/acme/shop/Main$$Lambda$")) << cls; // raw, as recorded
      EXPECT_EQ(p.str(f.method), "run");
    }
    if (name == "org.acme.shop.Pricing$Inner.spin") {
      inner = true;
      EXPECT_EQ(cls, "org/acme/shop/Pricing$Inner");
      EXPECT_GT(fr.line, 0);
      EXPECT_FALSE(p.str(f.system_name).empty()); // the descriptor
    }
    if (fr.kind == FrameKind::jit) jit = true;
    if (fr.kind == FrameKind::cpp && p.str(f.library) == "libjvm.so") {
      native_lib = true;
      EXPECT_EQ(f.class_name, 0u);
      EXPECT_EQ(fr.line, 0);
      EXPECT_EQ(name, p.str(f.method)); // native names are shown as they are
    }
    if (fr.kind == FrameKind::kernel) kernel = true;
  }
  EXPECT_TRUE(lambda);
  EXPECT_TRUE(inner);
  EXPECT_TRUE(jit);
  EXPECT_TRUE(native_lib);
  EXPECT_TRUE(kernel);
  EXPECT_EQ(p.metadata.producer, "async-profiler 4.5");
  EXPECT_EQ(p.metadata.chunks, 1u);
  EXPECT_GT(p.metadata.start_time_ns, 1700000000000000000);
  EXPECT_GT(p.metadata.duration_ns, 0);
  EXPECT_EQ(p.str(p.events[p.metadata.default_event].name), "cpu");
  int alloc = p.find_event("alloc");
  ASSERT_GE(alloc, 0);
  EXPECT_EQ(p.str(p.events[alloc].unit), "bytes");
  EXPECT_EQ(p.str(p.events[p.find_event("lock")].unit), "nanoseconds");
  ASSERT_EQ(p.events[alloc].sources.size(), 1u);
  EXPECT_EQ(p.str(p.events[alloc].sources[0]), "jdk.ObjectAllocationInNewTLAB");
}

// The JDK wrote two TLAB events and one allocation sample of jdk-alloc-lock.jfr without a stack
// (`jfr print`: stackTrace null, or no frames); their weight is the frame `[no stack]`.
TEST(JfrReader, SamplesWithoutAStackAreCountedAndShown) {
  LoadResult r = load_profile_file(java_profile("jdk-alloc-lock.jfr"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  const Event &alloc = p.events[p.find_event("alloc")];
  EXPECT_EQ(alloc.stackless, 2u);
  EXPECT_EQ(p.events[p.find_event("alloc-sample")].stackless, 1u);
  EXPECT_EQ(p.events[p.find_event("cpu")].stackless, 0u);
  int64_t weight = 0;
  for (size_t i = 0; i < alloc.samples.size(); i++) {
    const std::vector<FrameId> f = p.frames_of(alloc.samples.stack[i]);
    if (f.size() == 1 && p.str(p.functions[p.frames[f[0]].function].name) == "[no stack]")
      weight += alloc.samples.value_at(i);
  }
  EXPECT_EQ(weight, 125848 + 1566240); // their tlabSize, from `jfr print`
}

// One rule for native frames: the vDSO is a library like libc, its frames bare symbols.
TEST(JfrReader, NativeFramesOfEveryLibraryAreBareSymbols) {
  LoadResult r = load_profile_file(java_profile("ap-cpu.jfr"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  std::map<std::string, std::string> library_of; // native function -> library
  for (const Frame &fr : p.frames) {
    const Function &f = p.functions[fr.function];
    if (fr.kind != FrameKind::native) continue;
    EXPECT_EQ(f.class_name, 0u) << p.str(f.name);
    EXPECT_EQ(p.str(f.name), p.str(f.method));
    library_of[std::string(p.str(f.name))] = p.str(f.library);
  }
  EXPECT_EQ(library_of["__vdso_clock_gettime"], "vdso");
  EXPECT_EQ(library_of["clock_gettime@@GLIBC_2.17"], "libc.so.6");
  EXPECT_EQ(library_of.count("vdso.__vdso_clock_gettime"), 0u);
}

TEST(JfrReader, ThreadsHaveJavaAndOsIds) {
  LoadResult r = load_profile_file(java_profile("ap-cpu.jfr"));
  ASSERT_TRUE(r.ok());
  const Profile &p = *r.profile;
  bool worker = false, vm_thread = false;
  for (const Thread &t : p.threads) {
    if (p.str(t.name) == "worker-0") {
      worker = true;
      EXPECT_GT(t.os_tid, 0);
      EXPECT_GT(t.java_tid, 0);
    }
    if (p.str(t.name).starts_with("C2 CompilerThre")) {
      vm_thread = true;
      EXPECT_GT(t.os_tid, 0);
      EXPECT_EQ(t.java_tid, -1); // not a Java thread
    }
  }
  EXPECT_TRUE(worker);
  EXPECT_TRUE(vm_thread);
}

TEST(JfrReader, TimesAreNanosecondsSinceTheProfileStart) {
  std::string bytes = read_file(java_profile("ap-cpu-then-wall-2chunks.jfr"));
  LoadResult r = read_jfr(bytes);
  ASSERT_TRUE(r.ok());
  const Profile &p = *r.profile;
  EXPECT_EQ(p.metadata.chunks, 2u);
  for (const Event &e : p.events) {
    ASSERT_TRUE(e.samples.has_time()) << p.str(e.name);
    const std::vector<int64_t> time = e.samples.time.to_vector();
    auto [lo, hi] = std::minmax_element(time.begin(), time.end());
    EXPECT_GE(*lo, 0);
    EXPECT_LE(*hi, p.metadata.duration_ns + 1000000000) << p.str(e.name);
  }
  // The wall recording started after the cpu one ended: its samples come later.
  const std::vector<int64_t> cpu = p.events[p.find_event("cpu")].samples.time.to_vector();
  const std::vector<int64_t> wall = p.events[p.find_event("wall")].samples.time.to_vector();
  EXPECT_LT(*std::max_element(cpu.begin(), cpu.end()), *std::min_element(wall.begin(), wall.end()));
}

TEST(JfrReader, JdkRecordingsNameTheirProducerAndStreamingCheckpoints) {
  LoadResult r = load_profile_file(java_profile("jdk-profile.jfr"));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.profile->metadata.producer.starts_with("OpenJDK 17."))
      << r.profile->metadata.producer;
  EXPECT_EQ(r.profile->str(r.profile->events[r.profile->metadata.default_event].name), "cpu");
  LoadResult s = load_profile_file(java_profile("jdk-alloc-lock.jfr"));
  ASSERT_TRUE(s.ok());
  const Profile &p = *s.profile;
  int alloc = p.find_event("alloc");
  ASSERT_GE(alloc, 0);
  // The TLAB events and ObjectAllocationSample estimate the same allocations: alloc takes the
  // TLAB events, the samples are their own event.
  ASSERT_EQ(p.events[alloc].sources.size(), 1u);
  EXPECT_EQ(p.str(p.events[alloc].sources[0]), "jdk.ObjectAllocationInNewTLAB");
  int sampled = p.find_event("alloc-sample");
  ASSERT_GE(sampled, 0);
  ASSERT_EQ(p.events[sampled].sources.size(), 1u);
  EXPECT_EQ(p.str(p.events[sampled].sources[0]), "jdk.ObjectAllocationSample");
  EXPECT_EQ(p.events[sampled].samples.size(), 1500u);
  bool hidden = false;
  for (const Function &f : p.functions)
    if (p.str(f.class_name).starts_with("org.acme.shop.Main$$Lambda$")) {
      // The JDK spells hidden classes dotted, with an address and a hash:
      // org.acme.shop.Main$$Lambda$83+0x00007f1eec007c30/1545242146
      hidden = true;
      EXPECT_EQ(p.str(f.name), "org.acme.shop.Main$$Lambda.run") << p.str(f.class_name);
    }
  EXPECT_TRUE(hidden);
}
