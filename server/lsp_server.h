// The language server: JSON-RPC dispatch (one binding table for the whole surface), the LSP
// lifecycle, cancellation and the handlers. The query core knows nothing of this class.
// Threading: every member runs on the loop thread; handlers hand heavy work to LoopWork and
// answer from its `done` callback. Each request is answered exactly once (Reply).
#pragma once

#include "protocol/jsonrpc.h"
#include "protocol/lsp_types.h"
#include "server/loop_work.h"
#include "server/profile_store.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace hotlines {

class LspServer {
public:
  struct Options {
    bool sync = false; // run work inline (deterministic transcript tests)
  };
  using Send = std::function<void(std::string body)>;

  LspServer(LoopWork *work, Options options, Send send);
  ~LspServer();

  void handle_message(const std::string &body);
  void handle_framing_error(const std::string &error);
  void handle_eof();
  // Called once, when the server is done (after `exit`, or end of input) and no work is left.
  std::function<void(int exit_code)> on_finished;

  // Answers one request exactly once; copies share the state. If no copy replied when the
  // last one goes away, the request gets an internal error. Loop thread only.
  class Reply {
  public:
    Reply(LspServer *server, json id);
    void operator()(const json &result) const;
    void error(int code, std::string message, json data = nullptr) const;
    bool cancelled() const;
    const std::atomic<bool> *cancel_flag() const;

  private:
    friend class LspServer;
    struct State;
    std::shared_ptr<State> state_;
  };

private:
  using RequestHandler = void (LspServer::*)(const json &params, Reply reply);
  using NotificationHandler = void (LspServer::*)(const json &params);

  void bind_methods();
  void send_notification(std::string_view method, const json &params);
  void log(std::string_view level, const std::string &message);
  void finish_if_done();

  // Lifecycle (lsp_server.cc)
  void on_initialize(const json &params, Reply reply);
  void on_initialized(const json &params);
  void on_shutdown(const json &params, Reply reply);
  void on_exit(const json &params);
  void on_cancel_request(const json &params);
  void on_set_trace(const json &params);
  // Profiles (lsp_profiles.cc)
  void on_load_profile(const json &params, Reply reply);
  void on_profiles(const json &params, Reply reply);
  void on_hot_methods(const json &params, Reply reply);
  void on_file_annotations(const json &params, Reply reply);
  void on_execute_command(const json &params, Reply reply);
  // Helpers: each answers the request with an error when it returns null/false.
  const LoadedProfile *find_profile(const std::string &id, const Reply &reply);
  bool check_event(const Profile &profile, const std::string &event, const Reply &reply);
  // Runs `query` on a worker against `lp` and answers with its JSON ({"error": …} fails);
  // stale answers (profile reloaded meanwhile) become ContentModified.
  void run_query(const LoadedProfile &lp, Reply reply, std::function<json()> query);
  void load_profile(const std::string &path, const json &work_done_token, Reply reply);

  LoopWork *work_;
  Options options_;
  Send send_;
  std::map<std::string, RequestHandler> requests_;
  std::map<std::string, NotificationHandler> notifications_;
  std::map<std::string, std::weak_ptr<Reply::State>> in_flight_; // by id.dump()
  std::vector<std::string> commands_;
  ProfileStore profiles_;
  InitializeParams init_;
  bool initialized_ = false, shutdown_ = false, exiting_ = false, finished_ = false;
  bool log_to_client_ = false;
  int exit_code_ = 1;
};

} // namespace hotlines
