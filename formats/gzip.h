// gzip (and zlib) decompression with zlib, for .jfr.gz, .pb.gz and gzipped anything.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hotlines {

bool is_gzip(std::string_view data);
// Inflates every gzip member in `in` (concatenated members are one stream, as gunzip does).
// `limit` caps the output size. On failure returns false and sets `error` (with offset).
bool gunzip(std::string_view in, std::string *out, std::string *error,
            size_t limit = size_t(16) << 30);
// Compresses `in` as one gzip member.
std::string gzip_compress(std::string_view in, int level = 6);

} // namespace hotlines
