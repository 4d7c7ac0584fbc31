// The lines of a text, whole in memory or arriving in chunks (a child's output read as it is
// printed, so that the text is never held whole): the loop of every text reader (collapsed
// stacks, perf script, async-profiler text), with the polling of options.cancel and
// options.progress every 64Ki lines. A line ends at '\n' (not part of it); a UTF-8 byte order
// mark before the first line is skipped; a streamed line cut at a chunk's end is carried over
// to the next chunk. One thread uses an iterator; it calls its source on that thread.
#pragma once

#include "formats/load_result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace hotlines {

class LineIterator {
public:
  // Appends the next bytes of a streamed text to `*buf` (waiting for them); false at its end
  // (or when it stopped: cancelled, over a limit; the source says why).
  using Source = std::function<bool(std::string *buf)>;

  // The text, which must outlive the iterator; progress is the part of it read.
  LineIterator(std::string_view text, const LoadOptions &options);
  // A streamed text; progress comes from set_progress (none until then).
  LineIterator(Source source, const LoadOptions &options);

  // The next line, valid until the next call of next or peek; false at the end of the text or
  // once options.cancel is seen set (then cancelled() is true).
  bool next(std::string_view *line);
  // The line next would return, without taking it.
  bool peek(std::string_view *line);
  // The 1-based number of the last line next returned (0 before the first).
  int64_t line_no() const { return line_no_; }
  bool cancelled() const { return cancelled_; }
  // Where a streamed text's progress comes from (the reader knows, e.g. by its timestamps):
  // a fraction 0..1, asked at each poll.
  void set_progress(std::function<double()> fraction) { fraction_ = std::move(fraction); }

private:
  bool find_line();

  const LoadOptions &options_;
  Source source_;                // empty for a text in memory
  std::string buf_;              // a streamed text's unread bytes
  std::string_view text_;        // the text in memory, or buf_
  size_t pos_ = 0, scanned_ = 0; // start of the next line; how far '\n' was looked for
  size_t line_end_ = 0;          // with have_line_: the end of the line at pos_
  bool have_line_ = false, ended_ = false, cancelled_ = false, bom_checked_ = false;
  int64_t line_no_ = 0;
  std::function<double()> fraction_;
};

} // namespace hotlines
