// libuv stdio transport (see uv_transport.h).
#include "server/lsp/uv_transport.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace hotlines {

namespace {
struct WriteReq {
  uv_write_t req;
  std::string data;
};
} // namespace

UvStdioTransport::UvStdioTransport(uv_loop_t *loop, int in_fd, int out_fd, size_t max_message_bytes)
    : loop_(loop), in_fd_(in_fd), out_fd_(out_fd), reader_(max_message_bytes) {}

UvStdioTransport::~UvStdioTransport() = default;

bool UvStdioTransport::open_stream(int fd, uv_stream_t **out, uv_handle_type type) {
  int rc;
  if (type == UV_TTY) {
    auto *t = new uv_tty_t;
    rc = uv_tty_init(loop_, t, fd, 0);
    *out = reinterpret_cast<uv_stream_t *>(t);
  } else if (type == UV_TCP) {
    auto *t = new uv_tcp_t;
    uv_tcp_init(loop_, t);
    rc = uv_tcp_open(t, fd);
    *out = reinterpret_cast<uv_stream_t *>(t);
  } else {
    auto *p = new uv_pipe_t;
    uv_pipe_init(loop_, p, 0);
    rc = uv_pipe_open(p, fd);
    *out = reinterpret_cast<uv_stream_t *>(p);
  }
  (*out)->data = this;
  return rc == 0;
}

bool UvStdioTransport::start(Callbacks callbacks, std::string *error) {
  cb_ = std::move(callbacks);
  uv_handle_type in_type = uv_guess_handle(in_fd_);
  uv_handle_type out_type = uv_guess_handle(out_fd_);
  if (in_type == UV_FILE || in_type == UV_UNKNOWN_HANDLE) {
    in_kind_ = Kind::file;
  } else if (!open_stream(in_fd_, &in_, in_type)) {
    *error = "cannot open stdin as a stream";
    return false;
  }
  if (out_type == UV_FILE || out_type == UV_UNKNOWN_HANDLE) {
    out_kind_ = Kind::file;
  } else if (!open_stream(out_fd_, &out_, out_type)) {
    *error = "cannot open stdout as a stream";
    return false;
  }
  if (in_kind_ == Kind::file) {
    read_file_next();
  } else {
    uv_read_start(in_, on_alloc, on_read);
  }
  return true;
}

void UvStdioTransport::on_alloc(uv_handle_t *, size_t suggested, uv_buf_t *buf) {
  buf->base = static_cast<char *>(malloc(suggested));
  buf->len = buf->base ? suggested : 0;
}

void UvStdioTransport::on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  auto *self = static_cast<UvStdioTransport *>(s->data);
  if (n > 0) self->feed(buf->base, static_cast<size_t>(n));
  free(buf->base);
  if (n < 0) {
    uv_read_stop(s);
    if (self->cb_.eof) self->cb_.eof();
  }
}

void UvStdioTransport::read_file_next() {
  if (closed_) return;
  uv_buf_t b = uv_buf_init(file_buf_, sizeof file_buf_);
  fs_req_.data = this;
  fs_reading_ = true;
  uv_fs_read(loop_, &fs_req_, in_fd_, &b, 1, -1, on_fs_read);
}

void UvStdioTransport::on_fs_read(uv_fs_t *req) {
  auto *self = static_cast<UvStdioTransport *>(req->data);
  ssize_t n = req->result;
  uv_fs_req_cleanup(req);
  self->fs_reading_ = false;
  if (n > 0) {
    self->feed(self->file_buf_, static_cast<size_t>(n));
    self->read_file_next();
  } else if (!self->closed_ && self->cb_.eof) {
    self->cb_.eof();
  }
}

void UvStdioTransport::feed(const char *data, size_t n) {
  reader_.feed(std::string_view(data, n));
  std::string body, error;
  for (;;) {
    if (closed_) return;
    auto st = reader_.next(&body, &error);
    if (st == MessageReader::Status::need_more) return;
    if (st == MessageReader::Status::message)
      cb_.message(std::move(body));
    else if (cb_.framing_error)
      cb_.framing_error(error);
  }
}

void UvStdioTransport::send(std::string_view body) {
  std::string framed = frame_message(body);
  if (out_kind_ == Kind::file || !out_) {
    // Regular file (transcript tests): write synchronously on the loop thread.
    const char *p = framed.data();
    size_t left = framed.size();
    while (left > 0) {
      ssize_t w = ::write(out_fd_, p, left);
      if (w < 0) {
        if (errno == EINTR) continue;
        return;
      }
      p += w;
      left -= static_cast<size_t>(w);
    }
    return;
  }
  auto *w = new WriteReq;
  w->data = std::move(framed);
  w->req.data = w;
  uv_buf_t b = uv_buf_init(w->data.data(), static_cast<unsigned>(w->data.size()));
  if (uv_write(&w->req, out_, &b, 1, on_write) != 0) delete w;
}

size_t UvStdioTransport::pending_bytes() const {
  return out_ && out_kind_ == Kind::stream ? uv_stream_get_write_queue_size(out_) : 0;
}

void UvStdioTransport::on_write(uv_write_t *req, int) {
  delete static_cast<WriteReq *>(req->data);
}

namespace {
void delete_handle(uv_handle_t *h) {
  if (h->type == UV_TTY)
    delete reinterpret_cast<uv_tty_t *>(h);
  else if (h->type == UV_TCP)
    delete reinterpret_cast<uv_tcp_t *>(h);
  else
    delete reinterpret_cast<uv_pipe_t *>(h);
}
} // namespace

void UvStdioTransport::close() {
  if (closed_) return;
  closed_ = true;
  uv_close_cb close_cb = delete_handle;
  if (in_) {
    uv_read_stop(in_);
    uv_close(reinterpret_cast<uv_handle_t *>(in_), close_cb);
    in_ = nullptr;
  }
  if (fs_reading_) uv_cancel(reinterpret_cast<uv_req_t *>(&fs_req_));
  if (out_) {
    // uv_close would cancel queued writes: shut the stream down first, then close it.
    auto *sreq = new uv_shutdown_t;
    if (uv_shutdown(sreq, out_, [](uv_shutdown_t *r, int) {
          uv_close(reinterpret_cast<uv_handle_t *>(r->handle), delete_handle);
          delete r;
        }) != 0) {
      delete sreq;
      uv_close(reinterpret_cast<uv_handle_t *>(out_), close_cb);
    }
    out_ = nullptr;
  }
}

} // namespace hotlines
