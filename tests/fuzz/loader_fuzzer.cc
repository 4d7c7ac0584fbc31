// libFuzzer target for the loader: format detection by content, gzip inflation, and every
// reader it dispatches to (the collapsed reader above all; JFR, pprof and perf script have their
// own targets). A profile that loads must satisfy check_valid(); a failure must say why.
#include "formats/loader.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstdint>
#include <string>

using namespace hotlines;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  const LoadOptions options = fuzz_options();
  fuzz_check("loader_fuzzer", "the loader", load_profile_bytes(data, options), ErrorPlace::none);
  return 0;
}
