// libFuzzer target for the readers of async-profiler's HTML pages (ap_html_reader.h) and text
// output (ap_text_reader.h): every input goes to both. A profile that loads must satisfy
// check_valid(); a failure must say why and on which line.
#include "formats/ap_html_reader.h"
#include "formats/ap_text_reader.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace hotlines;

namespace {

void check(const char *reader, const LoadResult &r) {
  if (!r.ok()) {
    if (r.error.empty() || r.error_line < 1) {
      fprintf(stderr, "ap_outputs_fuzzer: %s failed without a message or line: %s\n", reader,
              r.error.c_str());
      abort();
    }
    return;
  }
  std::string invalid = r.profile->check_valid();
  if (!invalid.empty()) {
    fprintf(stderr, "ap_outputs_fuzzer: %s made an invalid model: %s\n", reader, invalid.c_str());
    abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  LoadOptions options;
  options.threads = 1;
  options.limits.max_bytes = 64 << 20; // within the fuzzer's memory limit
  check("the HTML reader", read_ap_html(data, options));
  check("the text reader", read_ap_text(data, options));
  return 0;
}
