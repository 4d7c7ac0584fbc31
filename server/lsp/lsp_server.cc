// LspServer: the binding table, dispatch, replies, cancellation, the LSP lifecycle and
// workspace/executeCommand (see lsp_server.h).
#include "server/lsp/lsp_server.h"

#include "protocol/json_fields.h"

#include <algorithm>
#include <cstdio>

namespace hotlines {

struct LspServer::Reply::State {
  LspServer *server;
  json id;
  std::string key;
  std::atomic<bool> cancelled{false};
  bool replied = false;

  void send(std::string body) {
    if (replied) return;
    replied = true;
    server->in_flight_.erase(key);
    server->send_(std::move(body));
  }
  ~State() {
    if (!replied)
      send(make_error_response(
          id, Failure{Failure::Kind::internal, "internal error: request was not answered"}.rpc()));
  }
};

LspServer::Reply::Reply(LspServer *server, json id) : state_(std::make_shared<State>()) {
  state_->server = server;
  state_->key = dump_json(id);
  state_->id = std::move(id);
}

void LspServer::Reply::operator()(const json &result) const {
  state_->send(make_response(state_->id, result));
}

void LspServer::Reply::fail(const Failure &failure) const {
  state_->send(
      make_error_response(state_->id, cancelled() ? Failure::cancelled().rpc() : failure.rpc()));
}

void LspServer::Reply::answer(const Outcome &outcome) const {
  if (!outcome.ok()) return fail(outcome.failure());
  if (cancelled()) return fail(Failure::cancelled());
  (*this)(outcome.result());
}

bool LspServer::Reply::cancelled() const {
  return state_->cancelled.load();
}
const std::atomic<bool> *LspServer::Reply::cancel_flag() const {
  return &state_->cancelled;
}

LspServer::LspServer(LoopWork *work, Options options, Send send)
    : work_(work), options_(options), send_(std::move(send)), session_(work) {
  // Whatever work ends may be the last thing an exiting server waits for.
  work_->set_after_done([this] { finish_if_done(); });
  work_->set_on_uncaught(
      [this](const std::string &why) { log("error", "internal error: " + why); });
}

LspServer::~LspServer() = default;

template <typename P, void (LspServer::*H)(const P &, LspServer::Reply)>
void LspServer::typed(const json &params, Reply reply) {
  P p;
  std::string err = parse_params(params, &p);
  if (!err.empty()) return reply.fail(Failure::bad_params(err));
  (this->*H)(p, std::move(reply));
}

// The whole server surface, one line per request or command: the executeCommand list, the
// advertised hotlines/* requests and dispatch all come from here.
const LspServer::RequestBinding LspServer::kRequests[] = {
    {"initialize", nullptr, &LspServer::typed<InitializeParams, &LspServer::on_initialize>},
    {"shutdown", nullptr, &LspServer::on_shutdown},
    {"hotlines/loadProfile", "hotlines.loadProfile",
     &LspServer::typed<LoadProfileParams, &LspServer::on_load_profile>},
    {"hotlines/unloadProfile", "hotlines.unloadProfile", &LspServer::on_unload_profile},
    {nullptr, "hotlines.selectEvent", &LspServer::on_select_event},
    {nullptr, "hotlines.selectThreads", &LspServer::on_select_threads},
    {nullptr, "hotlines.selectStates", &LspServer::on_select_states},
    {nullptr, "hotlines.setWindow", &LspServer::on_set_window},
    {nullptr, "hotlines.setBaseline", &LspServer::on_set_baseline},
    {"hotlines/hotMethods", "hotlines.hotMethods",
     &LspServer::typed<HotMethodsParams, &LspServer::on_hot_methods>},
    {"hotlines/fileAnnotations", "hotlines.fileAnnotations",
     &LspServer::typed<FileAnnotationsParams, &LspServer::on_file_annotations>},
    {"hotlines/run", "hotlines.run", &LspServer::typed<RunParams, &LspServer::on_run>},
    {"hotlines/cancelRun", "hotlines.cancelRun",
     &LspServer::typed<CancelRunParams, &LspServer::on_cancel_run>},
    {"hotlines/openView", "hotlines.openView", &LspServer::on_open_view},
    {"hotlines/profiles", nullptr, &LspServer::on_profiles},
    {"hotlines/events", nullptr, &LspServer::on_events},
    {"hotlines/threads", nullptr, &LspServer::on_threads},
    {"hotlines/flameGraph", nullptr, &LspServer::on_flame_graph},
    {"hotlines/callTree", nullptr, &LspServer::on_call_tree},
    {"hotlines/callers", nullptr, &LspServer::on_callers},
    {"hotlines/callees", nullptr, &LspServer::on_callees},
    {"hotlines/timeline", nullptr, &LspServer::on_timeline},
    {"hotlines/diff", nullptr, &LspServer::on_diff},
    {"hotlines/resolveFrame", nullptr, &LspServer::on_resolve_frame},
    {"hotlines/resolutionReport", nullptr, &LspServer::on_resolution_report},
    {"hotlines/flameDocument", nullptr, &LspServer::on_flame_document},
    {"hotlines/listJvms", nullptr, &LspServer::typed<ListJvmsParams, &LspServer::on_list_jvms>},
    {"hotlines/testsInFile", nullptr,
     &LspServer::typed<TestsInFileParams, &LspServer::on_tests_in_file>},
    {"workspace/executeCommand", nullptr, &LspServer::on_execute_command},
    {"workspace/symbol", nullptr, &LspServer::on_workspace_symbol},
    {"textDocument/inlayHint", nullptr, &LspServer::on_inlay_hint},
    {"textDocument/codeLens", nullptr, &LspServer::on_code_lens},
    {"textDocument/hover", nullptr, &LspServer::on_hover},
};

const LspServer::NotificationBinding LspServer::kNotifications[] = {
    {"initialized", &LspServer::on_initialized},
    {"exit", &LspServer::on_exit},
    {"$/cancelRequest", &LspServer::on_cancel_request},
    {"$/setTrace", &LspServer::on_set_trace},
    {"textDocument/didOpen", &LspServer::on_did_open},
    {"textDocument/didChange", &LspServer::on_did_change},
    {"textDocument/didClose", &LspServer::on_did_close},
    {"textDocument/didSave", &LspServer::on_did_save},
    {"workspace/didChangeConfiguration", &LspServer::on_did_change_configuration},
    {"workspace/didChangeWatchedFiles", &LspServer::on_did_change_watched_files},
};

void LspServer::send_notification(std::string_view method, const json &params) {
  send_(make_notification(method, params));
}

void LspServer::send_request(std::string_view method, const json &params, ClientReply done) {
  json id = "hotlines-" + std::to_string(next_client_request_++);
  if (done) client_requests_[dump_json(id)] = std::move(done);
  send_(make_request(id, method, params));
}

void LspServer::show_message(int type, const std::string &message) {
  if (!exiting_) send_notification("window/showMessage", {{"type", type}, {"message", message}});
}

void LspServer::log(std::string_view level, const std::string &message) {
  fprintf(stderr, "hotlines %.*s: %s\n", static_cast<int>(level.size()), level.data(),
          message.c_str());
  if (log_to_client_ && !exiting_) {
    int type = level == "error" ? 1 : level == "warning" ? 2 : level == "info" ? 3 : 4;
    send_notification("window/logMessage", {{"type", type}, {"message", message}});
  }
}

void LspServer::handle_framing_error(const std::string &error) {
  log("error", "framing: " + error);
  send_(make_error_response(nullptr, {kParseError, "framing error: " + error, nullptr}));
}

void LspServer::handle_message(const std::string &body) {
  if (finished_) return;
  Incoming msg;
  RpcError err;
  json id;
  if (!parse_incoming(body, &msg, &err, &id)) {
    log("error", err.message);
    send_(make_error_response(id, err));
    return;
  }
  if (msg.kind == Incoming::Kind::response) { // answers to our requests
    if (!msg.ignored.empty()) log("warning", "response " + dump_json(msg.id) + ": " + msg.ignored);
    auto it = client_requests_.find(dump_json(msg.id));
    if (it == client_requests_.end()) return;
    ClientReply done = std::move(it->second);
    client_requests_.erase(it);
    json error;
    if (msg.error) error = {{"code", msg.error->code}, {"message", msg.error->message}};
    done(msg.result, error);
    return;
  }
  if (msg.kind == Incoming::Kind::notification) {
    if (exiting_) return;
    const NotificationBinding *bound = nullptr;
    for (const NotificationBinding &b : kNotifications)
      if (msg.method == b.method) bound = &b;
    if (!bound) {
      if (msg.method.rfind("$/", 0) != 0) log("debug", "ignored notification " + msg.method);
      return;
    }
    if (!initialized_ && msg.method != "exit") return; // dropped before initialize, per spec
    try {
      (this->*bound->handler)(msg.params);
    } catch (const Failure &f) {
      log("error", msg.method + ": " + f.message);
    } catch (const std::exception &e) {
      log("error", msg.method + ": " + e.what());
    }
    return;
  }
  Reply reply(this, msg.id);
  if (exiting_) return reply.fail({Failure::Kind::bad_request, "the server is exiting"});
  if (in_flight_.count(reply.state_->key)) {
    reply.state_->key.clear(); // do not disturb the request that owns this id
    return reply.fail({Failure::Kind::bad_request,
                       "a request with id " + dump_json(msg.id) + " is already in flight"});
  }
  in_flight_[reply.state_->key] = reply.state_;
  if (!initialized_ && msg.method != "initialize")
    return reply.fail(
        {Failure::Kind::not_initialized, "server not initialized: send initialize first"});
  if (shutdown_)
    return reply.fail(
        {Failure::Kind::bad_request, "the server is shut down: only exit is accepted"});
  for (const RequestBinding &b : kRequests)
    if (b.method && msg.method == b.method) return dispatch(b.method, b.handler, msg.params, reply);
  reply.fail({Failure::Kind::method_not_found, "method not found: " + msg.method});
}

void LspServer::dispatch(const char *method, RequestHandler handler, const json &params,
                         Reply reply) {
  try {
    (this->*handler)(params, reply);
  } catch (const Failure &f) {
    reply.fail(f);
  } catch (const std::exception &e) {
    log("error", std::string(method) + ": " + e.what());
    reply.fail({Failure::Kind::internal, std::string("internal error: ") + e.what()});
  }
}

// workspace/executeCommand: the command's first argument is its params.
void LspServer::on_execute_command(const json &params, Reply reply) {
  FieldReader r(params);
  std::string command;
  json args = json::array(), token;
  r.required("command", &command);
  r.optional("arguments", &args);
  r.optional("workDoneToken", &token);
  if (!r.ok()) return reply.fail(Failure::bad_params(r.error()));
  if (!args.is_array()) return reply.fail(Failure::bad_params("params.arguments must be an array"));
  json first = args.empty() ? json::object() : args[0];
  // The request's progress token goes to the command (hotlines.loadProfile reports progress).
  if (!token.is_null() && first.is_object()) first["workDoneToken"] = token;
  for (const RequestBinding &b : kRequests)
    if (b.command && command == b.command) return dispatch(b.command, b.handler, first, reply);
  reply.fail(Failure::bad_params("unknown command '" + command + "'"));
}

void LspServer::handle_eof() {
  if (exiting_) return;
  log("info", "end of input");
  exiting_ = true;
  exit_code_ = shutdown_ ? 0 : 1;
  finish_if_done();
}

void LspServer::handle_signal(int signum) {
  if (finished_) return;
  log("info", "signal " + std::to_string(signum) + ": exiting");
  exiting_ = true;
  exit_code_ = 128 + signum;
  for (auto &[key, weak] : in_flight_)
    if (auto s = weak.lock()) s->cancelled = true;
  finish_if_done();
}

void LspServer::finish_if_done() {
  if (!exiting_ || finished_ || runs_still_running() || work_->pending() > 0) return;
  finished_ = true;
  if (watcher_) watcher_->close_all();
  if (view_server_) view_server_->close();
  if (on_finished) on_finished(exit_code_);
}

void LspServer::on_initialize(const InitializeParams &params, Reply reply) {
  if (initialized_)
    return reply.fail({Failure::Kind::bad_request, "initialize may only be sent once"});
  init_ = params;
  initialized_ = true;
  if (init_.initialization_options.is_object()) {
    auto it = init_.initialization_options.find("logToClient");
    log_to_client_ =
        it != init_.initialization_options.end() && it->is_boolean() && it->get<bool>();
    it = init_.initialization_options.find("clientCommands");
    client_commands_ =
        it != init_.initialization_options.end() && it->is_boolean() && it->get<bool>();
    it = init_.initialization_options.find("annotationsChanged");
    notify_annotations_ =
        it != init_.initialization_options.end() && it->is_boolean() && it->get<bool>();
  }
  std::vector<std::string> commands, hotlines_requests;
  for (const RequestBinding &b : kRequests) {
    if (b.command) commands.push_back(b.command);
    if (b.method && std::string_view(b.method).rfind("hotlines/", 0) == 0)
      hotlines_requests.push_back(b.method);
  }
  std::sort(hotlines_requests.begin(), hotlines_requests.end());
  reply({{"capabilities", server_capabilities(commands, hotlines_requests)},
         {"serverInfo", {{"name", "hotlines"}, {"version", HOTLINES_VERSION}}}});
  apply_settings(init_.initialization_options);
  rebuild_workspace();
}

void LspServer::on_initialized(const json &) {
  log("info", "client initialized");
}

void LspServer::on_shutdown(const json &, Reply reply) {
  shutdown_ = true;
  reply(nullptr);
}

void LspServer::on_exit(const json &) {
  exiting_ = true;
  exit_code_ = shutdown_ ? 0 : 1;
  for (auto &[key, weak] : in_flight_)
    if (auto s = weak.lock()) s->cancelled = true;
  finish_if_done();
}

void LspServer::on_cancel_request(const json &params) {
  if (!params.is_object() || !params.contains("id")) return;
  auto it = in_flight_.find(dump_json(params["id"]));
  if (it == in_flight_.end()) return; // already answered
  if (auto s = it->second.lock()) s->cancelled = true;
}

void LspServer::on_set_trace(const json &params) {
  if (params.is_object() && params.contains("value") && params["value"].is_string())
    init_.trace = params["value"].get<std::string>();
}

} // namespace hotlines
