// libFuzzer target for the loader: format detection by content, gzip inflation, and every
// reader it dispatches to (the collapsed reader above all; JFR, pprof and perf script have their
// own targets). A profile that loads must satisfy check_valid(); a failure must say why.
#include "formats/loader.h"

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
  options.source_maps = false;         // a fuzzer reads no files the input names
  options.run_tools = false;           // no `perf script` on a PERFILE2 input
  LoadResult r = load_profile_bytes(data, options);
  if (!r.ok()) {
    if (r.error.empty()) {
      fprintf(stderr, "loader_fuzzer: a failure without a message\n");
      abort();
    }
    return 0;
  }
  std::string invalid = r.profile->check_valid();
  if (!invalid.empty()) {
    fprintf(stderr, "loader_fuzzer: invalid model: %s\n", invalid.c_str());
    abort();
  }
  return 0;
}
