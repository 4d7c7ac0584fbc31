// libFuzzer target for the view server's HTTP request parser (HttpServer::parse_request) under
// small limits: any bytes parse to need-more, a request, or an error answer, and a request
// holds exactly its Content-Length of body within the caps.
#include "server/lsp/http_server.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace hotlines;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  std::string_view in(reinterpret_cast<const char *>(bytes), size);
  HttpServer::Limits limits;
  limits.max_head_bytes = 512;
  limits.max_body_bytes = 256;
  HttpServer::Request req;
  HttpServer::Parsed p = HttpServer::parse_request(in, limits, &req);
  bool ok = true;
  if (p.status == HttpServer::Parsed::Status::complete) {
    ok = req.body.size() <= limits.max_body_bytes && in.find("\r\n\r\n") <= limits.max_head_bytes;
    if (const std::string *cl = req.header("content-length"))
      ok = ok && std::to_string(req.body.size()) == std::to_string(std::stoull(*cl));
  } else if (p.status == HttpServer::Parsed::Status::bad) {
    ok = p.error.status == 400 || p.error.status == 413 || p.error.status == 431;
  }
  if (!ok) {
    fprintf(stderr, "http_fuzzer: a request outside the limits was accepted\n");
    abort();
  }
  return 0;
}
