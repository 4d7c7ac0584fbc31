// Format detection and dispatch to the readers (see loader.h).
#include "formats/loader.h"

#include "formats/ap_html_reader.h"
#include "formats/ap_text_reader.h"
#include "formats/collapsed_reader.h"
#include "formats/cpuprofile_reader.h"
#include "formats/file_reader.h"
#include "formats/gzip.h"
#include "formats/heapprofile_reader.h"
#include "formats/jfr_reader.h"
#include "formats/otlp_reader.h"
#include "formats/perf_data_reader.h"
#include "formats/perf_script_reader.h"
#include "formats/pprof_reader.h"
#include "formats/v8_profile_dir.h"

#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>

namespace hotlines {

std::string LoadResult::describe() const {
  std::string s = error;
  if (error_line >= 0)
    s += " (line " + std::to_string(error_line) + ")";
  else if (error_offset >= 0)
    s += " (at byte " + std::to_string(error_offset) + ")";
  return s;
}

std::string_view format_name(Format f) {
  switch (f) {
  case Format::jfr:
    return "jfr";
  case Format::pprof:
    return "pprof";
  case Format::collapsed:
    return "collapsed";
  case Format::otlp:
    return "otlp";
  case Format::ap_html:
    return "async-profiler-html";
  case Format::ap_text:
    return "async-profiler-text";
  case Format::cpuprofile:
    return "cpuprofile";
  case Format::heapprofile:
    return "heapprofile";
  case Format::perf_script:
    return "perf-script";
  case Format::perf_data:
    return "perf-data";
  case Format::unknown:
    break;
  }
  return "unknown";
}

namespace {

// Walks the first top-level protobuf fields: every tag must have a known wire type and a
// field number of profile.proto (1..15, 15 = doc_url), and every length must fit.
bool looks_like_protobuf(std::string_view d) {
  size_t pos = 0;
  int fields = 0;
  auto varint = [&](uint64_t *v) {
    *v = 0;
    for (int shift = 0; shift < 64 && pos < d.size(); shift += 7) {
      uint8_t b = static_cast<uint8_t>(d[pos++]);
      *v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  while (pos < d.size() && fields < 32) {
    uint64_t tag;
    if (!varint(&tag)) return false;
    uint64_t field = tag >> 3, wire = tag & 7;
    if (field < 1 || field > 15) return false;
    uint64_t v;
    if (wire == 0) {
      if (!varint(&v)) return false;
    } else if (wire == 2) {
      if (!varint(&v) || v > d.size() - pos) return false;
      pos += v;
    } else {
      return false;
    }
    fields++;
  }
  return fields > 0;
}

// Text: no NUL bytes and almost no control characters in the first 64 KiB.
bool looks_like_text(std::string_view d) {
  size_t n = std::min<size_t>(d.size(), 1 << 16), bad = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = static_cast<unsigned char>(d[i]);
    if (c == 0) return false;
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') bad++;
  }
  return bad * 100 <= n;
}

std::string hex_prefix(std::string_view d) {
  std::string s;
  char buf[8];
  for (size_t i = 0; i < std::min<size_t>(d.size(), 8); i++) {
    snprintf(buf, sizeof buf, "%s%02x", i ? " " : "", static_cast<unsigned char>(d[i]));
    s += buf;
  }
  return s;
}

} // namespace

Format detect_format(std::string_view d, std::string *why) {
  if (d.size() >= 4 && std::memcmp(d.data(), "FLR\0", 4) == 0) return Format::jfr;
  if (is_perf_data(d)) return Format::perf_data;
  // Before the text test: a heatmap page inlines its data as control characters.
  if (looks_like_html(d)) return Format::ap_html;
  // JSON is text: V8's profiles are told apart before collapsed stacks.
  if (const V8ProfileKind v8 = v8_profile_kind(d); v8 != V8ProfileKind::none)
    return v8 == V8ProfileKind::cpu ? Format::cpuprofile : Format::heapprofile;
  if (looks_like_text(d)) {
    if (looks_like_ap_text(d)) return Format::ap_text;
    if (looks_like_perf_script(d)) return Format::perf_script;
    return Format::collapsed;
  }
  if (looks_like_otlp(d)) return Format::otlp;
  if (looks_like_protobuf(d)) return Format::pprof;
  if (why)
    *why = "unrecognized binary data (first bytes: " + hex_prefix(d) +
           "); expected JFR, pprof or OTLP (protobuf), perf.data, gzip, a V8 .cpuprofile or "
           ".heapprofile, or text (collapsed stacks, perf script, async-profiler)";
  return Format::unknown;
}

namespace {

LoadResult load_bytes(std::string_view data, const LoadOptions &options) {
  std::string inflated;
  bool was_gzip = false;
  if (is_gzip(data)) {
    std::string err;
    if (!gunzip(data, &inflated, &err, options.limits, options.cancel))
      return LoadResult::failure(err);
    data = inflated;
    was_gzip = true;
  }
  if (data.empty()) return LoadResult::failure("empty input: no profile data", 0);
  std::string why;
  Format f = detect_format(data, &why);
  LoadResult r;
  switch (f) {
  case Format::jfr:
    r = read_jfr(data, options);
    break;
  case Format::pprof:
    r = read_pprof(data, options);
    break;
  case Format::collapsed:
    r = read_collapsed(data, options);
    break;
  case Format::otlp:
    r = read_otlp(data, options);
    break;
  case Format::ap_html:
    r = read_ap_html(data, options);
    break;
  case Format::ap_text:
    r = read_ap_text(data, options);
    break;
  case Format::cpuprofile:
    r = read_cpuprofile(data, options);
    break;
  case Format::heapprofile:
    r = read_heapprofile(data, options);
    break;
  case Format::perf_script:
    r = read_perf_script(data, options);
    break;
  case Format::perf_data:
    r = read_perf_data(data, options);
    break;
  case Format::unknown:
    return LoadResult::failure(why, 0);
  }
  if (!r.ok() && was_gzip && r.error_offset >= 0) r.error += " (offset in the inflated data)";
  return r;
}

// Runs a load, turning running out of memory (a huge or hostile file) into a load error:
// readers never throw, but allocations can.
template <typename F> LoadResult guarded(F &&load) {
  try {
    return load();
  } catch (const std::bad_alloc &) {
    return LoadResult::failure("out of memory while loading the profile");
  } catch (const std::length_error &) {
    return LoadResult::failure("out of memory while loading the profile (data too large)");
  }
}

} // namespace

LoadResult load_profile_bytes(std::string_view data, const LoadOptions &options) {
  return guarded([&] { return load_bytes(data, options); });
}

LoadResult load_profile_file(const std::string &path, const LoadOptions &options) {
  return guarded([&] {
    // Into memory, not mapped: a profiler rewriting the file while we read it must give us
    // short or mixed data (a load error), never SIGBUS.
    FileBytes bytes;
    std::string err;
    ReadFileOptions ro;
    ro.max_bytes = options.limits.max_bytes;
    ro.raise_hint = options.limits.bytes_hint;
    ro.cancel = options.cancel;
    ro.dash_is_stdin = true;
    auto failed = [&](ReadStatus st) {
      return st == ReadStatus::cancelled ? LoadResult::failure("cancelled")
                                         : LoadResult::failure("cannot read " + path + ": " + err);
    };
    LoadResult r;
    if (path != "-" && is_directory(path)) {
      return load_v8_profile_dir(path, options); // its errors name the folder or the file
    }
    if (path == "-") {
      const ReadStatus st = read_regular_file(path, &bytes, &err, ro);
      if (st != ReadStatus::ok) return failed(st);
    } else {
      RegularFile file;
      ReadStatus st = file.open(path, &err, ro);
      if (st != ReadStatus::ok) return failed(st);
      // JFR is read chunk by chunk into reused buffers; perf.data goes to `perf script` by its
      // path; other formats are read whole.
      char magic[8] = {};
      const size_t n = static_cast<size_t>(std::min<uint64_t>(file.size(), sizeof magic));
      if ((st = file.read_at(0, n, magic, &err, options.cancel)) != ReadStatus::ok)
        return failed(st);
      const Format f = detect_format({magic, n});
      if (n >= 4 && f == Format::jfr) {
        r = read_jfr_file(file, options);
      } else if (f == Format::perf_data) {
        r = read_perf_data_file(path, options);
      } else {
        if (!bytes.reserve(static_cast<size_t>(file.size())))
          return LoadResult::failure("cannot read " + path + ": out of memory reading " +
                                     std::to_string(file.size()) + " bytes");
        const size_t size = static_cast<size_t>(file.size());
        if ((st = file.read_at(0, size, bytes.append_space(size), &err, options.cancel)) !=
            ReadStatus::ok)
          return failed(st);
        bytes.appended(size);
      }
    }
    if (!r.ok() && r.error.empty()) {
      LoadOptions own = options;
      own.discard_input = true; // nothing reads `bytes` after the load
      r = load_bytes(bytes.view(), own);
    }
    if (!r.ok()) r.error = path + ": " + r.error;
    return r;
  });
}

} // namespace hotlines
