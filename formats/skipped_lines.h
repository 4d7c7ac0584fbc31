// The malformed lines a text reader skips (collapsed stacks, perf script): how many, and the
// first one's number, text and reason, for the load warning, or for the error when no line was
// valid. Plain data; one per reader.
#pragma once

#include "formats/load_result.h"
#include "formats/profile_builder.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace hotlines {

struct SkippedLines {
  int64_t count = 0, first_line = -1;
  std::string first_text, first_reason;

  // Counts line `line_no` (1-based), keeping it when it is the first.
  void add(int64_t line_no, std::string_view text, std::string_view why);
  // "skipped N malformed line(s); first at line L (why): 'text'", when any was skipped.
  void warn(ProfileBuilder &b) const;
  // "no valid WHAT (why: 'text')" at the first skipped line.
  LoadResult failure(std::string_view what) const;
};

} // namespace hotlines
