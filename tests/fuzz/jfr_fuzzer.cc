// libFuzzer target for the JFR reader: any bytes must give a profile that passes
// check_valid() or an error with an offset inside the input — never a crash, a hang, a leak
// or an allocation sized by an untrusted field (ASan's allocation limits catch those).
// Seeds: tests/fuzz/jfr_fuzzer.seeds. Built with -DHOTLINES_FUZZ=ON and clang.
#include "formats/jfr_reader.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char *>(data), size);
  hotlines::LoadOptions options;
  options.threads = size % 5 == 0 ? 2 : 1; // the parallel path too, now and then
  // A one-query command's load (samples merged per stack) now and then.
  if (size % 3 == 0) {
    options.sample_threads = options.sample_times = false;
    options.merge_samples = true;
  }
  // Stack traces read first, in file order, in windows (a big one-pool chunk's way) now and
  // then, with small slices so that a pool makes several windows.
  if (size % 7 < 2) {
    options.jfr_stacks_in_file_order = true;
    options.jfr_slice_bytes = 256;
  }
  hotlines::LoadResult r = hotlines::read_jfr(bytes, options);
  if (r.ok()) {
    const std::string problem = r.profile->check_valid();
    if (!problem.empty()) {
      fprintf(stderr, "invalid profile: %s\n", problem.c_str());
      abort();
    }
    for (const hotlines::LoadWarning &w : r.profile->metadata.warnings)
      if (w.offset > static_cast<int64_t>(size)) abort();
  } else if (r.error.empty() || r.error_offset < -1 ||
             r.error_offset > static_cast<int64_t>(size)) {
    fprintf(stderr, "bad error: '%s' at %lld\n", r.error.c_str(),
            static_cast<long long>(r.error_offset));
    abort();
  }
  return 0;
}
