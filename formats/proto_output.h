// The last step of the protobuf writers (pprof, OTLP): a message to bytes, gzipped when asked.
// Pure function; thread-safe.
#pragma once

#include <google/protobuf/message_lite.h>

#include <string>
#include <string_view>

namespace hotlines {

// The serialized message, gzipped at `gzip_level` when `gzip`; on failure (over protobuf's
// 2 GiB) an empty string, and *error names the writer.
std::string proto_output(const google::protobuf::MessageLite &message, bool gzip, int gzip_level,
                         std::string_view writer, std::string *error);

} // namespace hotlines
