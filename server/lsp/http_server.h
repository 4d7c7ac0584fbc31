// HttpServer: a minimal HTTP/1.1 server on the loopback interface, on libuv, for the flame
// graph view the language server serves to editors without a webview. One request per
// connection (answered with `Connection: close`), no keep-alive, no chunked encoding: what a
// browser page loading a document and posting clicks needs. Limits (HttpServer::Limits) keep a
// misbehaving or hostile local client from exhausting descriptors or memory: a connection cap
// (the extra ones get 503 and are closed), a deadline to send the whole request and one to
// read the answer, and byte caps on the head (431) and the body (413).
// The handler may answer later (from a worker's completion); an answer for a connection the
// browser closed meanwhile is dropped. Loop thread only; close() before the loop ends.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hotlines {

class HttpServer {
public:
  struct Limits {
    size_t max_connections = 64;      // open at once; more are answered 503 and closed
    size_t max_head_bytes = 16 << 10; // request line and headers
    size_t max_body_bytes = 1 << 20;  // Content-Length
    uint64_t timeout_ms = 10000;      // to send the whole request; to read the answer
  };
  struct Request {
    std::string method, target, body;                         // target: path and query as sent
    std::vector<std::pair<std::string, std::string>> headers; // names lower case, values trimmed
    // The first header of that (lower case) name, or null.
    const std::string *header(std::string_view name) const;
  };
  struct Response {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::string body;
    std::string extra_headers; // "Name: value\r\n" lines
  };
  // What the bytes a connection has sent so far make: a whole request, not yet one, or one
  // answered with `error` (400, 413, 431) without reaching the handler.
  struct Parsed {
    enum class Status { need_more, complete, bad } status = Status::need_more;
    Response error;
  };
  // Parses a request (its head within limits.max_head_bytes, a body of Content-Length within
  // limits.max_body_bytes). Pure; any thread.
  static Parsed parse_request(std::string_view in, const Limits &limits, Request *req);
  using Respond = std::function<void(Response)>;
  using Handler = std::function<void(const Request &, Respond)>;

  HttpServer(uv_loop_t *loop, Handler handler); // the default Limits
  HttpServer(uv_loop_t *loop, Handler handler, Limits limits);
  ~HttpServer();
  HttpServer(const HttpServer &) = delete;
  HttpServer &operator=(const HttpServer &) = delete;

  // Listens on 127.0.0.1 at an ephemeral port; false with *error when it cannot.
  bool listen(std::string *error);
  int port() const { return port_; }
  bool listening() const { return listening_; }
  size_t connections() const { return open_.size(); }
  // Stops listening and closes open connections.
  void close();

private:
  struct Connection;
  static void on_connection(uv_stream_t *server, int status);
  static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf);
  static void on_timeout(uv_timer_t *timer);
  // Handles the request once it is complete; false while more bytes are needed.
  bool dispatch(Connection *c);
  // Answers; `linger`: the request was not read to its end, so the connection shuts its
  // sending side down and reads (discarding) until the client closes or the deadline, rather
  // than resetting the client before it reads the answer.
  static void send(Connection *c, const Response &r, bool linger = false);
  static void close_connection(Connection *c);

  uv_loop_t *loop_;
  Handler handler_;
  Limits limits_;
  uv_tcp_t *listener_ = nullptr;
  int port_ = 0;
  bool listening_ = false;
  std::set<Connection *> open_;
};

} // namespace hotlines
