// JfrSource on a file: each chunk's bytes are the file's, whether one thread reads a chunk or
// two read its halves; a file that shrinks after it was opened is an error, never bytes from
// nowhere; a chunk over the held limit waits for the others' release, and abandon() or a cancel
// ends the wait; a chunk's bytes read again are the file's; skipped pages are not read;
// released buffers are reused largest first, grow with room to spare, and give back their
// pages past a much smaller chunk.
#include "formats/jfr_pool_pages.h"
#include "formats/jfr_source.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include <sys/mman.h>
#include <unistd.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::string write(const TempDir &dir, const std::string &bytes) {
  const std::string path = dir.file("recording.jfr");
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// A source over `bytes` in a file of `dir`, read by one thread, and its chunks.
struct FileSource {
  std::string path;
  RegularFile file;
  std::unique_ptr<JfrSource> source;
  JfrChunkList list;
  FileSource(const TempDir &dir, const std::string &bytes) : path(write(dir, bytes)) {
    std::string error;
    EXPECT_EQ(file.open(path, &error, {}), ReadStatus::ok) << error;
    source = std::make_unique<JfrSource>(file, nullptr);
    list = source->chunks();
  }
};

} // namespace

TEST(JfrSource, ChunksReadByOneOrTwoThreadsAreTheFilesBytes) {
  const std::string one = read_file(fixture_path("java-shop/profiles/ap-multi.jfr"));
  ASSERT_GT(one.size(), 100000u);
  const std::string bytes = one + one + one; // three chunks
  TempDir dir;
  const std::string path = write(dir, bytes);
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    RegularFile file;
    std::string error;
    ASSERT_EQ(file.open(path, &error, {}), ReadStatus::ok) << error;
    JfrSource source(file, nullptr, threads, 4096); // every chunk is split with 2 threads
    const JfrChunkList list = source.chunks();
    ASSERT_EQ(list.chunks.size(), 3u);
    for (const JfrChunkHeader &c : list.chunks) {
      JfrSource::Held held;
      ASSERT_TRUE(source.acquire(c, &held, &error)) << error;
      EXPECT_TRUE(held.bytes == std::string_view(bytes).substr(c.offset, c.size));
      source.release(c, &held, true);
    }
  }
}

// Chunks differ in size: a buffer released goes to the next chunk largest first, and one too
// small grows by a quarter more than the chunk, so that the next chunks reuse it instead of
// faulting in fresh pages.
TEST(JfrSource, BuffersAreReusedLargestFirstAndGrowWithRoomToSpare) {
  const std::string small = read_file(fixture_path("java-shop/profiles/ap-cpu.jfr"));
  const std::string big = read_file(fixture_path("java-shop/profiles/ap-multi.jfr"));
  ASSERT_LT(small.size() + small.size() / 4, big.size());
  TempDir dir;
  FileSource s(dir, small + big);
  ASSERT_EQ(s.list.chunks.size(), 2u);
  const JfrChunkHeader &a = s.list.chunks[0], &b = s.list.chunks[1];
  std::string error;
  JfrSource::Held first, second;
  ASSERT_TRUE(s.source->acquire(a, &first, &error)) << error;
  EXPECT_EQ(first.buffer->capacity(), small.size()); // fresh: the chunk's size
  s.source->release(a, &first, false);
  ASSERT_TRUE(s.source->acquire(b, &first, &error)) << error;
  EXPECT_TRUE(first.bytes == big);
  EXPECT_EQ(first.buffer->capacity(), big.size() + big.size() / 4); // grown with room to spare
  const char *grown = first.buffer->view().data();
  // Two held at once: the second is a fresh buffer of its chunk's size.
  ASSERT_TRUE(s.source->acquire(a, &second, &error)) << error;
  EXPECT_EQ(second.buffer->capacity(), small.size());
  // Released large first, then small: the next chunk still takes the large one.
  s.source->release(b, &first, false);
  s.source->release(a, &second, false);
  ASSERT_TRUE(s.source->acquire(b, &first, &error)) << error;
  EXPECT_EQ(first.buffer->view().data(), grown);
  EXPECT_TRUE(first.bytes == big);
}

// A reused buffer's pages past a smaller chunk hold the last chunk's bytes: a quarter of the
// held limit or more are given back.
TEST(JfrSource, ABuffersPagesPastASmallerChunkAreGivenBack) {
  const std::string big = read_file(fixture_path("java-shop/profiles/ap-multi.jfr"));
  const std::string small = read_file(fixture_path("java-shop/profiles/ap-cpu.jfr"));
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  // Resident pages among the whole ones of [p, p + n).
  auto resident = [page](const char *p, size_t n) {
    const uintptr_t b = (reinterpret_cast<uintptr_t>(p) + page - 1) & ~(page - 1);
    const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + n) & ~(page - 1);
    std::vector<unsigned char> in((e - b) / page);
    EXPECT_EQ(mincore(reinterpret_cast<void *>(b), e - b, in.data()), 0);
    return std::count_if(in.begin(), in.end(), [](unsigned char c) { return c & 1; });
  };
  TempDir dir;
  const std::string path = write(dir, big + small);
  for (size_t held_limit : {big.size() - small.size(), 8 * (big.size() - small.size())}) {
    const bool given_back = held_limit == big.size() - small.size();
    SCOPED_TRACE(given_back ? "tail over a quarter of the limit" : "tail under it");
    RegularFile file;
    std::string error;
    ASSERT_EQ(file.open(path, &error, {}), ReadStatus::ok) << error;
    JfrSource source(file, nullptr, 1, JfrSource::kSplitReadBytes, held_limit);
    const JfrChunkList list = source.chunks();
    ASSERT_EQ(list.chunks.size(), 2u);
    JfrSource::Held held;
    ASSERT_TRUE(source.acquire(list.chunks[0], &held, &error)) << error;
    const char *base = held.buffer->view().data();
    const size_t tail = big.size() - small.size();
    ASSERT_GT(resident(base + small.size(), tail), 20); // the big chunk's bytes, read
    source.release(list.chunks[0], &held, false);
    ASSERT_TRUE(source.acquire(list.chunks[1], &held, &error)) << error;
    ASSERT_EQ(held.buffer->view().data(), base); // reused
    EXPECT_TRUE(held.bytes == small);
    if (given_back)
      EXPECT_EQ(resident(base + small.size(), tail), 0);
    else
      EXPECT_GT(resident(base + small.size(), tail), 20);
    source.release(list.chunks[1], &held, false);
  }
}

TEST(JfrSource, AFileShorterThanWhenOpenedIsAnError) {
  const std::string bytes = read_file(fixture_path("java-shop/profiles/ap-multi.jfr"));
  TempDir dir;
  const std::string path = write(dir, bytes);
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    write(dir, bytes);
    RegularFile file;
    std::string error;
    ASSERT_EQ(file.open(path, &error, {}), ReadStatus::ok) << error;
    JfrSource source(file, nullptr, threads, 4096);
    const JfrChunkList list = source.chunks();
    ASSERT_EQ(list.chunks.size(), 1u);
    std::filesystem::resize_file(path, bytes.size() - 1000); // the chunk's second half ends early
    JfrSource::Held held;
    EXPECT_FALSE(source.acquire(list.chunks[0], &held, &error));
    EXPECT_EQ(error, "the file changed while it was read (it is shorter now)");
    EXPECT_FALSE(held.held());
  }
}

// What JfrPoolPages reads again: the chunk's own bytes at chunk offsets; nothing outside the
// chunk; after the file shrank, an error.
TEST(JfrSource, ReadsBytesOfAChunkAgain) {
  const std::string one = read_file(fixture_path("java-shop/profiles/ap-multi.jfr"));
  const std::string bytes = one + one;
  TempDir dir;
  FileSource f(dir, bytes);
  JfrSource &source = *f.source;
  ASSERT_EQ(f.list.chunks.size(), 2u);
  const JfrChunkHeader &c = f.list.chunks[1];
  std::string error;
  std::string got(5000, '\0');
  ASSERT_TRUE(source.reread(c, 1000, got.size(), got.data(), &error)) << error;
  EXPECT_EQ(got, bytes.substr(c.offset + 1000, got.size()));
  EXPECT_FALSE(source.reread(c, c.size - 10, 11, got.data(), &error));
  EXPECT_EQ(error, "no such bytes to read again");
  std::filesystem::resize_file(f.path, bytes.size() - 1000);
  EXPECT_FALSE(source.reread(c, c.size - 5000, 5000, got.data(), &error));
  EXPECT_EQ(error, "the file changed while it was read (it is shorter now)");
}

// Acquired with ranges to skip, a chunk's bytes are the file's but for the whole pages inside
// them, which are not read: in a buffer reused from another chunk, they hold its bytes.
TEST(JfrSource, ChunksAcquiredWithoutTheirSkippedPages) {
  const std::string first = read_file(fixture_path("java-shop/profiles/ap-multi.jfr"));
  const std::string second = read_file(fixture_path("java-shop/profiles/ap-cpu.jfr"));
  ASSERT_GT(first.size(), second.size()); // the buffer of the first holds the second
  TempDir dir;
  FileSource f(dir, first + second);
  JfrSource &source = *f.source;
  const JfrChunkList &list = f.list;
  ASSERT_EQ(list.chunks.size(), 2u);
  std::string error;
  JfrSource::Held held;
  ASSERT_TRUE(source.acquire(list.chunks[0], &held, &error)) << error;
  const char *const buffer = held.bytes.data();
  source.release(list.chunks[0], &held, false);
  const std::vector<JfrConstantPools::Range> skip = {{100, 30000}, {30000, 30100}, {50001, 90000}};
  ASSERT_TRUE(source.acquire(list.chunks[1], &held, &error, skip)) << error;
  ASSERT_EQ(held.bytes.data(), buffer);
  ASSERT_EQ(held.bytes.size(), second.size());
  size_t at = 0, skipped = 0;
  for (const JfrConstantPools::Range &r : skip) {
    size_t begin, end;
    JfrPoolPages::whole_pages(held.bytes.data(), held.bytes.size(), r, &begin, &end);
    if (begin == end) continue;
    EXPECT_EQ(held.bytes.substr(at, begin - at), std::string_view(second).substr(at, begin - at));
    EXPECT_EQ(held.bytes.substr(begin, end - begin),
              std::string_view(first).substr(begin, end - begin));
    skipped += end - begin;
    at = end;
  }
  EXPECT_EQ(held.bytes.substr(at), std::string_view(second).substr(at));
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_GE(skipped, 29900 + 39999 - 4 * page); // the first and third ranges' whole pages
  source.release(list.chunks[1], &held, false);
}

namespace {

// A source over three copies of a recording whose held limit lets one chunk in at a time, with
// chunk 0 held: `second` tries chunk 1 on another thread.
struct HeldSource {
  TempDir dir;
  RegularFile file;
  std::atomic<bool> cancel{false};
  std::unique_ptr<JfrSource> source;
  JfrChunkList list;
  JfrSource::Held first, second;
  std::atomic<bool> second_done{false};
  bool second_ok = false;
  std::string second_error;
  std::thread waiter;

  HeldSource() {
    const std::string one = read_file(fixture_path("java-shop/profiles/ap-multi.jfr"));
    const std::string path = write(dir, one + one + one);
    std::string error;
    EXPECT_EQ(file.open(path, &error, {}), ReadStatus::ok) << error;
    source = std::make_unique<JfrSource>(file, &cancel, 2, JfrSource::kSplitReadBytes, 1);
    list = source->chunks();
    EXPECT_EQ(list.chunks.size(), 3u);
    EXPECT_TRUE(source->acquire(list.chunks[0], &first, &error)) << error;
    waiter = std::thread([this] {
      second_ok = source->acquire(list.chunks[1], &second, &second_error);
      second_done = true;
    });
  }
  ~HeldSource() {
    if (waiter.joinable()) waiter.join();
  }
  // Whether the waiter is still waiting after a while.
  bool still_waiting() {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return !second_done;
  }
};

} // namespace

TEST(JfrSource, AChunkOverTheHeldLimitWaitsForTheOthersRelease) {
  HeldSource s;
  EXPECT_TRUE(s.still_waiting());
  s.source->release(s.list.chunks[0], &s.first, false);
  s.waiter.join();
  ASSERT_TRUE(s.second_ok) << s.second_error;
  EXPECT_EQ(s.second.bytes.size(), s.list.chunks[1].size);
  // Alone, a chunk over the limit is read at once; the buffer released is reused.
  s.source->release(s.list.chunks[1], &s.second, false);
  JfrSource::Held third;
  std::string error;
  EXPECT_TRUE(s.source->acquire(s.list.chunks[2], &third, &error)) << error;
}

TEST(JfrSource, AbandonOrCancelEndsTheWait) {
  for (bool cancel : {false, true}) {
    SCOPED_TRACE(cancel ? "cancel" : "abandon");
    HeldSource s;
    EXPECT_TRUE(s.still_waiting());
    if (cancel)
      s.cancel = true;
    else
      s.source->abandon();
    s.waiter.join();
    EXPECT_FALSE(s.second_ok);
    EXPECT_EQ(s.second_error, cancel ? "cancelled" : "stopped");
    EXPECT_FALSE(s.second.held());
  }
}
