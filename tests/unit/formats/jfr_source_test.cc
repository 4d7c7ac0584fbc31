// JfrSource on a file: each chunk's bytes are the file's, whether one thread reads a chunk or
// two read its halves, and a file that shrinks after it was opened is an error, never bytes
// from nowhere.
#include "formats/jfr_source.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::string write(const TempDir &dir, const std::string &bytes) {
  const std::string path = dir.file("recording.jfr");
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

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
