// gzip via zlib (see gzip.h).
#include "formats/gzip.h"

#include <zlib.h>

namespace hotlines {

bool is_gzip(std::string_view d) {
  return d.size() >= 2 && static_cast<unsigned char>(d[0]) == 0x1f &&
         static_cast<unsigned char>(d[1]) == 0x8b;
}

bool gunzip(std::string_view in, std::string *out, std::string *error, size_t limit) {
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
      if (out->size() > limit) {
        *error = "gzip: inflated size exceeds the limit of " + std::to_string(limit) + " bytes";
        inflateEnd(&zs);
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
