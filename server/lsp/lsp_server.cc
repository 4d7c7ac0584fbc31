// LspServer: dispatch, replies, cancellation and the LSP lifecycle (see lsp_server.h).
#include "server/lsp/lsp_server.h"

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
          id, {kInternalError, "internal error: request was not answered", nullptr}));
  }
};

LspServer::Reply::Reply(LspServer *server, json id) : state_(std::make_shared<State>()) {
  state_->server = server;
  state_->key = id.dump();
  state_->id = std::move(id);
}

void LspServer::Reply::operator()(const json &result) const {
  state_->send(make_response(state_->id, result));
}

void LspServer::Reply::error(int code, std::string message, json data) const {
  state_->send(make_error_response(state_->id, {code, std::move(message), std::move(data)}));
}

bool LspServer::Reply::cancelled() const {
  return state_->cancelled.load();
}
const std::atomic<bool> *LspServer::Reply::cancel_flag() const {
  return &state_->cancelled;
}

LspServer::LspServer(LoopWork *work, Options options, Send send)
    : work_(work), options_(options), send_(std::move(send)) {
  bind_methods();
}

LspServer::~LspServer() = default;

// The whole server surface, one line per method.
void LspServer::bind_methods() {
  requests_["initialize"] = &LspServer::on_initialize;
  requests_["shutdown"] = &LspServer::on_shutdown;
  requests_["hotlines/loadProfile"] = &LspServer::on_load_profile;
  requests_["hotlines/profiles"] = &LspServer::on_profiles;
  requests_["hotlines/hotMethods"] = &LspServer::on_hot_methods;
  requests_["hotlines/fileAnnotations"] = &LspServer::on_file_annotations;
  requests_["hotlines/unloadProfile"] = &LspServer::on_unload_profile;
  requests_["hotlines/events"] = &LspServer::on_events;
  requests_["hotlines/threads"] = &LspServer::on_threads;
  requests_["hotlines/flameGraph"] = &LspServer::on_flame_graph;
  requests_["hotlines/callTree"] = &LspServer::on_call_tree;
  requests_["hotlines/callers"] = &LspServer::on_callers;
  requests_["hotlines/callees"] = &LspServer::on_callees;
  requests_["hotlines/timeline"] = &LspServer::on_timeline;
  requests_["hotlines/diff"] = &LspServer::on_diff;
  requests_["workspace/executeCommand"] = &LspServer::on_execute_command;
  requests_["textDocument/inlayHint"] = &LspServer::on_inlay_hint;
  requests_["textDocument/codeLens"] = &LspServer::on_code_lens;
  requests_["textDocument/hover"] = &LspServer::on_hover;
  requests_["workspace/symbol"] = &LspServer::on_workspace_symbol;
  requests_["hotlines/resolveFrame"] = &LspServer::on_resolve_frame;
  requests_["hotlines/openView"] = &LspServer::on_open_view;
  requests_["hotlines/flameDocument"] = &LspServer::on_flame_document;
  requests_["hotlines/resolutionReport"] = &LspServer::on_resolution_report;
  requests_["hotlines/run"] = &LspServer::on_run;
  requests_["hotlines/cancelRun"] = &LspServer::on_cancel_run;
  requests_["hotlines/listJvms"] = &LspServer::on_list_jvms;
  requests_["hotlines/testsInFile"] = &LspServer::on_tests_in_file;

  notifications_["initialized"] = &LspServer::on_initialized;
  notifications_["exit"] = &LspServer::on_exit;
  notifications_["$/cancelRequest"] = &LspServer::on_cancel_request;
  notifications_["$/setTrace"] = &LspServer::on_set_trace;
  notifications_["textDocument/didOpen"] = &LspServer::on_did_open;
  notifications_["textDocument/didChange"] = &LspServer::on_did_change;
  notifications_["textDocument/didClose"] = &LspServer::on_did_close;
  notifications_["textDocument/didSave"] = &LspServer::on_did_save;
  notifications_["workspace/didChangeConfiguration"] = &LspServer::on_did_change_configuration;
  notifications_["workspace/didChangeWatchedFiles"] = &LspServer::on_did_change_watched_files;

  commands_ = {"hotlines.loadProfile",   "hotlines.unloadProfile",   "hotlines.selectEvent",
               "hotlines.selectThreads", "hotlines.setWindow",       "hotlines.setBaseline",
               "hotlines.hotMethods",    "hotlines.fileAnnotations", "hotlines.run",
               "hotlines.cancelRun",     "hotlines.openView"};
}

void LspServer::send_notification(std::string_view method, const json &params) {
  send_(make_notification(method, params));
}

void LspServer::send_request(std::string_view method, const json &params, ClientReply done) {
  json id = "hotlines-" + std::to_string(next_client_request_++);
  if (done) client_requests_[id.dump()] = std::move(done);
  json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) msg["params"] = params;
  send_(msg.dump());
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
    auto it = client_requests_.find(msg.id.dump());
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
    auto it = notifications_.find(msg.method);
    if (it == notifications_.end()) {
      if (msg.method.rfind("$/", 0) != 0) log("debug", "ignored notification " + msg.method);
      return;
    }
    if (!initialized_ && msg.method != "exit") return; // dropped before initialize, per spec
    try {
      (this->*it->second)(msg.params);
    } catch (const std::exception &e) {
      log("error", msg.method + ": " + e.what());
    }
    return;
  }
  Reply reply(this, msg.id);
  if (exiting_) return reply.error(kInvalidRequest, "the server is exiting");
  if (in_flight_.count(reply.state_->key)) {
    reply.state_->key.clear(); // do not disturb the request that owns this id
    return reply.error(kInvalidRequest,
                       "a request with id " + msg.id.dump() + " is already in flight");
  }
  in_flight_[reply.state_->key] = reply.state_;
  auto it = requests_.find(msg.method);
  if (!initialized_ && msg.method != "initialize")
    return reply.error(kServerNotInitialized, "server not initialized: send initialize first");
  if (shutdown_)
    return reply.error(kInvalidRequest, "the server is shut down: only exit is accepted");
  if (it == requests_.end()) return reply.error(kMethodNotFound, "method not found: " + msg.method);
  try {
    (this->*it->second)(msg.params, reply);
  } catch (const std::exception &e) {
    reply.error(kInternalError, std::string("internal error: ") + e.what());
  }
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

void LspServer::on_initialize(const json &params, Reply reply) {
  if (initialized_) return reply.error(kInvalidRequest, "initialize may only be sent once");
  InitializeParams p;
  std::string err = parse_initialize_params(params, &p);
  if (!err.empty()) return reply.error(kInvalidParams, err);
  init_ = std::move(p);
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
  std::vector<std::string> hotlines_requests;
  for (const auto &[method, handler] : requests_)
    if (method.rfind("hotlines/", 0) == 0) hotlines_requests.push_back(method);
  reply({{"capabilities", server_capabilities(commands_, hotlines_requests)},
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
  auto it = in_flight_.find(params["id"].dump());
  if (it == in_flight_.end()) return; // already answered
  if (auto s = it->second.lock()) s->cancelled = true;
}

void LspServer::on_set_trace(const json &params) {
  if (params.is_object() && params.contains("value") && params["value"].is_string())
    init_.trace = params["value"].get<std::string>();
}

} // namespace hotlines
