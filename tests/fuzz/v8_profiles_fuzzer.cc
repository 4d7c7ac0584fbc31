// libFuzzer target for the readers of V8's JSON profiles (cpuprofile_reader.h,
// heapprofile_reader.h) and source maps (source_map.h): every input goes to all three. Source
// maps are not read from disk (LoadOptions::source_maps off). A profile that loads must satisfy
// check_valid(); a failure must say why and where (a byte offset).
#include "formats/cpuprofile_reader.h"
#include "formats/heapprofile_reader.h"
#include "formats/source_map.h"
#include "tests/fuzz/fuzz_check.h"

#include <cstdint>
#include <string>

using namespace hotlines;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  const LoadOptions options = fuzz_options();
  fuzz_check("v8_profiles_fuzzer", "the cpuprofile reader", read_cpuprofile(data, options),
             ErrorPlace::offset);
  fuzz_check("v8_profiles_fuzzer", "the heapprofile reader", read_heapprofile(data, options),
             ErrorPlace::offset);
  SourceMap map;
  const std::string why = map.parse(data, "/");
  if (why.empty())
    for (int32_t line = 0; line < 4; line++)
      map.find(line, -1), map.find(line, 3), map.find_next(line, 0);
  return 0;
}
