// `hotlines serve`: wires the libuv loop, the stdio transport and the LSP server, and runs
// until `exit` (or end of input). Logs go to stderr, never stdout.
#include "server/lsp/serve.h"

#include "server/engine/units.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uv_transport.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace hotlines {

int serve_main(const std::vector<std::string> &args) {
  LspServer::Options options;
  size_t max_message = size_t(64) << 20;
  for (size_t i = 0; i < args.size(); i++) {
    if (args[i] == "--sync")
      options.sync = true;
    else if (args[i] == "--max-message-bytes") {
      uint64_t n = 0;
      if (i + 1 == args.size() || !parse_count(args[i + 1], &n) || n == 0) {
        fprintf(stderr, "hotlines serve: --max-message-bytes takes a positive byte count\n");
        return 2;
      }
      max_message = static_cast<size_t>(n);
      i++;
    } else if (args[i] == "--stdio")
      continue; // what some clients append
    else {
      fprintf(stderr, "hotlines serve: unknown option '%s'\n", args[i].c_str());
      return 2;
    }
  }
  signal(SIGPIPE, SIG_IGN);
  uv_loop_t loop;
  uv_loop_init(&loop);
  int exit_code = 1;
  {
    LoopWork work(&loop, options.sync);
    UvStdioTransport transport(&loop, STDIN_FILENO, STDOUT_FILENO, max_message);
    LspServer server(&work, options, [&transport](std::string body) { transport.send(body); });
    server.send_backlog = [&transport] { return transport.pending_bytes(); };
    // Termination signals end the server as `exit` would, so its runs' processes go with it.
    uv_signal_t signals[3];
    int signums[3] = {SIGTERM, SIGINT, SIGHUP};
    for (int i = 0; i < 3; i++) {
      uv_signal_init(&loop, &signals[i]);
      signals[i].data = &server;
      uv_signal_start(
          &signals[i],
          [](uv_signal_t *h, int signum) {
            static_cast<LspServer *>(h->data)->handle_signal(signum);
          },
          signums[i]);
    }
    server.on_finished = [&](int code) {
      exit_code = code;
      transport.close();
      work.close();
      for (uv_signal_t &s : signals) uv_close(reinterpret_cast<uv_handle_t *>(&s), nullptr);
    };
    std::string error;
    if (!transport.start({[&server](std::string body) { server.handle_message(body); },
                          [&server](std::string e) { server.handle_framing_error(e); },
                          [&server] { server.handle_eof(); }},
                         &error)) {
      fprintf(stderr, "hotlines serve: %s\n", error.c_str());
      return 1;
    }
    uv_run(&loop, UV_RUN_DEFAULT);
  }
  uv_run(&loop, UV_RUN_NOWAIT); // let close callbacks run
  uv_loop_close(&loop);
  return exit_code;
}

} // namespace hotlines
