// libFuzzer target for the JFR reader: any bytes must give a profile that passes
// check_valid() or an error with an offset inside the input — never a crash, a hang, a leak
// or an allocation sized by an untrusted field (ASan's allocation limits catch those).
// Seeds: tests/fuzz/jfr_fuzzer.seeds. Built with -DHOTLINES_FUZZ=ON and clang.
#include "formats/file_reader.h"
#include "formats/jfr_reader.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

// The bytes read from a file (a chunk's checkpoint read as its pools are indexed, the
// stack-trace pages given back and read again: the way of a big async-profiler chunk).
hotlines::LoadResult load_from_file(std::string_view bytes, hotlines::LoadOptions options) {
  char path[] = "/tmp/jfr_fuzzer_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) abort();
  if (write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) abort();
  close(fd);
  options.jfr_read_checkpoints_later = true;
  hotlines::RegularFile file;
  std::string error;
  if (file.open(path, &error, {}) != hotlines::ReadStatus::ok) abort();
  unlink(path);
  return hotlines::read_jfr_file(file, options);
}

} // namespace

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
  // then, with small slices so that a pool makes several windows; half of those load only the
  // default event, whose windows resolve only the stack traces of its samples.
  if (size % 7 < 2) {
    options.jfr_stacks_in_file_order = true;
    options.jfr_slice_bytes = 256;
    if (size % 2 == 0) options.only_event = "";
  }
  // Now and then from a file whose checkpoints are read as their pools are indexed.
  const bool from_file = size % 11 < 2;
  if (from_file) options.jfr_slice_bytes = 256;
  hotlines::LoadResult r =
      from_file ? load_from_file(bytes, options) : hotlines::read_jfr(bytes, options);
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
