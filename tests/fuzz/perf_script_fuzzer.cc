// libFuzzer target for the perf script reader (perf_script_reader.h) and the name demangler it
// uses (native_names.h). A profile that loads must satisfy check_valid(); a failure must say
// why and on which line.
#include "formats/native_names.h"
#include "formats/perf_script_reader.h"

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
  options.run_tools = false;
  (void)looks_like_perf_script(data);
  LoadResult r = read_perf_script(data, options);
  if (!r.ok()) {
    if (r.error.empty() || r.error_line < 1) {
      fprintf(stderr, "perf_script_fuzzer: failed without a message or line: %s\n",
              r.error.c_str());
      abort();
    }
  } else {
    std::string invalid = r.profile->check_valid();
    if (!invalid.empty()) {
      fprintf(stderr, "perf_script_fuzzer: invalid model: %s\n", invalid.c_str());
      abort();
    }
  }
  if (size < 512) (void)demangle_native(data);
  return 0;
}
