// libFuzzer target for the readers of async-profiler's HTML pages (ap_html_reader.h) and text
// output (ap_text_reader.h): every input goes to both. A profile that loads must satisfy
// check_valid(); a failure must say why and on which line.
#include "formats/ap_html_reader.h"
#include "formats/ap_text_reader.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstdint>
#include <string>

using namespace hotlines;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  const LoadOptions options = fuzz_options();
  fuzz_check("ap_outputs_fuzzer", "the HTML reader", read_ap_html(data, options), ErrorPlace::line);
  fuzz_check("ap_outputs_fuzzer", "the text reader", read_ap_text(data, options), ErrorPlace::line);
  return 0;
}
