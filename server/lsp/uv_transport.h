// The stdio transport of `hotlines serve`: LSP-framed messages over stdin/stdout with libuv.
// stdin may be a pipe, socket, TTY or regular file (uv_guess_handle; files are read with the
// fs API since uv_pipe_open aborts on them). Threading: every method must be called on the
// loop thread; callbacks run on the loop thread.
#pragma once

#include "protocol/framing.h"

#include <uv.h>

#include <functional>
#include <string>
#include <string_view>

namespace hotlines {

class UvStdioTransport {
public:
  struct Callbacks {
    std::function<void(std::string body)> message;
    std::function<void(std::string error)> framing_error;
    std::function<void()> eof;
  };

  UvStdioTransport(uv_loop_t *loop, int in_fd, int out_fd, size_t max_message_bytes);
  ~UvStdioTransport();
  UvStdioTransport(const UvStdioTransport &) = delete;
  UvStdioTransport &operator=(const UvStdioTransport &) = delete;

  bool start(Callbacks callbacks, std::string *error);
  // Frames and writes one message body.
  void send(std::string_view body);
  // Bytes sent but not yet written out (the client reads slower than the server writes).
  size_t pending_bytes() const;
  // Stops reading and closes the handles once pending writes are done.
  void close();

private:
  enum class Kind { stream, file };
  static void on_alloc(uv_handle_t *, size_t, uv_buf_t *);
  static void on_read(uv_stream_t *, ssize_t, const uv_buf_t *);
  static void on_fs_read(uv_fs_t *);
  static void on_write(uv_write_t *, int);
  void feed(const char *data, size_t n);
  void read_file_next();
  bool open_stream(int fd, uv_stream_t **out, uv_handle_type type);

  uv_loop_t *loop_;
  int in_fd_, out_fd_;
  MessageReader reader_;
  Callbacks cb_;
  Kind in_kind_ = Kind::stream, out_kind_ = Kind::stream;
  uv_stream_t *in_ = nullptr, *out_ = nullptr;
  uv_fs_t fs_req_{};
  bool fs_reading_ = false;
  bool closed_ = false;
  char file_buf_[1 << 16];
};

} // namespace hotlines
