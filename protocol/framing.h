// LSP base-protocol framing: `Content-Length: N\r\n[Content-Type: …\r\n]\r\n<N bytes>`.
// MessageReader is fed bytes as they arrive (any split) and yields whole message bodies;
// header order, extra headers, bare LF line ends and a size cap are handled. After a bad header
// (none or a bad Content-Length, a malformed line) it resynchronises at the next
// `Content-Length` in the input, as clangd does, so one bad message loses no later one.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hotlines {

class MessageReader {
public:
  enum class Status { need_more, message, error };

  explicit MessageReader(size_t max_message_bytes = size_t(64) << 20) : max_(max_message_bytes) {}

  void feed(std::string_view bytes) { buf_.append(bytes); }
  // Extracts the next message into *body. On error, *error says what was wrong and the reader
  // has already moved past the bad header (to the next Content-Length, or past an oversized
  // body), so reading may go on.
  Status next(std::string *body, std::string *error);
  size_t buffered() const { return buf_.size() - pos_; }

private:
  std::string buf_;
  size_t pos_ = 0;
  size_t max_;
  size_t skip_ = 0;     // body bytes of an oversized message still to drop
  bool resync_ = false; // after a bad header: looking for the next Content-Length
  void compact();
  // Moves to the next Content-Length; false (keeping a possible partial one) if none yet.
  bool resynchronise();
  Status fail(std::string *error, std::string message);
};

// Frames a message body for writing.
std::string frame_message(std::string_view body);

} // namespace hotlines
