// gzip via zlib (see gzip.h).
#include "formats/gzip.h"

#include "formats/file_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>

namespace hotlines {

bool is_gzip(std::string_view d) {
  return d.size() >= 2 && static_cast<unsigned char>(d[0]) == 0x1f &&
         static_cast<unsigned char>(d[1]) == 0x8b;
}

namespace {

// The error for output past a limit, or "" while within them.
std::string over_limit(size_t out, size_t in, const LoadLimits &l) {
  auto hint = [](const std::string &h) -> std::string {
    return h.empty() ? "" : " (raise it with " + h + ")";
  };
  if (out > l.max_bytes)
    return "gzip: inflated size exceeds the limit of " + byte_limit_text(l.max_bytes) +
           hint(l.bytes_hint);
  if (l.max_inflate_ratio > 0 && out > l.ratio_floor &&
      static_cast<double>(out) > l.max_inflate_ratio * static_cast<double>(in)) {
    char ratio[32];
    snprintf(ratio, sizeof ratio, "%g", l.max_inflate_ratio);
    return "gzip: inflated size passes " + std::string(ratio) + " times the compressed size of " +
           std::to_string(in) + " bytes, the inflate ratio limit (a gzip bomb?)" +
           hint(l.ratio_hint);
  }
  return "";
}

} // namespace

bool gunzip(std::string_view in, std::string *out, std::string *error, const LoadLimits &limits,
            const std::atomic<bool> *cancel) {
  out->clear();
  size_t pos = 0;
  while (pos < in.size()) {
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
      *error = "gzip: cannot initialise zlib";
      return false;
    }
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data() + pos));
    zs.avail_in = static_cast<uInt>(std::min<size_t>(in.size() - pos, UINT32_MAX));
    int rc = Z_OK;
    char buf[1 << 16];
    while (rc != Z_STREAM_END) {
      zs.next_out = reinterpret_cast<Bytef *>(buf);
      zs.avail_out = sizeof buf;
      rc = inflate(&zs, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END) {
        size_t at = pos + zs.total_in;
        bool truncated = rc == Z_BUF_ERROR;
        *error = std::string(truncated ? "gzip: truncated data" : "gzip: corrupt data") +
                 (zs.msg ? std::string(" (") + zs.msg + ")" : "") + " at compressed byte " +
                 std::to_string(at);
        inflateEnd(&zs);
        return false;
      }
      out->append(buf, sizeof buf - zs.avail_out);
      std::string over = over_limit(out->size(), in.size(), limits);
      if (over.empty() && cancel && cancel->load(std::memory_order_relaxed)) over = "cancelled";
      if (!over.empty()) {
        *error = std::move(over);
        inflateEnd(&zs);
        out->clear();
        return false;
      }
    }
    pos += zs.total_in;
    inflateEnd(&zs);
    // Another member may follow; trailing zero padding is ignored as gunzip does.
    if (!is_gzip(in.substr(pos))) break;
  }
  return true;
}

std::string gzip_compress(std::string_view in, int level) {
  z_stream zs{};
  deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out;
  out.resize(deflateBound(&zs, in.size()) + 32);
  zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef *>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

} // namespace hotlines
