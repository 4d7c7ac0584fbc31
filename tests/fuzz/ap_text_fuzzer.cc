// libFuzzer target for the async-profiler text reader (ap_text_reader.h). A page that
// loads must satisfy check_valid(); a failure must say why and on which line.
#include "formats/ap_text_reader.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace hotlines;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  LoadOptions options;
  options.threads = 1;
  options.limits.max_bytes = 64 << 20; // within the fuzzer's memory limit
  LoadResult r = read_ap_text(data, options);
  if (!r.ok()) {
    if (r.error.empty() || r.error_line < 1) {
      fprintf(stderr, "ap_text_fuzzer: a failure without a message or line: %s\n", r.error.c_str());
      abort();
    }
    return 0;
  }
  std::string invalid = r.profile->check_valid();
  if (!invalid.empty()) {
    fprintf(stderr, "ap_text_fuzzer: invalid model: %s\n", invalid.c_str());
    abort();
  }
  return 0;
}
