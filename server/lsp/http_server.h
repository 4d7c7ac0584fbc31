// HttpServer: a minimal HTTP/1.1 server on the loopback interface, on libuv, for the flame
// graph view the language server serves to editors without a webview. One request per
// connection (answered with `Connection: close`), request bodies up to 1 MiB, no keep-alive,
// no chunked encoding: what a browser page loading a document and posting clicks needs.
// The handler may answer later (from a worker's completion); an answer for a connection the
// browser closed meanwhile is dropped. Loop thread only; close() before the loop ends.
#pragma once

#include <uv.h>

#include <functional>
#include <memory>
#include <set>
#include <string>

namespace hotlines {

class HttpServer {
public:
  struct Request {
    std::string method, target, body; // target: path and query as sent
  };
  struct Response {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::string body;
    std::string extra_headers; // "Name: value\r\n" lines
  };
  using Respond = std::function<void(Response)>;
  using Handler = std::function<void(const Request &, Respond)>;

  HttpServer(uv_loop_t *loop, Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer &) = delete;
  HttpServer &operator=(const HttpServer &) = delete;

  // Listens on 127.0.0.1 at an ephemeral port; false with *error when it cannot.
  bool listen(std::string *error);
  int port() const { return port_; }
  bool listening() const { return listening_; }
  // Stops listening and closes open connections.
  void close();

private:
  struct Connection;
  static void on_connection(uv_stream_t *server, int status);
  static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf);
  // Handles the request once it is complete; false while more bytes are needed.
  bool dispatch(Connection *c);
  static void send(Connection *c, const Response &r);
  static void close_connection(Connection *c);

  uv_loop_t *loop_;
  Handler handler_;
  uv_tcp_t *listener_ = nullptr;
  int port_ = 0;
  bool listening_ = false;
  std::set<Connection *> open_;
};

} // namespace hotlines
