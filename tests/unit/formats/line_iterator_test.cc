// The line iterator every text reader uses: the same lines and line numbers from a text in
// memory and from the same text streamed in chunks of every size (lines cut at chunk ends are
// carried over), a byte order mark skipped, peek, cancel and progress polled every 64Ki lines;
// and the perf script reader gives the same profile from a streamed text as from memory.
#include "formats/line_iterator.h"
#include "formats/perf_script_reader.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace hotlines;

namespace {

std::vector<std::string> all_lines(LineIterator &it) {
  std::vector<std::string> out;
  std::string_view line;
  while (it.next(&line)) out.push_back(std::to_string(it.line_no()) + ":" + std::string(line));
  return out;
}

// `text` in chunks of `size` bytes.
LineIterator::Source chunks(std::string_view text, size_t size) {
  return [text, size, at = size_t(0)](std::string *buf) mutable {
    if (at >= text.size()) return false;
    buf->append(text.substr(at, size));
    at += size;
    return true;
  };
}

} // namespace

TEST(LineIterator, SameLinesInMemoryAndStreamedInAnyChunks) {
  const std::string text = "\xEF\xBB\xBF"
                           "first\r\n\nthird line\nlast without newline";
  const std::vector<std::string> expected = {"1:first\r", "2:", "3:third line",
                                             "4:last without newline"};
  LoadOptions o;
  LineIterator memory(text, o);
  EXPECT_EQ(all_lines(memory), expected);
  for (size_t size = 1; size <= text.size(); size++) {
    LineIterator streamed(chunks(text, size), o);
    EXPECT_EQ(all_lines(streamed), expected) << "chunks of " << size;
  }
  LineIterator empty("", o), newline("\n", o);
  EXPECT_EQ(all_lines(empty), std::vector<std::string>{});
  EXPECT_EQ(all_lines(newline), std::vector<std::string>{"1:"});
}

TEST(LineIterator, PeekDoesNotTake) {
  LoadOptions o;
  LineIterator it(chunks("a\nbb\n", 1), o);
  std::string_view line;
  ASSERT_TRUE(it.peek(&line));
  EXPECT_EQ(line, "a");
  EXPECT_EQ(it.line_no(), 0);
  ASSERT_TRUE(it.next(&line));
  EXPECT_EQ(line, "a");
  ASSERT_TRUE(it.peek(&line));
  EXPECT_EQ(line, "bb");
  ASSERT_TRUE(it.next(&line));
  EXPECT_EQ(line, "bb");
  EXPECT_EQ(it.line_no(), 2);
  EXPECT_FALSE(it.peek(&line));
  EXPECT_FALSE(it.next(&line));
}

TEST(LineIterator, CancelAndProgressEvery64KiLines) {
  std::string text;
  for (int i = 0; i < 200000; i++) text += "x\n";
  std::vector<double> progress;
  LoadOptions o;
  o.progress = [&](double f) { progress.push_back(f); };
  LineIterator it(text, o);
  EXPECT_EQ(all_lines(it).size(), 200000u);
  EXPECT_FALSE(it.cancelled());
  // Before lines 65536, 131072 and 196608: the part of the text read.
  ASSERT_EQ(progress.size(), 3u);
  EXPECT_DOUBLE_EQ(progress[0], 65535.0 * 2 / text.size());
  EXPECT_DOUBLE_EQ(progress[2], 196607.0 * 2 / text.size());

  std::atomic<bool> cancel{true};
  o.cancel = &cancel;
  LineIterator stopped(chunks(text, 4096), o);
  EXPECT_EQ(all_lines(stopped).size(), 65535u);
  EXPECT_TRUE(stopped.cancelled());
}

TEST(LineIterator, PerfScriptStreamedIsTheSameProfile) {
  const std::string text =
      test::read_file(test::fixture_path("native-shop/profiles/shop-perf-script.txt"));
  LoadOptions o;
  LoadResult memory = read_perf_script(text, o);
  ASSERT_TRUE(memory.ok()) << memory.describe();
  for (size_t size : {size_t(1) << 12, size_t(7919)}) {
    LineIterator it(chunks(text, size), o);
    LoadResult streamed = read_perf_script(it, o, nullptr);
    ASSERT_TRUE(streamed.ok()) << streamed.describe();
    EXPECT_EQ(streamed.profile->events[0].total_count, memory.profile->events[0].total_count);
    EXPECT_EQ(streamed.profile->events[0].total_value, memory.profile->events[0].total_value);
    EXPECT_EQ(streamed.profile->frames.size(), memory.profile->frames.size());
    EXPECT_EQ(streamed.profile->stack_frame, memory.profile->stack_frame);
    EXPECT_EQ(streamed.profile->metadata.producer, memory.profile->metadata.producer);
  }
}

// A streamed perf script text: progress is how far the samples' times are between the first
// and last sample times of its header.
TEST(LineIterator, PerfScriptStreamedProgressByTime) {
  std::string text = "# time of first sample : 10.000000\n# time of last sample : 14.000000\n";
  for (int i = 0; i < 70000; i++)
    text += "shop 1/1 " + std::string(i < 65530 ? "11" : "13") +
            ".000000: 1 cpu-clock: 10 main+0x1 (/a)\n";
  std::vector<double> progress;
  LoadOptions o;
  o.progress = [&](double f) { progress.push_back(f); };
  LineIterator it(chunks(text, 65536), o);
  LoadResult r = read_perf_script(it, o, nullptr);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_count, 70000);
  // Polled before line 65536, the 65534th sample's (time 13 of 10..14).
  EXPECT_EQ(progress, std::vector<double>{0.75});
}
