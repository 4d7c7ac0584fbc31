// HttpServer (see http_server.h).
#include "server/lsp/http_server.h"

#include <cstring>

namespace hotlines {

namespace {
constexpr size_t kMaxRequest = 1 << 20;

const char *reason(int status) {
  switch (status) {
  case 200:
    return "OK";
  case 400:
    return "Bad Request";
  case 403:
    return "Forbidden";
  case 404:
    return "Not Found";
  case 405:
    return "Method Not Allowed";
  case 413:
    return "Payload Too Large";
  default:
    return "Internal Server Error";
  }
}
} // namespace

struct HttpServer::Connection {
  uv_tcp_t tcp{};
  HttpServer *server = nullptr; // null once the server closed
  std::string in;
  bool dispatched = false, closing = false;
  std::shared_ptr<Connection> self; // alive until the handle is closed
};

HttpServer::HttpServer(uv_loop_t *loop, Handler handler)
    : loop_(loop), handler_(std::move(handler)) {}

HttpServer::~HttpServer() {
  close();
}

bool HttpServer::listen(std::string *error) {
  if (listening_) return true;
  listener_ = new uv_tcp_t;
  uv_tcp_init(loop_, listener_);
  listener_->data = this;
  sockaddr_in addr{};
  uv_ip4_addr("127.0.0.1", 0, &addr);
  int rc = uv_tcp_bind(listener_, reinterpret_cast<const sockaddr *>(&addr), 0);
  if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t *>(listener_), 64, on_connection);
  if (rc != 0) {
    *error = std::string("cannot listen on 127.0.0.1: ") + uv_strerror(rc);
    uv_close(reinterpret_cast<uv_handle_t *>(listener_),
             [](uv_handle_t *h) { delete reinterpret_cast<uv_tcp_t *>(h); });
    listener_ = nullptr;
    return false;
  }
  sockaddr_storage bound{};
  int len = sizeof bound;
  uv_tcp_getsockname(listener_, reinterpret_cast<sockaddr *>(&bound), &len);
  port_ = ntohs(reinterpret_cast<sockaddr_in *>(&bound)->sin_port);
  listening_ = true;
  return true;
}

void HttpServer::close() {
  if (listener_) {
    uv_close(reinterpret_cast<uv_handle_t *>(listener_),
             [](uv_handle_t *h) { delete reinterpret_cast<uv_tcp_t *>(h); });
    listener_ = nullptr;
  }
  listening_ = false;
  std::set<Connection *> open = std::move(open_);
  open_.clear();
  for (Connection *c : open) {
    c->server = nullptr;
    close_connection(c);
  }
}

void HttpServer::on_connection(uv_stream_t *listener, int status) {
  auto *self = static_cast<HttpServer *>(listener->data);
  if (status < 0) return;
  auto c = std::make_shared<Connection>();
  c->self = c;
  c->server = self;
  uv_tcp_init(self->loop_, &c->tcp);
  c->tcp.data = c.get();
  if (uv_accept(listener, reinterpret_cast<uv_stream_t *>(&c->tcp)) != 0) {
    close_connection(c.get());
    return;
  }
  self->open_.insert(c.get());
  uv_read_start(
      reinterpret_cast<uv_stream_t *>(&c->tcp),
      [](uv_handle_t *, size_t suggested, uv_buf_t *buf) {
        buf->base = new char[suggested];
        buf->len = suggested;
      },
      on_read);
}

void HttpServer::on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
  auto *c = static_cast<Connection *>(stream->data);
  if (nread > 0 && !c->dispatched) c->in.append(buf->base, static_cast<size_t>(nread));
  delete[] buf->base;
  if (nread < 0) return close_connection(c); // EOF or error before an answer
  if (c->dispatched || !c->server) return;
  if (c->in.size() > kMaxRequest) {
    c->dispatched = true;
    return send(c, {413, "text/plain", "request too large", ""});
  }
  c->server->dispatch(c);
}

bool HttpServer::dispatch(Connection *c) {
  size_t end = c->in.find("\r\n\r\n");
  if (end == std::string::npos) return false;
  std::string head = c->in.substr(0, end);
  size_t content_length = 0;
  // Header names are case-insensitive.
  std::string lower = head;
  for (char &ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (size_t p = lower.find("\r\ncontent-length:"); p != std::string::npos)
    content_length = std::strtoull(head.c_str() + p + 17, nullptr, 10);
  if (content_length > kMaxRequest) {
    c->dispatched = true;
    send(c, {413, "text/plain", "request too large", ""});
    return true;
  }
  if (c->in.size() < end + 4 + content_length) return false;
  c->dispatched = true;
  Request req;
  size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1), eol = head.find("\r\n");
  if (sp1 == std::string::npos || sp2 == std::string::npos || sp2 > eol) {
    send(c, {400, "text/plain", "bad request line", ""});
    return true;
  }
  req.method = head.substr(0, sp1);
  req.target = head.substr(sp1 + 1, sp2 - sp1 - 1);
  req.body = c->in.substr(end + 4, content_length);
  std::weak_ptr<Connection> weak = c->self;
  handler_(req, [weak](Response r) {
    if (auto conn = weak.lock(); conn && !conn->closing) send(conn.get(), r);
  });
  return true;
}

void HttpServer::send(Connection *c, const Response &r) {
  std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) +
                    "\r\nContent-Type: " + r.content_type +
                    "\r\nContent-Length: " + std::to_string(r.body.size()) +
                    "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n" +
                    r.extra_headers + "Connection: close\r\n\r\n" + r.body;
  struct Write {
    uv_write_t req{};
    std::string bytes;
    Connection *c;
  };
  auto *w = new Write;
  w->bytes = std::move(out);
  w->c = c;
  w->req.data = w;
  uv_buf_t buf = uv_buf_init(w->bytes.data(), static_cast<unsigned>(w->bytes.size()));
  int rc = uv_write(&w->req, reinterpret_cast<uv_stream_t *>(&c->tcp), &buf, 1,
                    [](uv_write_t *req, int) {
                      auto *done = static_cast<Write *>(req->data);
                      close_connection(done->c);
                      delete done;
                    });
  if (rc != 0) {
    delete w;
    close_connection(c);
  }
}

void HttpServer::close_connection(Connection *c) {
  if (c->closing) return;
  c->closing = true;
  if (c->server) c->server->open_.erase(c);
  uv_close(reinterpret_cast<uv_handle_t *>(&c->tcp), [](uv_handle_t *h) {
    auto *conn = static_cast<Connection *>(h->data);
    conn->self.reset(); // frees it unless a pending answer still holds it
  });
}

} // namespace hotlines
