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
  LoadOptions options;
  options.threads = 1;
  options.limits.max_bytes = 64 << 20; // within the fuzzer's memory limit
  options.source_maps = false;         // a fuzzer reads no files the input names
  options.run_tools = false;           // no `perf script` on a PERFILE2 input
  fuzz_check("loader_fuzzer", "the loader", load_profile_bytes(data, options), ErrorPlace::none);
  return 0;
}
