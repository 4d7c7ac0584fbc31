// libFuzzer target for the pprof reader and writer. Input: pprof bytes, gzipped or raw (gzip
// is inflated first, as the loader does). A profile that loads must satisfy check_valid(), and
// writing it and reading the result back must succeed with the same per-type totals. The
// custom mutator mutates gzipped inputs inside the gzip (then re-compresses), so the fixtures'
// .pprof.gz seeds reach the protobuf decoder instead of dying in the inflater.
#include "formats/gzip.h"
#include "formats/pprof_reader.h"
#include "formats/pprof_sample_types.h"
#include "formats/pprof_writer.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace hotlines;

namespace {

constexpr size_t kInflateLimit = size_t(64) << 20;

LoadLimits inflate_limits(size_t max_bytes) {
  LoadLimits l;
  l.max_bytes = max_bytes;
  return l;
}

[[noreturn]] void die(const char *what, const std::string &detail) {
  fprintf(stderr, "pprof_fuzzer: %s: %s\n", what, detail.c_str());
  abort();
}

std::vector<int64_t> type_totals(const Profile &p) {
  std::vector<int64_t> out;
  for (const PprofSampleType &t : pprof_sample_types(p)) {
    const Event &e = p.events[t.event];
    out.push_back(t.count ? e.total_count : e.total_value);
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                                          unsigned int seed) {
  std::string_view in(reinterpret_cast<const char *>(data), size);
  std::string raw, err;
  if (is_gzip(in) && seed % 4 != 0 && gunzip(in, &raw, &err, inflate_limits(1 << 20))) {
    size_t n = raw.size();
    raw.resize(std::max<size_t>(n * 2, 4096));
    n = LLVMFuzzerMutate(reinterpret_cast<uint8_t *>(raw.data()), n, raw.size());
    std::string gz = gzip_compress(std::string_view(raw.data(), n), 1);
    if (gz.size() <= max_size) {
      memcpy(data, gz.data(), gz.size());
      return gz.size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  std::string inflated, err;
  if (is_gzip(data)) {
    if (!gunzip(data, &inflated, &err, inflate_limits(kInflateLimit))) return 0;
    data = inflated;
  }
  LoadResult r = read_pprof(data);
  if (!r.ok()) {
    if (r.error.empty()) die("failure without a message", "");
    return 0;
  }
  const Profile &p = *r.profile;
  std::string invalid = p.check_valid();
  if (!invalid.empty()) die("invalid model", invalid);

  std::string werr;
  std::string written = write_pprof(p, {}, &werr);
  if (!werr.empty()) die("writer failed", werr);
  std::string again_raw;
  if (!gunzip(written, &again_raw, &err)) die("writer output does not inflate", err);
  LoadResult again = read_pprof(again_raw);
  if (!again.ok()) die("writer output does not load", again.describe());
  invalid = again.profile->check_valid();
  if (!invalid.empty()) die("invalid model after a round trip", invalid);
  if (type_totals(p) != type_totals(*again.profile)) die("totals differ after a round trip", "");
  return 0;
}
