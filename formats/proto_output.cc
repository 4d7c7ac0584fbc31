// Protobuf messages to bytes (see proto_output.h).
#include "formats/proto_output.h"

#include "formats/gzip.h"

namespace hotlines {

std::string proto_output(const google::protobuf::MessageLite &message, bool gzip, int gzip_level,
                         std::string_view writer, std::string *error) {
  std::string bytes;
  if (!message.SerializeToString(&bytes)) {
    if (error) *error = std::string(writer) + ": the profile is too large for protobuf (2 GiB)";
    return {};
  }
  return gzip ? gzip_compress(bytes, gzip_level) : bytes;
}

} // namespace hotlines
