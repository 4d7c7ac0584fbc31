// libFuzzer target for the OTLP reader and writer. Input: OTLP profiles bytes (raw protobuf;
// the fixtures async-profiler wrote are the seeds). A profile that loads must satisfy
// check_valid(), and writing it as OTLP and reading that back must succeed with the same
// per-event totals. Anything else must fail with a message, never crash or hang.
#include "formats/otlp_reader.h"
#include "formats/otlp_writer.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace hotlines;

namespace {

[[noreturn]] void die(const char *what, const std::string &detail) {
  fprintf(stderr, "otlp_fuzzer: %s: %s\n", what, detail.c_str());
  abort();
}

// Per event (count, value) totals, sorted: names may change (a type read as another event's
// name is written under that name).
std::vector<std::pair<int64_t, int64_t>> totals(const Profile &p) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const Event &e : p.events) out.push_back({e.total_count, e.total_value});
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view data(reinterpret_cast<const char *>(bytes), size);
  LoadResult r = read_otlp(data);
  if (!r.ok()) {
    if (r.error.empty()) die("failure without a message", "");
    return 0;
  }
  const Profile &p = *r.profile;
  std::string invalid = p.check_valid();
  if (!invalid.empty()) die("invalid model", invalid);

  std::string werr;
  std::string written = write_otlp(p, {}, &werr);
  if (!werr.empty()) die("writer failed", werr);
  LoadResult again = read_otlp(written);
  if (!again.ok()) die("writer output does not load", again.describe());
  invalid = again.profile->check_valid();
  if (!invalid.empty()) die("invalid model after a round trip", invalid);
  if (totals(p) != totals(*again.profile)) die("totals differ after a round trip", "");
  return 0;
}
