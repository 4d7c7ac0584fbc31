// The JFR reader on broken input: files cut at many offsets, flipped bytes, absurd sizes and
// counts, varints running off the end, checkpoint loops, self-nesting types, missing pool
// entries. Every case must end in a profile that passes check_valid() (possibly with
// warnings) or an error with a byte offset inside the input — never a crash or a hang — and
// no single allocation may be sized by an untrusted field (operator new is watched here).
#include "formats/jfr_chunk.h"
#include "formats/jfr_input.h"
#include "formats/jfr_reader.h"
#include "formats/loader.h"
#include "jfr_test_util.h"
#include "jfr_test_writer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

// The largest single allocation since the last reset (this test binary only). GCC warns that
// free() does not match operator new, not seeing that this operator new uses malloc.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
static std::atomic<size_t> g_largest_allocation{0};

void *operator new(size_t n) {
  size_t cur = g_largest_allocation.load(std::memory_order_relaxed);
  while (n > cur && !g_largest_allocation.compare_exchange_weak(cur, n)) {
  }
  if (void *p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void *operator new[](size_t n) {
  return operator new(n);
}
void operator delete(void *p) noexcept {
  std::free(p);
}
void operator delete[](void *p) noexcept {
  std::free(p);
}
void operator delete(void *p, size_t) noexcept {
  std::free(p);
}
void operator delete[](void *p, size_t) noexcept {
  std::free(p);
}

using namespace hotlines;
using namespace hotlines::test;

namespace {

using Enc = JfrBytes::Enc;

// Loads `bytes`; checks the outcome is a valid profile or a located error, and that no
// allocation exceeded a bound proportional to the input.
void expect_graceful(const std::string &bytes, const std::string &what, unsigned threads = 1) {
  g_largest_allocation = 0;
  LoadOptions o;
  o.threads = threads;
  LoadResult r = read_jfr(bytes, o);
  const size_t bound = 16 * bytes.size() + (4u << 20);
  EXPECT_LE(g_largest_allocation.load(), bound) << what;
  if (r.ok()) {
    EXPECT_EQ(r.profile->check_valid(), "") << what;
    for (const LoadWarning &w : r.profile->metadata.warnings)
      EXPECT_LE(w.offset, static_cast<int64_t>(bytes.size())) << what << ": " << w.message;
  } else {
    EXPECT_FALSE(r.error.empty()) << what;
    EXPECT_GE(r.error_offset, 0) << what << ": " << r.error;
    EXPECT_LE(r.error_offset, static_cast<int64_t>(bytes.size())) << what << ": " << r.error;
  }
}

std::vector<std::string> plain_fixtures() {
  return {"ap-cpu.jfr",      "ap-multi.jfr",      "ap-wall.jfr", "ap-cpu-then-wall-2chunks.jfr",
          "jdk-profile.jfr", "jdk-alloc-lock.jfr"};
}

void put_be(std::string &s, size_t at, uint64_t v, int n) {
  for (int i = n - 1; i >= 0; i--, v >>= 8) s[at + i] = static_cast<char>(v & 0xff);
}

// A small valid recording to break.
JfrTestChunk small_chunk(bool compressed = true) {
  JfrTestChunk c(compressed);
  using F = JfrTestField;
  c.declare("java.lang.Thread", {F("osName", "java.lang.String"), F("osThreadId", "long"),
                                 F("javaName", "java.lang.String"), F("javaThreadId", "long")});
  c.declare("jdk.types.Symbol", {F("string", "java.lang.String")});
  c.declare("java.lang.Class", {F("name", "jdk.types.Symbol", true)});
  c.declare("jdk.types.Method",
            {F("type", "java.lang.Class", true), F("name", "jdk.types.Symbol", true),
             F("descriptor", "jdk.types.Symbol", true)});
  c.declare("jdk.types.FrameType", {F("description", "java.lang.String")});
  c.declare("jdk.types.StackFrame",
            {F("method", "jdk.types.Method", true), F("lineNumber", "int"),
             F("bytecodeIndex", "int"), F("type", "jdk.types.FrameType", true)});
  c.declare("jdk.types.StackTrace",
            {F("truncated", "boolean"), F("frames", "jdk.types.StackFrame", false, true)});
  c.declare("jdk.ExecutionSample",
            {F("startTime", "long"), F("sampledThread", "java.lang.Thread", true),
             F("stackTrace", "jdk.types.StackTrace", true)},
            "jdk.jfr.Event");
  c.pool("jdk.types.FrameType", 1, [](JfrBytes &b) { b.str("JIT compiled"); });
  c.pool("jdk.types.Symbol", 1, [](JfrBytes &b) { b.str("a/B"); });
  c.pool("jdk.types.Symbol", 2, [](JfrBytes &b) { b.str("m"); });
  c.pool("java.lang.Class", 1, [](JfrBytes &b) { b.i64(1); });
  c.pool("jdk.types.Method", 1, [](JfrBytes &b) {
    b.i64(1);
    b.i64(2);
    b.i64(2);
  });
  c.pool("java.lang.Thread", 1, [](JfrBytes &b) {
    b.str("t");
    b.i64(1);
    b.str("t");
    b.i64(1);
  });
  c.pool("jdk.types.StackTrace", 1, [](JfrBytes &b) {
    b.boolean(false);
    b.i32(2);
    for (int i = 0; i < 2; i++) {
      b.i64(1);
      b.i32(10 + i);
      b.i32(i);
      b.i64(1);
    }
  });
  for (int i = 0; i < 3; i++)
    c.event("jdk.ExecutionSample", [&](JfrBytes &b) {
      b.i64(c.start_ticks + i);
      b.i64(1);
      b.i64(1);
    });
  return c;
}

} // namespace

TEST(JfrBadInput, SmallRecordingIsValid) {
  LoadResult r = read_jfr(small_chunk().bytes());
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_count, 3);
  EXPECT_TRUE(r.profile->metadata.warnings.empty());
}

TEST(JfrBadInput, CutAtManyOffsets) {
  for (const std::string &name : plain_fixtures()) {
    const std::string data = read_file(java_profile(name));
    std::vector<size_t> cuts;
    for (size_t i = 0; i < 200; i++) cuts.push_back(i);
    for (size_t i = 1; i < 150; i++) cuts.push_back(data.size() * i / 150);
    for (size_t cut : cuts) {
      std::string d = data.substr(0, cut);
      expect_graceful(d, name + " cut at " + std::to_string(cut));
      // A recording killed mid-write whose header was updated to the bytes written.
      if (cut >= 68) {
        put_be(d, 8, cut, 8);
        expect_graceful(d, name + " cut at " + std::to_string(cut) + " with its size patched");
      }
    }
  }
}

TEST(JfrBadInput, FlippedBytes) {
  std::mt19937 rng(12345);
  for (const std::string &name : plain_fixtures()) {
    const std::string data = read_file(java_profile(name));
    for (int k = 0; k < 400; k++) {
      std::string d = data;
      const int flips = 1 + k % 4;
      std::string what = name + " flipped";
      for (int f = 0; f < flips; f++) {
        // Half of the flips hit the structural parts: headers, metadata, checkpoints.
        size_t at = (k % 2 == 0) ? rng() % d.size() : rng() % std::min<size_t>(d.size(), 4096);
        if (k % 3 == 0) at = d.size() - 1 - rng() % std::min<size_t>(d.size(), 60000);
        d[at] = static_cast<char>(d[at] ^ (1 + rng() % 255));
        what += " " + std::to_string(at);
      }
      expect_graceful(d, what, k % 5 == 0 ? 2 : 1);
    }
  }
}

// A file is read chunk by chunk into reused buffers (stack-trace pools left unread, or given
// back and read again), with the offsets inside each chunk translated back to the file: broken
// files give the errors and warnings, at the offsets, that the same bytes in memory give.
TEST(JfrBadInput, FilesReadChunkByChunkFailAsTheirBytesDo) {
  std::mt19937 rng(777);
  TempDir dir;
  const std::string path = dir.file("broken.jfr");
  int failures = 0, warned = 0, failures_in_last = 0;
  // Three chunks: a JDK recording, then async-profiler's two (concatenated recordings).
  const std::string data = read_file(java_profile("jdk-profile.jfr")) +
                           read_file(java_profile("ap-cpu-then-wall-2chunks.jfr"));
  const JfrChunkList chunks = scan_jfr_chunks(data);
  ASSERT_EQ(chunks.chunks.size(), 3u);
  const size_t last = chunks.chunks.back().offset;
  for (int k = 0; k < 240; k++) {
    std::string d = data;
    std::string what;
    bool in_last = false;
    if (k % 4 == 3) {
      d.resize(data.size() * (k + 1) / 241); // cut: the complete chunks load, with a warning
      what += " cut at " + std::to_string(d.size());
    } else {
      // Flips anywhere, a third of them in the last chunk, past its header.
      in_last = k % 3 == 0;
      for (int f = 0; f < 1 + k % 3; f++) {
        size_t at = in_last ? last + 68 + rng() % (d.size() - last - 68) : rng() % d.size();
        d[at] = static_cast<char>(d[at] ^ (1 + rng() % 255));
        what += " flipped " + std::to_string(at);
      }
    }
    write_file(path, d);
    for (unsigned threads : {1u, 2u}) {
      SCOPED_TRACE(what + ", " + std::to_string(threads) + " threads");
      LoadOptions o;
      o.threads = threads;
      o.jfr_slice_bytes = 20000;
      o.jfr_held_bytes = k % 2 ? 1 : 0;      // 1: a chunk read from the file waits for the last's
                                             // release, and a failure ends the wait; each chunk is
                                             // read again without its stack-trace pools
      o.jfr_reread_stack_pools = k % 3 == 1; // every stack read from the file again
      LoadResult bytes = read_jfr(d, o), file = load_profile_file(path, o);
      ASSERT_EQ(bytes.ok(), file.ok()) << bytes.describe() << " / " << file.describe();
      if (!bytes.ok()) {
        failures++;
        EXPECT_EQ(path + ": " + bytes.error, file.error);
        EXPECT_EQ(bytes.error_offset, file.error_offset);
        // Where the bytes went wrong, in the file: inside the broken chunk.
        if (in_last) {
          failures_in_last++;
          EXPECT_GE(file.error_offset, static_cast<int64_t>(last)) << file.describe();
        }
        continue;
      }
      const auto &a = bytes.profile->metadata.warnings, &b = file.profile->metadata.warnings;
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].message, b[i].message);
        EXPECT_EQ(a[i].offset, b[i].offset);
      }
      warned += !a.empty();
      expect_identical(*bytes.profile, *file.profile);
    }
  }
  // The cases must cover both outcomes.
  EXPECT_GT(failures, 20);
  EXPECT_GT(failures_in_last, 10);
  EXPECT_GT(warned, 20);
}

TEST(JfrBadInput, SyntheticCorruptionsEverywhere) {
  // Every byte of a small recording set to a few values: the header, metadata, pools, events.
  for (bool compressed : {true, false}) {
    const std::string data = small_chunk(compressed).bytes();
    for (size_t at = 0; at < data.size(); at++)
      for (uint8_t v : {0x00, 0x7f, 0x80, 0xff}) {
        std::string d = data;
        d[at] = static_cast<char>(v);
        expect_graceful(d, "byte " + std::to_string(at) + " = " + std::to_string(v));
      }
  }
}

TEST(JfrBadInput, AbsurdSizesAndCounts) {
  const std::string good = small_chunk().bytes();
  {
    std::string d = good;
    put_be(d, 8, uint64_t{1} << 62, 8); // chunk size
    expect_graceful(d, "huge chunk size");
    EXPECT_FALSE(read_jfr(d).ok());
  }
  {
    std::string d = good;
    put_be(d, 24, d.size() + 100, 8); // metadata offset outside the chunk
    LoadResult r = read_jfr(d);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error_offset, 24);
  }
  {
    std::string d = good;
    put_be(d, 56, 0, 8); // ticks per second
    EXPECT_FALSE(read_jfr(d).ok());
  }
  // Counts of 2^31-1 in the metadata string table, in a pool and in an array.
  auto huge_count = [](JfrBytes &b) { b.varint(0x7fffffff); };
  {
    JfrTestChunk c = small_chunk();
    c.pool("jdk.types.StackTrace", 2, [&](JfrBytes &b) {
      b.boolean(false);
      huge_count(b);
    });
    expect_graceful(c.bytes(), "huge frame count");
  }
  {
    // Event size larger than what is left, then a zero size.
    JfrTestChunk c = small_chunk();
    JfrBytes e;
    e.varint(uint64_t{1} << 40);
    e.varint(c.id("jdk.ExecutionSample"));
    c.raw_event_bytes(e.data);
    LoadResult r = read_jfr(c.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find("corrupt JFR event header"), std::string::npos) << r.error;
    JfrTestChunk z = small_chunk();
    z.raw_event_bytes(std::string(1, '\0'));
    EXPECT_FALSE(read_jfr(z.bytes()).ok());
  }
}

TEST(JfrBadInput, VarintsRunningOffTheEnd) {
  // An event whose last field is a varint with its continuation bit set up to the event end:
  // the event is skipped with a warning; the others load.
  JfrTestChunk c = small_chunk();
  JfrBytes body;
  body.varint(c.id("jdk.ExecutionSample"));
  body.varint(c.start_ticks);
  body.varint(1);
  body.u8(0x81); // stackTrace: continues past the event
  JfrBytes sized;
  JfrTestChunk::append_sized(sized, body.data);
  c.raw_event_bytes(sized.data);
  LoadResult r = read_jfr(c.bytes());
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_count, 3);
  ASSERT_EQ(r.profile->metadata.warnings.size(), 1u);
  EXPECT_NE(r.profile->metadata.warnings[0].message.find("1 corrupt JFR event(s) skipped"),
            std::string::npos);
  EXPECT_GT(r.profile->metadata.warnings[0].offset, 68);
  // The same varint at the very end of the file.
  std::string d = small_chunk().bytes();
  d.back() = static_cast<char>(0x80);
  expect_graceful(d, "varint at the end");
}

TEST(JfrBadInput, CheckpointChainLoopIsAnError) {
  JfrTestChunk c = small_chunk();
  c.checkpoints = 2;
  std::string d = c.bytes();
  // Point the first checkpoint's delta at the second: the chain loops.
  uint64_t cp = 0;
  for (int i = 0; i < 8; i++) cp = (cp << 8) | static_cast<unsigned char>(d[16 + i]);
  LoadResult ok = read_jfr(d);
  ASSERT_TRUE(ok.ok()) << ok.describe();
  // Find the first checkpoint (type 1 after a size varint) before the last one.
  for (size_t at = 68; at < cp; at++) {
    std::string e = d;
    JfrInput in(e, at, e.size(), true);
    uint64_t size = in.varint(), type = in.varint();
    if (type != 1 || size < 5 || at + size != cp) continue;
    in.varint();
    in.varint();
    size_t delta_at = in.pos();
    if (static_cast<unsigned char>(e[delta_at]) != 0) continue;
    e[delta_at] = static_cast<char>(cp - at); // a positive delta to the last checkpoint
    LoadResult r = read_jfr(e);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find("loops"), std::string::npos) << r.error;
    return;
  }
  GTEST_SKIP() << "no single-byte delta slot found";
}

TEST(JfrBadInput, SelfNestingTypesAndUndeclaredPools) {
  {
    JfrTestChunk c = small_chunk();
    c.declare("test.Loop", {JfrTestField("again", "test.Loop")});
    c.declare("jdk.ThreadPark",
              {JfrTestField("startTime", "long"), JfrTestField("loop", "test.Loop"),
               JfrTestField("duration", "long")},
              "jdk.jfr.Event");
    c.event("jdk.ThreadPark", [](JfrBytes &b) {
      b.i64(1);
      b.i64(2);
    });
    expect_graceful(c.bytes(), "self-nesting type");
  }
  {
    // A pool whose class id the metadata does not declare: an error at that pool.
    JfrTestChunk c = small_chunk();
    c.pool("not.Declared", 1, [](JfrBytes &b) { b.i32(5); });
    LoadResult r = read_jfr(c.bytes());
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error.find("undeclared type id"), std::string::npos) << r.error;
    EXPECT_GT(r.error_offset, 68);
  }
  {
    // References to missing pool entries: warnings, not errors.
    JfrTestChunk c = small_chunk();
    c.event("jdk.ExecutionSample", [&](JfrBytes &b) {
      b.i64(c.start_ticks);
      b.i64(42);
      b.i64(43);
    });
    LoadResult r = read_jfr(c.bytes());
    ASSERT_TRUE(r.ok()) << r.describe();
    EXPECT_EQ(r.profile->events[0].total_count, 4);
    ASSERT_EQ(r.profile->metadata.warnings.size(), 1u);
    EXPECT_NE(r.profile->metadata.warnings[0].message.find("2 reference(s) to missing"),
              std::string::npos);
  }
}
