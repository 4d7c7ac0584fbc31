// gzip (and zlib) decompression with zlib, for .jfr.gz, .pb.gz and gzipped anything.
#pragma once

#include "formats/load_result.h"

#include <atomic>
#include <cstddef>
#include <string>
#include <string_view>

namespace hotlines {

bool is_gzip(std::string_view data);
// Inflates every gzip member in `in` (concatenated members are one stream, as gunzip does).
// `limits` caps the output size (max_bytes) and the inflate ratio; `cancel` is polled every
// 64 KiB of output. On failure returns false and sets `error` (with offset; a limit's error
// names the limit and limits' hint).
bool gunzip(std::string_view in, std::string *out, std::string *error,
            const LoadLimits &limits = {}, const std::atomic<bool> *cancel = nullptr);
// Compresses `in` as one gzip member.
std::string gzip_compress(std::string_view in, int level = 6);

} // namespace hotlines
