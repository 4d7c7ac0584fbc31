// HttpServer (see http_server.h).
#include "server/lsp/http_server.h"

#include <cctype>
#include <cstring>

namespace hotlines {

namespace {

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
  case 409:
    return "Conflict";
  case 413:
    return "Payload Too Large";
  case 415:
    return "Unsupported Media Type";
  case 431:
    return "Request Header Fields Too Large";
  case 503:
    return "Service Unavailable";
  default:
    return "Internal Server Error";
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char &ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

HttpServer::Response plain(int status, std::string body) {
  return {status, "text/plain; charset=utf-8", std::move(body), ""};
}

} // namespace

const std::string *HttpServer::Request::header(std::string_view name) const {
  for (const auto &[n, v] : headers)
    if (n == name) return &v;
  return nullptr;
}

struct HttpServer::Connection {
  uv_tcp_t tcp{};
  uv_timer_t timer{};           // the request's deadline, then the answer's
  HttpServer *server = nullptr; // null once the server closed (or for a refused connection)
  Limits limits;
  std::string in;
  // reading: the request comes in; handling: the handler has it; writing: the answer goes out;
  // lingering: answered early, waiting for the client to close.
  enum class State { reading, handling, writing, lingering } state = State::reading;
  bool closing = false;
  int handles = 0;                  // libuv handles not closed yet
  std::shared_ptr<Connection> self; // alive until its handles are closed
};

HttpServer::HttpServer(uv_loop_t *loop, Handler handler)
    : HttpServer(loop, std::move(handler), Limits()) {}

HttpServer::HttpServer(uv_loop_t *loop, Handler handler, Limits limits)
    : loop_(loop), handler_(std::move(handler)), limits_(limits) {}

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
  c->limits = self->limits_;
  uv_tcp_init(self->loop_, &c->tcp);
  c->tcp.data = c.get();
  c->handles++;
  uv_timer_init(self->loop_, &c->timer);
  c->timer.data = c.get();
  c->handles++;
  if (uv_accept(listener, reinterpret_cast<uv_stream_t *>(&c->tcp)) != 0) {
    c->server = nullptr;
    close_connection(c.get());
    return;
  }
  if (self->open_.size() >= self->limits_.max_connections) {
    c->server = nullptr; // not counted, not read: answered and closed
    send(c.get(), plain(503, "too many connections"));
    return;
  }
  self->open_.insert(c.get());
  uv_timer_start(&c->timer, on_timeout, c->limits.timeout_ms, 0);
  uv_read_start(
      reinterpret_cast<uv_stream_t *>(&c->tcp),
      [](uv_handle_t *, size_t suggested, uv_buf_t *buf) {
        buf->base = new char[suggested];
        buf->len = suggested;
      },
      on_read);
}

void HttpServer::on_timeout(uv_timer_t *timer) {
  // Too slow to send its request, or to read the answer: a client that holds a connection and
  // its buffers gets them taken away.
  close_connection(static_cast<Connection *>(timer->data));
}

void HttpServer::on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
  auto *c = static_cast<Connection *>(stream->data);
  if (nread > 0 && c->state == Connection::State::reading)
    c->in.append(buf->base, static_cast<size_t>(nread));
  delete[] buf->base;
  if (nread < 0) return close_connection(c); // EOF or error (before an answer, or lingering)
  if (c->state != Connection::State::reading || !c->server) return;
  c->server->dispatch(c);
}

HttpServer::Parsed HttpServer::parse_request(std::string_view in, const Limits &lim, Request *req) {
  auto bad = [](int status, std::string why) {
    return Parsed{Parsed::Status::bad, plain(status, std::move(why))};
  };
  size_t end = in.find("\r\n\r\n");
  if (end == in.npos ? in.size() > lim.max_head_bytes : end > lim.max_head_bytes)
    return bad(431, "request head over " + std::to_string(lim.max_head_bytes) + " bytes");
  if (end == in.npos) return {};
  std::string_view head = in.substr(0, end);
  size_t eol = head.find("\r\n");
  std::string_view line = head.substr(0, eol);
  size_t sp1 = line.find(' '), sp2 = line.find(' ', sp1 == line.npos ? line.npos : sp1 + 1);
  if (sp1 == line.npos || sp2 == line.npos) return bad(400, "bad request line");
  req->method = std::string(line.substr(0, sp1));
  req->target = std::string(line.substr(sp1 + 1, sp2 - sp1 - 1));
  req->headers.clear();
  for (size_t p = eol; p != head.npos && p < head.size();) {
    size_t next = head.find("\r\n", p + 2);
    std::string_view h = head.substr(p + 2, next == head.npos ? head.npos : next - p - 2);
    p = next;
    size_t colon = h.find(':');
    if (colon == h.npos || colon == 0) return bad(400, "bad header line");
    req->headers.emplace_back(lower(h.substr(0, colon)), std::string(trim(h.substr(colon + 1))));
  }
  if (req->header("transfer-encoding")) return bad(400, "chunked request bodies are not supported");
  size_t content_length = 0;
  if (const std::string *cl = req->header("content-length")) {
    if (cl->empty() || cl->size() > 18 || cl->find_first_not_of("0123456789") != cl->npos)
      return bad(400, "bad Content-Length");
    content_length = std::strtoull(cl->c_str(), nullptr, 10);
  }
  if (content_length > lim.max_body_bytes)
    return bad(413, "request body over " + std::to_string(lim.max_body_bytes) + " bytes");
  if (in.size() < end + 4 + content_length) return {};
  req->body = std::string(in.substr(end + 4, content_length));
  return {Parsed::Status::complete, {}};
}

bool HttpServer::dispatch(Connection *c) {
  Request req;
  Parsed parsed = parse_request(c->in, c->limits, &req);
  if (parsed.status == Parsed::Status::need_more) return false;
  if (parsed.status == Parsed::Status::bad) {
    send(c, parsed.error, true);
    return true;
  }
  c->in.clear();
  c->in.shrink_to_fit();
  c->state = Connection::State::handling; // the server's own work has no deadline
  uv_timer_stop(&c->timer);
  std::weak_ptr<Connection> weak = c->self;
  handler_(req, [weak](Response r) {
    if (auto conn = weak.lock(); conn && !conn->closing) send(conn.get(), r);
  });
  return true;
}

void HttpServer::send(Connection *c, const Response &r, bool linger) {
  c->state = Connection::State::writing;
  c->in.clear();
  c->in.shrink_to_fit();
  uv_timer_start(&c->timer, on_timeout, c->limits.timeout_ms, 0);
  std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) +
                    "\r\nContent-Type: " + r.content_type +
                    "\r\nContent-Length: " + std::to_string(r.body.size()) +
                    "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff"
                    "\r\nReferrer-Policy: no-referrer\r\n" +
                    r.extra_headers + "Connection: close\r\n\r\n" + r.body;
  struct Write {
    uv_write_t req{};
    std::string bytes;
    Connection *c;
    bool linger;
  };
  auto *w = new Write;
  w->bytes = std::move(out);
  w->c = c;
  w->linger = linger;
  w->req.data = w;
  uv_buf_t buf = uv_buf_init(w->bytes.data(), static_cast<unsigned>(w->bytes.size()));
  int rc = uv_write(&w->req, reinterpret_cast<uv_stream_t *>(&c->tcp), &buf, 1,
                    [](uv_write_t *req, int status) {
                      auto *done = static_cast<Write *>(req->data);
                      Connection *conn = done->c;
                      bool linger = done->linger;
                      delete done;
                      if (conn->closing) return;
                      if (!linger || status != 0) return close_connection(conn);
                      conn->state = Connection::State::lingering;
                      auto *sd = new uv_shutdown_t;
                      if (uv_shutdown(sd, reinterpret_cast<uv_stream_t *>(&conn->tcp),
                                      [](uv_shutdown_t *s, int) { delete s; }) != 0) {
                        delete sd;
                        close_connection(conn);
                      }
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
  uv_timer_stop(&c->timer);
  auto closed = [](uv_handle_t *h) {
    auto *conn = static_cast<Connection *>(h->data);
    if (--conn->handles == 0) conn->self.reset(); // frees it unless an answer still holds it
  };
  uv_close(reinterpret_cast<uv_handle_t *>(&c->timer), closed);
  uv_close(reinterpret_cast<uv_handle_t *>(&c->tcp), closed);
}

} // namespace hotlines
