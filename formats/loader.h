// Loading a profile from bytes or a file: detects the format by content (gzip -> inflate and
// detect again, JFR magic, perf.data magic (read by running `perf script`), async-profiler HTML
// page, a V8 JSON profile (.cpuprofile, .heapprofile), text -> async-profiler text output, perf
// script output or collapsed, protobuf -> OTLP
// (looks_like_otlp) or pprof) and calls the matching reader.
#pragma once

#include "formats/load_result.h"

#include <string>
#include <string_view>

namespace hotlines {

enum class Format {
  unknown,
  jfr,
  pprof,
  collapsed,
  otlp,
  ap_html,
  ap_text,
  cpuprofile,
  heapprofile,
  perf_script,
  perf_data
};

std::string_view format_name(Format f);
// Detects the format of uncompressed data. `why` receives a description when unknown.
Format detect_format(std::string_view data, std::string *why = nullptr);
// Loads from bytes already in memory (gzip allowed, inflated within options.limits).
LoadResult load_profile_bytes(std::string_view data, const LoadOptions &options = {});
// Loads a file: a regular file, read into memory (never mapped: a file rewritten while it
// loads is a load error, not a crash) within options.limits; "-" reads stdin. A JFR file is
// read chunk by chunk into reused buffers, never whole. Running out of memory is a load error
// too. Errors name the path. A folder loads its V8 profiles as one (v8_profile_dir.h).
LoadResult load_profile_file(const std::string &path, const LoadOptions &options = {});

} // namespace hotlines
