// JfrPoolPages on a buffer of known bytes: release_before() gives back only the whole pages
// inside the ranges that end before the offset (the bytes around them stay) but the last of
// them, ensure() reads a range not read yet when first needed and a range given back once
// more and then keeps it, nothing is given back while a use() is held,
// and a read again that fails is an error with where, never bytes from nowhere.
#include "formats/jfr_pool_pages.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>

namespace hotlines {
namespace {

class JfrPoolPagesTest : public ::testing::Test {
protected:
  void SetUp() override {
    page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size = 16 * page;
    void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    bytes = static_cast<char *>(p);
    file.resize(size);
    for (size_t i = 0; i < size; i++) file[i] = static_cast<char>(1 + i % 251); // never 0
    std::memcpy(bytes, file.data(), size);
  }
  void TearDown() override { munmap(bytes, size); }

  // The file's bytes, counting the reads again.
  JfrPoolPages::Reread reread() {
    return [this](size_t begin, size_t n, char *to, std::string *error) {
      if (fail) {
        *error = "the file changed while it was read";
        return false;
      }
      reads++;
      std::memcpy(to, file.data() + begin, n);
      return true;
    };
  }
  // Whether [begin, end) of the buffer holds the file's bytes, or zeros (given back).
  bool same(size_t begin, size_t end) const {
    return std::memcmp(bytes + begin, file.data() + begin, end - begin) == 0;
  }
  bool zeros(size_t begin, size_t end) const {
    for (size_t i = begin; i < end; i++)
      if (bytes[i] != 0) return false;
    return true;
  }

  size_t page = 0, size = 0;
  char *bytes = nullptr;
  std::string file;
  bool fail = false;
  int reads = 0;
};

TEST_F(JfrPoolPagesTest, GivesBackWholePagesInsideTheRangesBeforeTheOffset) {
  // Range 0 covers pages 1-3 whole and parts of pages 0 and 4; range 1 pages 6-7 whole;
  // range 2 has no whole page; range 3 page 11.
  const size_t r0b = page / 2, r0e = 4 * page + 10, r1b = 6 * page, r1e = 8 * page,
               r2b = 9 * page + 5, r2e = 10 * page - 5, r3b = 11 * page, r3e = 12 * page;
  JfrPoolPages pages(bytes, size, {{r0b, r0e}, {r1b, r1e}, {r2b, r2e}, {r3b, r3e}}, reread(),
                     false);
  // The last range behind the offset stays (events after a checkpoint still use it).
  EXPECT_EQ(pages.release_before(r0e), 0u);
  EXPECT_EQ(pages.release_before(r1e - 1), 0u);
  EXPECT_TRUE(same(0, size));
  EXPECT_EQ(pages.release_before(r1e), 3 * page);
  EXPECT_TRUE(same(0, page));
  EXPECT_TRUE(zeros(page, 4 * page));
  EXPECT_TRUE(same(4 * page, size));
  // Range 0 is not given back twice; range 1 now, 2 with nothing to give; 3 stays.
  EXPECT_EQ(pages.release_before(size), 2 * page);
  EXPECT_TRUE(zeros(r1b, r1e));
  EXPECT_TRUE(same(r1e, size));
  pages.release_all();
  EXPECT_TRUE(zeros(r3b, r3e));
  EXPECT_TRUE(same(r1e, r3b));
  EXPECT_EQ(reads, 0);
}

TEST_F(JfrPoolPagesTest, EnsureReadsARangeAgainOnceAndKeepsIt) {
  const size_t r0b = page, r0e = 4 * page, r1b = 5 * page, r1e = 7 * page;
  JfrPoolPages pages(bytes, size, {{r0b, r0e}, {r1b, r1e}}, reread(), false);
  pages.release_all();
  {
    auto use = pages.use();
    EXPECT_TRUE(pages.ensure(0));        // before every range
    EXPECT_TRUE(pages.ensure(4 * page)); // between ranges
    EXPECT_TRUE(pages.ensure(size - 1)); // after every range
    EXPECT_EQ(reads, 0);
    EXPECT_TRUE(pages.ensure(2 * page + 7)); // in range 0
    EXPECT_EQ(reads, 1);
    EXPECT_TRUE(same(r0b, r0e));
    EXPECT_TRUE(zeros(r1b, r1e));
    EXPECT_TRUE(pages.ensure(r0b));
    EXPECT_TRUE(pages.ensure(r0e - 1));
    EXPECT_EQ(reads, 1); // read once
  }
  EXPECT_EQ(pages.reread_bytes(), 3 * page);
  pages.release_all(); // kept: range 0 read again stays
  EXPECT_TRUE(same(r0b, r0e));
}

TEST_F(JfrPoolPagesTest, WithoutKeepARangeReadAgainIsGivenBackAgain) {
  JfrPoolPages pages(bytes, size, {{page, 3 * page}}, reread(), false, false);
  for (int round = 1; round <= 2; round++) {
    pages.release_all();
    EXPECT_TRUE(zeros(page, 3 * page));
    auto use = pages.use();
    EXPECT_TRUE(pages.ensure(page));
    EXPECT_TRUE(same(page, 3 * page));
    EXPECT_EQ(reads, round);
  }
}

// Bytes read without the ranges' whole pages (JfrSource::acquire's `skip`, which leaves there
// what the buffer held): each range is read when first needed, its pages are given back
// behind the slices whether it was read or not, and a range read a second time is kept.
TEST_F(JfrPoolPagesTest, UnreadRangesAreReadWhenFirstNeeded) {
  const std::vector<JfrConstantPools::Range> ranges = {
      {page + 9, 3 * page + 1}, {5 * page, 7 * page}, {8 * page, 9 * page}};
  size_t b, e;
  JfrPoolPages::whole_pages(bytes, size, ranges[0], &b, &e);
  EXPECT_EQ(b, 2 * page);
  EXPECT_EQ(e, 3 * page);
  for (const auto &r : ranges) { // what a reused buffer held
    JfrPoolPages::whole_pages(bytes, size, r, &b, &e);
    std::memset(bytes + b, 0x55, e - b);
  }
  JfrPoolPages pages(bytes, size, ranges, reread(), true);
  {
    auto use = pages.use();
    EXPECT_TRUE(pages.ensure(page + 9)); // in range 0, before its whole page
    EXPECT_EQ(reads, 1);
    EXPECT_TRUE(same(0, 3 * page + 1));
    EXPECT_EQ(bytes[5 * page], 0x55);
  }
  EXPECT_EQ(pages.release_before(7 * page), page); // range 0 read once: given back
  EXPECT_EQ(pages.release_before(size), 2 * page); // range 1 unread: its pages given back
  EXPECT_TRUE(zeros(2 * page, 3 * page));
  EXPECT_TRUE(zeros(5 * page, 7 * page));
  {
    auto use = pages.use();
    EXPECT_TRUE(pages.ensure(2 * page));
    EXPECT_TRUE(pages.ensure(6 * page));
    EXPECT_EQ(reads, 3);
    EXPECT_TRUE(same(0, 7 * page));
  }
  pages.release_all(); // range 0 read again is kept; range 1, read once, is given back
  EXPECT_TRUE(same(0, 5 * page));
  EXPECT_TRUE(zeros(5 * page, 7 * page));
  EXPECT_EQ(pages.reread_bytes(), 4 * page);
}

TEST_F(JfrPoolPagesTest, NothingIsGivenBackWhileAUseIsHeld) {
  JfrPoolPages pages(bytes, size, {{page, 3 * page}, {4 * page, 5 * page}}, reread(), false);
  {
    auto use = pages.use();
    EXPECT_EQ(pages.release_before(size), 0u); // returns at once
    EXPECT_TRUE(same(0, size));
  }
  EXPECT_EQ(pages.release_before(size), 2 * page); // range 0 was not skipped
  EXPECT_TRUE(zeros(page, 3 * page));
}

TEST_F(JfrPoolPagesTest, AReadAgainThatFailsIsAnErrorWithWhere) {
  JfrPoolPages pages(bytes, size, {{page + 3, 4 * page}}, reread(), false);
  pages.release_all();
  fail = true;
  auto use = pages.use();
  EXPECT_FALSE(pages.ensure(3 * page));
  EXPECT_EQ(pages.error(), "the file changed while it was read");
  EXPECT_EQ(pages.error_offset(), static_cast<int64_t>(2 * page)); // the first page given back
  EXPECT_TRUE(zeros(2 * page, 4 * page));
  fail = false; // the error stays: the bytes are not trusted again
  EXPECT_FALSE(pages.ensure(3 * page));
  EXPECT_EQ(reads, 0);
  EXPECT_TRUE(pages.ensure(page + 3 - 1)); // outside the range: nothing to read
}

} // namespace
} // namespace hotlines
