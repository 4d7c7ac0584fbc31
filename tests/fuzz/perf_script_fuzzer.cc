// libFuzzer target for the perf script reader (perf_script_reader.h) and the name demangler it
// uses (native_names.h). A profile that loads must satisfy check_valid(); a failure must say
// why and on which line.
#include "formats/native_names.h"
#include "formats/perf_script_reader.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstdint>
#include <string>

using namespace hotlines;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  const LoadOptions options = fuzz_options();
  (void)looks_like_perf_script(data);
  fuzz_check("perf_script_fuzzer", "the perf script reader", read_perf_script(data, options),
             ErrorPlace::line);
  if (size < 512) (void)demangle_native(data);
  return 0;
}
