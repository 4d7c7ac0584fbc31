// What every reader's fuzz target asserts of one LoadResult: a profile that loads satisfies
// Profile::check_valid(); a failure has a message and says where the input went wrong (a line
// for text readers, a byte offset for the others). Anything else aborts with the target's and
// the reader's names, which is how libFuzzer records a finding. fuzz_options() is what the
// targets load with. Single-threaded, as a target is.
#pragma once

#include "formats/load_result.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace hotlines {

// The options a reader's target loads with: one thread (libFuzzer runs one input at a time),
// at most 64 MiB of profile (within the fuzzer's memory limit), no file the input names read
// (source maps) and no tool run on it (`perf script` on a PERFILE2 input).
inline LoadOptions fuzz_options() {
  LoadOptions options;
  options.threads = 1;
  options.limits.max_bytes = 64 << 20;
  options.source_maps = false;
  options.run_tools = false;
  return options;
}

enum class ErrorPlace { none, line, offset };

inline void fuzz_check(const char *target, const char *reader, const LoadResult &r,
                       ErrorPlace place) {
  if (!r.ok()) {
    bool placed = place == ErrorPlace::none || (place == ErrorPlace::line && r.error_line >= 1) ||
                  (place == ErrorPlace::offset &&
                   (r.error_offset >= 0 || r.error.find("cancelled") != std::string::npos));
    if (r.error.empty() || !placed) {
      fprintf(stderr, "%s: %s failed without a message or where: %s\n", target, reader,
              r.error.c_str());
      abort();
    }
    return;
  }
  const std::string invalid = r.profile->check_valid();
  if (!invalid.empty()) {
    fprintf(stderr, "%s: %s made an invalid model: %s\n", target, reader, invalid.c_str());
    abort();
  }
}

} // namespace hotlines
