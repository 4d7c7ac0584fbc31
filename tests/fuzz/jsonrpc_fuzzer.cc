// libFuzzer target for the JSON-RPC message layer: arbitrary bytes through the framing reader
// and every message dispatched to one initialized server (sync mode, state kept across
// inputs, as a long hostile session would). Nothing may crash, hang or throw out of it.
// Messages that would start processes or listeners (runs, the view server, executeCommand)
// are not dispatched: the fuzzer must not spawn what its input names.
#include "protocol/framing.h"
#include "server/lsp/loop_work.h"
#include "server/lsp/lsp_server.h"

#include <cstdint>
#include <memory>
#include <string>

using namespace hotlines;

namespace {

struct Harness {
  uv_loop_t loop;
  std::unique_ptr<LoopWork> work;
  std::unique_ptr<LspServer> server;
  size_t written = 0;

  Harness() {
    uv_loop_init(&loop);
    work = std::make_unique<LoopWork>(&loop, /*sync=*/true);
    server = std::make_unique<LspServer>(work.get(), LspServer::Options{true},
                                         [this](std::string body) { written += body.size(); });
    server->handle_message(
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}})");
    server->handle_message(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  }
};

bool spawns(const std::string &body) {
  for (const char *m : {"hotlines/run", "hotlines.run", "executeCommand", "openView", "listJvms",
                        "exit", "shutdown", "attach"})
    if (body.find(m) != std::string::npos) return true;
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  static Harness *h = new Harness();
  MessageReader reader(1 << 20);
  reader.feed(std::string_view(reinterpret_cast<const char *>(bytes), size));
  std::string body, error;
  for (;;) {
    MessageReader::Status s = reader.next(&body, &error);
    if (s == MessageReader::Status::need_more) break;
    if (s == MessageReader::Status::error)
      h->server->handle_framing_error(error);
    else if (!spawns(body))
      h->server->handle_message(body);
  }
  return 0;
}
