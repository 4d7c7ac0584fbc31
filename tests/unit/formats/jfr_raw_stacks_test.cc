// Stack traces read ahead of resolution (formats/jfr_raw_stacks.h), on chunks written by
// tests/unit/formats/jfr_test_writer.h: frames deduplicated within the slice (by their bytes
// or field by field) and repeated frames of recursion, and what is left to the resolver — missing
// entries, fields past 32 bits, fixed-width integers. That the profile is the same whatever the
// slices and threads is JfrFixture.SameProfileWhateverTheSlices. And which slice reads a stack
// trace (JfrStackClaims). A slice's unused pages of frames given back.
#include "formats/jfr_chunk.h"
#include "formats/jfr_constant_pool.h"
#include "formats/jfr_metadata_cache.h"
#include "formats/jfr_raw_stacks.h"
#include "formats/jfr_stack_claims.h"
#include "jfr_test_writer.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <sys/mman.h>
#include <unistd.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

using F = JfrTestField;

// A chunk whose StackTrace pool holds `stacks` (key i + 1, frames leaf first as {method,
// line}) and ends the chunk; lines are `long` fields, so one past 32 bits can be written. A
// negative method is -method written padded, in 3 bytes (0x80 continuation bytes): another
// encoding of the same frame.
std::string chunk_with(const std::vector<std::vector<std::pair<int64_t, int64_t>>> &stacks,
                       bool compressed) {
  JfrTestChunk c(compressed);
  c.declare("jdk.types.Symbol", {{"string", "java.lang.String"}}, "", true);
  c.declare("java.lang.Class", {F{"name", "jdk.types.Symbol", true, false, {}}});
  c.declare("jdk.types.Method", {F{"type", "java.lang.Class", true, false, {}},
                                 F{"name", "jdk.types.Symbol", true, false, {}}});
  c.declare("jdk.types.FrameType", {{"description", "java.lang.String"}}, "", true);
  c.declare("jdk.types.StackFrame", {F{"method", "jdk.types.Method", true, false, {}},
                                     {"lineNumber", "long"},
                                     {"bytecodeIndex", "int"},
                                     F{"type", "jdk.types.FrameType", true, false, {}}});
  c.declare("jdk.types.StackTrace",
            {{"truncated", "boolean"}, F{"frames", "jdk.types.StackFrame", false, true, {}}});
  for (size_t k = 0; k < stacks.size(); k++)
    c.pool("jdk.types.StackTrace", static_cast<int64_t>(k + 1), [&stacks, k](JfrBytes &b) {
      b.boolean(false);
      b.i32(static_cast<int64_t>(stacks[k].size()));
      for (const auto &[method, line] : stacks[k]) {
        if (method < 0) {
          b.u8(static_cast<uint8_t>(-method | 0x80));
          b.u8(0x80);
          b.u8(0x00);
        } else {
          b.i64(method);
        }
        b.i64(line);
        b.i32(line * 10);
        b.i64(1);
      }
    });
  return c.bytes();
}

struct Read {
  JfrRawStacks raw;
  std::string error;
};

// Reads the stack traces `keys` of the chunk ahead, as a slice referencing them would.
Read read_ahead(const std::string &bytes, const std::vector<uint64_t> &keys) {
  Read r;
  JfrChunkHeader chunk;
  int64_t at = -1;
  if (!read_jfr_chunk_header(bytes, 0, &chunk, &r.error, &at)) return r;
  JfrMetadataCache cache;
  JfrMetadataCache::Entry types = cache.get(bytes, chunk, &r.error, &at);
  if (!types.metadata) return r;
  JfrConstantPools pools;
  if (!pools.load(bytes, chunk, *types.decoder, &r.error, &at)) return r;
  int stack_class = -1;
  for (size_t i = 0; i < types.metadata->classes.size(); i++)
    if (types.metadata->classes[i].name == "jdk.types.StackTrace")
      stack_class = static_cast<int>(i);
  std::vector<JfrStackRef> refs;
  for (uint64_t k : keys) refs.push_back(JfrStackRef{stack_class, k});
  const JfrStackSource src{bytes,
                           chunk.offset + JfrChunkHeader::kSize,
                           chunk.end(),
                           chunk.compressed_integers(),
                           types.metadata.get(),
                           types.decoder.get(),
                           &pools};
  read_raw_stacks(src, refs, &r.raw);
  return r;
}

// The frames of read stack `i` as {method, line} keys, leaf first.
std::vector<std::pair<uint64_t, uint32_t>> frames_of(const JfrRawStacks &raw, size_t i) {
  std::vector<std::pair<uint64_t, uint32_t>> out;
  for (uint32_t k = raw.stacks[i].begin; k < raw.stacks[i].end; k++) {
    const JfrFrameKey &key = raw.frames[raw.refs[k]].key;
    out.emplace_back(key.method, key.rest[0]);
  }
  return out;
}

} // namespace

TEST(JfrRawStacks, FramesAreNumberedOncePerSliceAndRecursionRepeatsThem) {
  const std::string bytes =
      chunk_with({{{1, 5}, {2, 6}, {2, 6}, {2, 6}, {3, 7}}, // recursion in method 2
                  {{1, 5}, {4, 8}},
                  {}},
                 true);
  const Read r = read_ahead(bytes, {2, 1, 3});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.raw.stacks.size(), 3u);
  using V = std::vector<std::pair<uint64_t, uint32_t>>;
  EXPECT_EQ(frames_of(r.raw, 0), (V{{1, 5}, {4, 8}}));
  EXPECT_EQ(frames_of(r.raw, 1), (V{{1, 5}, {2, 6}, {2, 6}, {2, 6}, {3, 7}}));
  EXPECT_EQ(frames_of(r.raw, 2), V{}); // an empty stack is read, with no frames
  EXPECT_NE(r.raw.stacks[2].begin, JfrRawStacks::kUnread);
  // Four distinct frames, numbered in the order first seen; all fields are kept.
  ASSERT_EQ(r.raw.frames.size(), 4u);
  EXPECT_EQ(r.raw.refs, (HugeVector<uint32_t>{0, 1, 0, 2, 2, 2, 3}));
  EXPECT_EQ(r.raw.frames[2].key.rest[1], 60u); // bytecode index
  EXPECT_EQ(r.raw.frames[2].key.rest[2], 1u);  // type
  // Each frame's bytes are where the resolver decodes it: its 4 varints.
  for (const JfrRawStacks::Frame &f : r.raw.frames) {
    EXPECT_EQ(f.end - f.at, 4u);
    EXPECT_EQ(static_cast<uint8_t>(bytes[f.at]), f.key.method);
  }
}

TEST(JfrRawStacks, WhatIsNotReadAheadIsLeftToTheResolver) {
  const int64_t wide = (int64_t{1} << 32) + 7;
  // Stack 2 has a line past 32 bits (the resolver decodes it field by field); 9 is missing.
  // The wide frame is 12 bytes: looked up by its bytes when stack 3 follows it, decoded field
  // by field when it is within 16 bytes of the chunk's end.
  for (const bool trailing : {false, true}) {
    SCOPED_TRACE(trailing ? "a stack after it" : "the chunk's last stack");
    std::vector<std::vector<std::pair<int64_t, int64_t>>> stacks = {{{1, 5}}, {{1, 5}, {2, wide}}};
    if (trailing) stacks.push_back({{3, 7}, {3, 7}, {3, 7}});
    const Read r = read_ahead(chunk_with(stacks, true), {1, 2, 9});
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.raw.stacks.size(), 3u);
    EXPECT_EQ(r.raw.stacks[0].end - r.raw.stacks[0].begin, 1u);
    EXPECT_EQ(r.raw.stacks[1].begin, JfrRawStacks::kUnread);
    EXPECT_EQ(r.raw.stacks[2].begin, JfrRawStacks::kUnread);
    EXPECT_EQ(r.raw.refs.size(), 1u); // the wide stack's frames were not kept
  }

  // Fixed-width integers: nothing is read ahead.
  const Read fixed = read_ahead(chunk_with({{{1, 5}}}, false), {1});
  ASSERT_EQ(fixed.error, "");
  ASSERT_EQ(fixed.raw.stacks.size(), 1u);
  EXPECT_EQ(fixed.raw.stacks[0].begin, JfrRawStacks::kUnread);
}

// Frames are looked up by their bytes when they have at most 15, else decoded field by field;
// either way, and whatever the encoding of their fields, one frame is numbered once.
TEST(JfrRawStacks, AFrameIsNumberedOnceWhateverItsBytes) {
  const int64_t big = int64_t{1} << 62, line = int64_t{1} << 31; // a 16-byte frame
  const std::string bytes = chunk_with({{{1, 5}, {2, 6}},
                                        {{-1, 5}, {2, 6}}, // method 1 in 3 bytes
                                        {{big, line}, {big, line}, {1, 5}},
                                        {{2, 6}, {2, 6}, {2, 6}, {2, 6}}},
                                       true);
  const Read r = read_ahead(bytes, {1, 2, 3});
  ASSERT_EQ(r.error, "");
  using V = std::vector<std::pair<uint64_t, uint32_t>>;
  EXPECT_EQ(frames_of(r.raw, 0), (V{{1, 5}, {2, 6}}));
  EXPECT_EQ(frames_of(r.raw, 1), (V{{1, 5}, {2, 6}}));
  EXPECT_EQ(frames_of(r.raw, 2),
            (V{{uint64_t(big), uint32_t(line)}, {uint64_t(big), uint32_t(line)}, {1, 5}}));
  ASSERT_EQ(r.raw.frames.size(), 3u);
  EXPECT_EQ(r.raw.refs, (HugeVector<uint32_t>{0, 1, 0, 1, 2, 2, 0}));
  // The frame's bytes are those where it was first seen.
  EXPECT_EQ(r.raw.frames[0].end - r.raw.frames[0].at, 4u);
  EXPECT_EQ(r.raw.frames[2].end - r.raw.frames[2].at, 16u); // 9 + 5 + 1 + 1
}

// The frames of one method differ only in the bytes after the method's id (a JDK method id is a
// varint of 5 bytes or more, then line, bytecode index and type): their hashes must still spread
// over the slots that the low bits pick, or a slice's frame table probes long runs.
TEST(JfrRawStacks, FramesOfOneMethodSpreadOverTheSlots) {
  const uint64_t method = 0x0c8b9afa0f; // 5 bytes of varint, as the JDK writes method ids
  std::vector<bool> used(4096, false);
  size_t distinct = 0;
  for (uint64_t line = 0; line < 4096; line++) {
    JfrFrameBytes b;
    b.lo = method | (line & 0x7f) << 40 | (line >> 7) << 48 | uint64_t{7} << 56; // line, bci
    b.hi = uint64_t{9} << 56;                                                    // 9 bytes
    const size_t slot = b.hash() & 4095;
    distinct += !used[slot];
    used[slot] = true;
  }
  EXPECT_GT(distinct, 2400u); // random slots fill 1 - 1/e of them: 2,589
}

// A slice's buffers go to the next slice with the pages of `refs` past what it used given back:
// the whole 2 MiB pages past its size are not resident, and those it used hold its frames.
TEST(JfrRawStacks, UnusedPagesOfTheFramesAreGivenBack) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto resident = [page](const void *p, size_t n) { // resident pages of [p, p + n), whole ones
    const uintptr_t b = (reinterpret_cast<uintptr_t>(p) + page - 1) & ~(page - 1);
    const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + n) & ~(page - 1);
    std::vector<unsigned char> in(e > b ? (e - b) / page : 0);
    if (e > b) {
      EXPECT_EQ(mincore(reinterpret_cast<void *>(b), e - b, in.data()), 0);
    }
    return static_cast<size_t>(
        std::count_if(in.begin(), in.end(), [](unsigned char c) { return c & 1; }));
  };
  JfrRawStacks raw;
  for (uint32_t i = 0; i < (3u << 20); i++) raw.refs.push_back(i); // 12 MiB, all written
  const uint32_t *data = raw.refs.data();
  const size_t bytes = raw.refs.capacity() * sizeof(uint32_t);
  ASSERT_GT(resident(data, bytes), (size_t{10} << 20) / page);
  raw.refs.resize(1000); // the next slice read fewer
  raw.give_back_unused();
  EXPECT_EQ(raw.refs.data(), data); // the buffer is kept
  const size_t kept = kHugePage;    // the used bytes' huge page
  EXPECT_EQ(resident(reinterpret_cast<const char *>(data) + kept, bytes - kept), 0u);
  for (uint32_t i = 0; i < 1000; i++) ASSERT_EQ(raw.refs[i], i);
}

// JfrStackClaims: a slice reads a stack trace ahead unless an earlier slice (in file order)
// claimed it, whatever order the workers claim in.
TEST(JfrStackClaims, ASliceReadsWhatNoEarlierSliceReferences) {
  JfrStackClaims claims;
  auto claim = [&](uint32_t slice, std::vector<uint64_t> keys) {
    std::vector<JfrStackRef> refs;
    for (uint64_t k : keys) refs.push_back(JfrStackRef{7, k});
    claims.claim(slice, refs);
    std::vector<uint64_t> read;
    for (const JfrStackRef &r : refs)
      if (r.type == 7) read.push_back(r.key);
    return read;
  };
  EXPECT_EQ(claim(3, {10, 11}), (std::vector<uint64_t>{10, 11}));
  EXPECT_EQ(claim(1, {11, 12}), (std::vector<uint64_t>{11, 12})); // 11: slice 3 comes later
  EXPECT_EQ(claim(2, {10, 11, 12, 13}), (std::vector<uint64_t>{10, 13}));
  EXPECT_EQ(claim(4, {10, 11, 12, 13, 14}), (std::vector<uint64_t>{14}));
}
