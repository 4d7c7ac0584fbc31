// libFuzzer target for the readers of V8's JSON profiles (cpuprofile_reader.h,
// heapprofile_reader.h) and source maps (source_map.h): every input goes to all three. Source
// maps are not read from disk (LoadOptions::source_maps off). A profile that loads must satisfy
// check_valid(); a failure must say why and where (a byte offset).
#include "formats/cpuprofile_reader.h"
#include "formats/heapprofile_reader.h"
#include "formats/source_map.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace hotlines;

namespace {

void check(const char *reader, const LoadResult &r) {
  if (!r.ok()) {
    if (r.error.empty() || (r.error_offset < 0 && r.error.find("cancelled") == std::string::npos)) {
      fprintf(stderr, "v8_profiles_fuzzer: %s failed without a message or offset: %s\n", reader,
              r.error.c_str());
      abort();
    }
    return;
  }
  std::string invalid = r.profile->check_valid();
  if (!invalid.empty()) {
    fprintf(stderr, "v8_profiles_fuzzer: %s made an invalid model: %s\n", reader, invalid.c_str());
    abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  LoadOptions options;
  options.threads = 1;
  options.source_maps = false;
  options.limits.max_bytes = 64 << 20;
  check("the cpuprofile reader", read_cpuprofile(data, options));
  check("the heapprofile reader", read_heapprofile(data, options));
  SourceMap map;
  const std::string why = map.parse(data, "/");
  if (why.empty())
    for (int32_t line = 0; line < 4; line++)
      map.find(line, -1), map.find(line, 3), map.find_next(line, 0);
  return 0;
}
