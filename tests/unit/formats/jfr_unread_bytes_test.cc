// Bytes of a chunk read as a walk reaches them (formats/jfr_unread_bytes.h): only the whole
// pages of what was skipped are unread, ensure() reads what is asked and as much more as the
// read-ahead, pages given back are read again, and a read that fails says so; the next piece
// read ahead on a thread of its own is in memory once taken in, or read again if it failed. And
// JfrConstantPools::load over a chunk whose checkpoint was not read (what the survey of a big
// async-profiler chunk does): the same index as from the bytes in memory whatever the size of
// the pieces (entries that run past a piece are read again whole), the stack-trace pool's pages
// given back behind the walk, and a read that fails is an error at the bytes it could not read.
#include "formats/jfr_unread_bytes.h"

#include "formats/jfr_chunk.h"
#include "formats/jfr_constant_pool.h"
#include "formats/jfr_metadata_cache.h"
#include "jfr_test_writer.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

namespace hotlines {
namespace {

using test::JfrBytes;
using test::JfrTestChunk;
using F = test::JfrTestField;
using Range = JfrConstantPools::Range;

// A page-aligned buffer holding `file`'s bytes, but zeros in the whole pages of `skipped`.
class Buffer {
public:
  Buffer(const std::string &file, Range skipped) : file_(file) {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_ = (file.size() + page_ - 1) / page_ * page_;
    void *p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bytes_ = static_cast<char *>(p);
    std::memcpy(bytes_, file.data(), file.size());
    size_t b, e;
    JfrPoolPages::whole_pages(bytes_, file.size(), skipped, &b, &e);
    std::memset(bytes_ + b, 0, e - b);
  }
  ~Buffer() { munmap(bytes_, size_); }
  char *bytes() { return bytes_; }
  size_t page() const { return page_; }
  // The file's bytes again, counting the reads and the bytes read; fails once `fail` is set,
  // and a read from `fail_at`. From any thread.
  JfrPoolPages::Reread reread() {
    return [this](size_t begin, size_t n, char *to, std::string *error) {
      if (fail || begin == fail_at) {
        *error = "the file changed while it was read";
        return false;
      }
      reads++;
      read_bytes += n;
      std::memcpy(to, file_.data() + begin, n);
      return true;
    };
  }
  bool same(size_t begin, size_t end) const {
    return std::memcmp(bytes_ + begin, file_.data() + begin, end - begin) == 0;
  }
  bool zeros(size_t begin, size_t end) const {
    for (size_t i = begin; i < end; i++)
      if (bytes_[i] != 0) return false;
    return true;
  }

  std::atomic<bool> fail = false;
  std::atomic<size_t> fail_at = SIZE_MAX;
  std::atomic<int> reads = 0;
  std::atomic<size_t> read_bytes = 0;

private:
  const std::string &file_;
  char *bytes_ = nullptr;
  size_t page_ = 0, size_ = 0;
};

std::string pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i++) s[i] = static_cast<char>(1 + i % 251); // never 0
  return s;
}

TEST(JfrUnreadBytes, ReadsTheWholePagesSkippedAsAskedAndAgainOnceGivenBack) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const std::string file = pattern(16 * page);
  Buffer buf(file, Range{page + 10, 6 * page + 5}); // unread: pages 2 to 5
  JfrUnreadBytes unread(buf.bytes(), file.size(), {Range{page + 10, 6 * page + 5}}, buf.reread(),
                        page);
  ASSERT_TRUE(buf.zeros(2 * page, 6 * page));
  EXPECT_EQ(unread.readable_end(0, file.size()), 2 * page);
  EXPECT_EQ(unread.readable_end(2 * page + 7, file.size()), 2 * page + 7); // itself unread
  EXPECT_EQ(unread.readable_end(6 * page, file.size()), file.size());
  EXPECT_EQ(unread.readable_end(0, 100), 100u);

  std::string error;
  // Ten bytes asked from page 1's end: the unread bytes of the page read ahead from there.
  ASSERT_TRUE(unread.ensure(page - 3, page + 7, &error));
  EXPECT_EQ(buf.reads, 0);
  ASSERT_TRUE(unread.ensure(2 * page - 3, 2 * page + 7, &error));
  EXPECT_EQ(buf.read_bytes, page - 3);
  // From page 2's start: the page.
  buf.read_bytes = 0;
  buf.reads = 0;
  ASSERT_TRUE(unread.ensure(2 * page, 2 * page + 7, &error));
  EXPECT_EQ(buf.reads, 1);
  EXPECT_EQ(buf.read_bytes, 3u);
  buf.read_bytes = page;
  EXPECT_TRUE(buf.same(0, 3 * page));
  EXPECT_TRUE(buf.zeros(3 * page, 6 * page));
  EXPECT_EQ(unread.readable_end(0, file.size()), 3 * page);
  // Without read-ahead: what is asked.
  ASSERT_TRUE(unread.ensure(3 * page, 3 * page + 1, &error, false));
  EXPECT_EQ(buf.read_bytes, page + 1);
  EXPECT_EQ(unread.readable_end(0, file.size()), 3 * page + 1);
  ASSERT_TRUE(unread.ensure(0, file.size(), &error));
  EXPECT_TRUE(buf.same(0, file.size()));
  EXPECT_EQ(buf.read_bytes, 4 * page);
  EXPECT_EQ(unread.readable_end(0, file.size()), file.size());
  const int reads = buf.reads;
  ASSERT_TRUE(unread.ensure(0, file.size(), &error)); // nothing left to read
  EXPECT_EQ(buf.reads, reads);

  // Given back: the whole pages only, read again when asked.
  EXPECT_EQ(unread.given_back(), 0u);
  unread.give_back(page + 1, 4 * page + 1); // pages 2 and 3
  EXPECT_EQ(unread.given_back(), 2 * page);
  EXPECT_TRUE(buf.same(0, 2 * page));
  EXPECT_TRUE(buf.zeros(2 * page, 4 * page));
  EXPECT_TRUE(buf.same(4 * page, file.size()));
  EXPECT_EQ(unread.readable_end(page, file.size()), 2 * page);
  unread.give_back(5 * page, 7 * page); // pages 5 and 6: apart from 2 and 3
  unread.give_back(4 * page, 5 * page); // page 4 joins them
  EXPECT_TRUE(buf.zeros(2 * page, 7 * page));
  EXPECT_EQ(unread.readable_end(2 * page, file.size()), 2 * page);
  EXPECT_EQ(unread.readable_end(7 * page, file.size()), file.size());
  ASSERT_TRUE(unread.ensure(6 * page, 6 * page + 1, &error, false));
  EXPECT_TRUE(buf.same(6 * page, 6 * page + 1));
  EXPECT_EQ(unread.readable_end(6 * page, file.size()), 6 * page + 1); // then unread
  buf.fail = true;
  error.clear();
  EXPECT_FALSE(unread.ensure(2 * page, 3 * page, &error));
  EXPECT_EQ(error, "the file changed while it was read");
  buf.fail = false;
  ASSERT_TRUE(unread.ensure(0, file.size(), &error));
  EXPECT_TRUE(buf.same(0, file.size()));
}

TEST(JfrUnreadBytes, ReadsTheNextPieceAheadOnAThreadOfItsOwn) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const std::string file = pattern(16 * page);
  Buffer buf(file, Range{2 * page, 8 * page}); // unread: pages 2 to 7
  JfrUnreadBytes unread(buf.bytes(), file.size(), {Range{2 * page, 8 * page}}, buf.reread(), page,
                        true);
  std::string error;
  // Page 2 read, page 3 read meanwhile: unreadable until the next ensure() takes it in.
  ASSERT_TRUE(unread.ensure(2 * page, 2 * page + 1, &error));
  EXPECT_TRUE(buf.same(2 * page, 3 * page));
  EXPECT_EQ(unread.readable_end(0, file.size()), 3 * page);
  ASSERT_TRUE(unread.ensure(3 * page, 3 * page + 1, &error)); // page 4 meanwhile
  EXPECT_TRUE(buf.same(2 * page, 4 * page));
  EXPECT_EQ(unread.readable_end(0, file.size()), 4 * page);
  // Without read-ahead: takes page 4 in, reads none ahead.
  ASSERT_TRUE(unread.ensure(4 * page, 4 * page + 1, &error, false));
  EXPECT_EQ(buf.reads, 3);
  EXPECT_TRUE(buf.same(4 * page, 5 * page));
  EXPECT_EQ(unread.readable_end(0, file.size()), 5 * page);
  // A read ahead that fails leaves its bytes unread: the next ensure() reads them, and fails.
  buf.fail_at = 6 * page;
  ASSERT_TRUE(unread.ensure(5 * page, 5 * page + 1, &error)); // page 6 meanwhile, which fails
  unread.stop_reading_ahead();
  EXPECT_EQ(unread.readable_end(0, file.size()), 6 * page);
  EXPECT_TRUE(buf.zeros(6 * page, 8 * page));
  EXPECT_FALSE(unread.ensure(6 * page, 6 * page + 1, &error));
  EXPECT_EQ(error, "the file changed while it was read");
  buf.fail_at = SIZE_MAX;
  const int reads = buf.reads;
  ASSERT_TRUE(unread.ensure(6 * page, 6 * page + 1, &error)); // stopped: page 6 only
  EXPECT_EQ(buf.reads, reads + 1);
  EXPECT_EQ(unread.readable_end(0, file.size()), 7 * page);
  ASSERT_TRUE(unread.ensure(0, file.size(), &error));
  EXPECT_TRUE(buf.same(0, file.size()));
}

// A chunk of a small Method pool and a StackTrace pool of `stacks` stacks of 40 frames (some
// hundreds of KB), in one checkpoint.
std::string chunk_of_stacks(int stacks) {
  JfrTestChunk c(true);
  c.declare("jdk.types.Symbol", {{"string", "java.lang.String"}}, "", true);
  c.declare("jdk.types.Method", {F{"name", "jdk.types.Symbol", true, false, {}}});
  c.declare("jdk.types.StackFrame",
            {F{"method", "jdk.types.Method", true, false, {}}, {"lineNumber", "int"}});
  c.declare("jdk.types.StackTrace",
            {{"truncated", "boolean"}, F{"frames", "jdk.types.StackFrame", false, true, {}}});
  for (int m = 1; m <= 50; m++) c.pool("jdk.types.Method", m, [m](JfrBytes &b) { b.i64(m); });
  for (int k = 1; k <= stacks; k++)
    c.pool("jdk.types.StackTrace", k, [k](JfrBytes &b) {
      b.boolean(false);
      b.i32(40);
      for (int f = 0; f < 40; f++) {
        b.i64(1 + (k * 7 + f) % 50);
        b.i32(k * 100 + f);
      }
    });
  return c.bytes();
}

struct Chunk {
  JfrChunkHeader header;
  JfrMetadataCache cache;
  JfrMetadataCache::Entry types;
  int stack_class = -1;
  std::vector<char> give_back; // by class: the StackTrace pool
};

void open_chunk(const std::string &bytes, Chunk *c) {
  std::string error;
  int64_t at = -1;
  ASSERT_TRUE(read_jfr_chunk_header(bytes, 0, &c->header, &error, &at)) << error;
  c->types = c->cache.get(bytes, c->header, &error, &at);
  ASSERT_TRUE(c->types.metadata) << error;
  c->give_back.assign(c->types.metadata->classes.size(), 0);
  for (size_t i = 0; i < c->types.metadata->classes.size(); i++)
    if (c->types.metadata->classes[i].name == "jdk.types.StackTrace") {
      c->stack_class = static_cast<int>(i);
      c->give_back[i] = 1;
    }
  ASSERT_GE(c->stack_class, 0);
}

TEST(JfrUnreadBytes, PoolsIndexedAsTheyAreReadGiveBackTheStackTracesBehind) {
  const std::string file = chunk_of_stacks(3000);
  Chunk c;
  ASSERT_NO_FATAL_FAILURE(open_chunk(file, &c));
  JfrConstantPools want;
  std::string error;
  int64_t at = -1;
  ASSERT_TRUE(want.load(file, c.header, *c.types.decoder, &error, &at));
  ASSERT_EQ(want.ranges(c.stack_class).size(), 1u);
  const Range stacks = want.ranges(c.stack_class)[0];
  const size_t cp = static_cast<size_t>(c.header.constant_pool_offset);
  const Range skipped{cp + 64, c.header.end()};
  for (size_t ahead : {size_t{1}, size_t{1000}, size_t{5000}, size_t{1} << 20})
    for (bool read_ahead : {false, true}) {
      if (read_ahead && ahead == 1) continue; // a thread for each entry
      SCOPED_TRACE("pieces of " + std::to_string(ahead) + " bytes" +
                   (read_ahead ? ", read ahead" : ""));
      Buffer buf(file, skipped);
      const std::string_view bytes(buf.bytes(), file.size());
      JfrUnreadBytes unread(buf.bytes(), file.size(), {skipped}, buf.reread(), ahead, read_ahead);
      JfrConstantPools got;
      ASSERT_TRUE(got.load(bytes, c.header, *c.types.decoder, &error, &at, &unread, c.give_back))
          << error;
      EXPECT_EQ(got.entries(), want.entries());
      EXPECT_EQ(got.entries(), 3050u);
      for (int cls = 0; cls < static_cast<int>(c.give_back.size()); cls++)
        for (uint64_t key = 1; key <= 3000; key++)
          ASSERT_EQ(got.find(cls, key), want.find(cls, key)) << cls << " " << key;
      // The stack traces' whole pages given back, the rest of the chunk read.
      size_t b, e;
      JfrPoolPages::whole_pages(buf.bytes(), file.size(), stacks, &b, &e);
      ASSERT_GT(e - b, 10 * buf.page());
      EXPECT_EQ(unread.given_back(), e - b);
      EXPECT_TRUE(buf.zeros(b, e));
      EXPECT_TRUE(buf.same(0, b));
      EXPECT_TRUE(buf.same(e, file.size()));
      // Read in pieces of `ahead` bytes or more: the bytes skipped, once each (an entry that runs
      // past a piece is decoded again, not read again).
      size_t sb, se;
      JfrPoolPages::whole_pages(buf.bytes(), file.size(), skipped, &sb, &se);
      EXPECT_EQ(buf.read_bytes, se - sb);
      if (ahead >= 1000) {
        EXPECT_LE(buf.reads, static_cast<int>((se - sb) / ahead + 3));
      }
    }
}

TEST(JfrUnreadBytes, AFailedReadIsAnErrorWhereTheBytesAre) {
  const std::string file = chunk_of_stacks(3000);
  Chunk c;
  ASSERT_NO_FATAL_FAILURE(open_chunk(file, &c));
  const size_t cp = static_cast<size_t>(c.header.constant_pool_offset);
  Buffer buf(file, Range{cp + 64, c.header.end()});
  JfrUnreadBytes unread(buf.bytes(), file.size(), {Range{cp + 64, c.header.end()}}, buf.reread(),
                        1000);
  buf.fail = true;
  JfrConstantPools pools;
  std::string error;
  int64_t at = -1;
  EXPECT_FALSE(pools.load(std::string_view(buf.bytes(), file.size()), c.header, *c.types.decoder,
                          &error, &at, &unread, c.give_back));
  EXPECT_EQ(error, "the file changed while it was read");
  EXPECT_GT(at, static_cast<int64_t>(cp));
  EXPECT_LT(at, static_cast<int64_t>(c.header.end()));
}

} // namespace
} // namespace hotlines
