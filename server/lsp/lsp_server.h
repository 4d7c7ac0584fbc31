// The language server: the JSON-RPC surface (one binding table for every request, command
// and notification), the LSP lifecycle, cancellation, and the handlers, each a short
// translation of params into calls on the Session (session.h) and the query engine.
// Threading: every member runs on the loop thread; handlers hand heavy work to LoopWork and
// answer from its `done` callback. Each request is answered exactly once (Reply).
#pragma once

#include "protocol/hotlines_types.h"
#include "protocol/jsonrpc.h"
#include "protocol/lsp_types.h"
#include "protocol/run_types.h"
#include "server/lsp/failure.h"
#include "server/lsp/file_watcher.h"
#include "server/lsp/http_server.h"
#include "server/lsp/loop_work.h"
#include "server/lsp/session.h"
#include "server/runs/run_manager.h"

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
  // SIGTERM, SIGINT or SIGHUP: stop runs and work, then finish with 128 + signum.
  void handle_signal(int signum);
  // Called once, when the server is done (after `exit`, or end of input) and no work is left.
  std::function<void(int exit_code)> on_finished;
  // Bytes written to the client but not yet taken by it (the transport's queue); runs' output
  // is dropped, with a count, while this is over kRunOutputBacklog. Unset: never.
  std::function<size_t()> send_backlog;
  static constexpr size_t kRunOutputBacklog = size_t(8) << 20;

  // Answers one request exactly once; copies share the state. If no copy replied when the
  // last one goes away, the request gets an internal error. Loop thread only.
  class Reply {
  public:
    Reply(LspServer *server, json id);
    void operator()(const json &result) const;
    // Answers with the failure's error; a request the client cancelled is answered -32800
    // whatever failed.
    void fail(const Failure &failure) const;
    // The outcome's result, or its failure.
    void answer(const Outcome &outcome) const;
    bool cancelled() const;
    const std::atomic<bool> *cancel_flag() const;

  private:
    friend class LspServer;
    struct State;
    std::shared_ptr<State> state_;
  };

  using RequestHandler = void (LspServer::*)(const json &params, Reply reply);
  using NotificationHandler = void (LspServer::*)(const json &params);

private:
  // The whole surface (lsp_server.cc): a request's method, its workspace/executeCommand name
  // (the first argument is its params), either may be null.
  struct RequestBinding {
    const char *method;
    const char *command;
    RequestHandler handler;
  };
  struct NotificationBinding {
    const char *method;
    NotificationHandler handler;
  };
  static const RequestBinding kRequests[];
  static const NotificationBinding kNotifications[];
  // A handler taking `P`, parsed by parse_params(json, P*): a parse failure is -32602 here.
  template <typename P, void (LspServer::*H)(const P &, Reply)>
  void typed(const json &params, Reply reply);
  // Runs a request's handler; a Failure or exception it throws becomes the answer.
  void dispatch(const char *method, RequestHandler handler, const json &params, Reply reply);

  void send_notification(std::string_view method, const json &params);
  // A request to the client; `done` gets the result, or the error object (result null).
  using ClientReply = std::function<void(const json &result, const json &error)>;
  void send_request(std::string_view method, const json &params, ClientReply done = {});
  void show_message(int type, const std::string &message); // window/showMessage
  void log(std::string_view level, const std::string &message);
  void finish_if_done();
  // True while profiled runs are still running; once exiting, kills them first (lsp_runs.cc).
  bool runs_still_running();

  // Lifecycle (lsp_server.cc)
  void on_initialize(const InitializeParams &params, Reply reply);
  void on_initialized(const json &params);
  void on_shutdown(const json &params, Reply reply);
  void on_exit(const json &params);
  void on_cancel_request(const json &params);
  void on_set_trace(const json &params);
  void on_execute_command(const json &params, Reply reply);

  // Profiles (lsp_profiles.cc)
  void on_load_profile(const LoadProfileParams &params, Reply reply);
  void on_profiles(const json &params, Reply reply);
  void on_hot_methods(const HotMethodsParams &params, Reply reply);
  void on_unload_profile(const json &params, Reply reply);
  // Runs `query` on a worker against `lp` and answers with its outcome; stale answers
  // (profile reloaded meanwhile) become ContentModified.
  void run_query(const LoadedProfile &lp, Reply reply, std::function<Outcome()> query);
  // Loads (or reloads) a profile on a worker; `done` gets the stored profile or the failure.
  using LoadDone = std::function<void(const LoadedProfile *lp, const Failure *failure)>;
  void load_profile(const std::string &path, const json &work_done_token,
                    const std::atomic<bool> *cancel, LoadDone done);
  // A loaded profile goes into the store: watched, answered, announced.
  void finish_load(const std::string &path, std::shared_ptr<const ProfileIndex> index,
                   std::shared_ptr<const FileFunctions> files,
                   std::shared_ptr<const ProfileResolution> resolution, const std::string &warning,
                   const LoadDone &done);
  void reload_profile(const std::string &id);
  std::string resolve_workspace_path(const std::string &path) const;

  // Query requests (lsp_queries.cc)
  void on_events(const json &params, Reply reply);
  void on_threads(const json &params, Reply reply);
  void on_flame_graph(const json &params, Reply reply);
  void on_call_tree(const json &params, Reply reply);
  void on_callers(const json &params, Reply reply);
  void on_callees(const json &params, Reply reply);
  void on_timeline(const json &params, Reply reply);
  void on_diff(const json &params, Reply reply);
  void on_tree(const json &params, Reply reply, const char *kind);
  // The session view with the request's overrides (event, measure, threads, from/to, hide,
  // include, exclude, noIdle); throws bad_params.
  View request_view(const LoadedProfile &lp, const json &params) const;

  // Documents and configuration (lsp_documents.cc)
  void on_did_open(const json &params);
  void on_did_change(const json &params);
  void on_did_close(const json &params);
  void on_did_save(const json &params);
  void on_did_change_configuration(const json &params);
  void on_did_change_watched_files(const json &params);
  void apply_settings(const json &settings);

  // Source resolution (lsp_sources.cc)
  void rebuild_workspace(); // index the roots on a worker, then resolve
  void workspace_ready();   // the latest index build ended: runs after_workspace_
  void resolve_profile(const std::string &id); // (re)resolve one profile on a worker
  void workspace_file_event(const std::string &path, bool removed);
  void on_resolve_frame(const json &params, Reply reply);
  void on_resolution_report(const json &params, Reply reply);
  void on_workspace_symbol(const json &params, Reply reply);
  // The profile's resolution; throws `failed` when no workspace is indexed.
  static const ProfileResolution &resolution_of(const LoadedProfile &lp);

  // The flame graph view served on loopback (lsp_view.cc)
  void on_open_view(const json &params, Reply reply);
  void on_flame_document(const json &params, Reply reply);
  bool start_view_server(std::string *error);
  std::string view_url(const std::string &profile_id) const;
  void serve_view(const HttpServer::Request &req, HttpServer::Respond respond);
  void serve_view_open(const LoadedProfile &lp, const HttpServer::Request &req,
                       HttpServer::Respond respond);

  // Annotations (lsp_annotations.cc) and hover (lsp_hover.cc)
  void on_file_annotations(const FileAnnotationsParams &params, Reply reply);
  void on_inlay_hint(const json &params, Reply reply);
  void on_code_lens(const json &params, Reply reply);
  // The code lenses of `uri`: `run_lenses` ("Profile" on tests) then the heat lenses.
  void code_lenses(const std::string &uri, json run_lenses, Reply reply);
  void on_hover(const json &params, Reply reply);
  void on_select_event(const json &params, Reply reply);
  void on_select_threads(const json &params, Reply reply);
  void on_select_states(const json &params, Reply reply);
  void on_set_window(const json &params, Reply reply);
  void on_set_baseline(const json &params, Reply reply);
  // After a load, reload, unload or view change: drop cached heat, ask clients to refresh
  // inlay hints and code lenses, re-publish diagnostics.
  void annotations_changed();
  void publish_diagnostics(const std::string &uri);

  // Runs (lsp_runs.cc): hotlines/run, cancelRun, listJvms, testsInFile
  void on_run(const RunParams &params, Reply reply);
  void on_cancel_run(const CancelRunParams &params, Reply reply);
  void on_list_jvms(const ListJvmsParams &params, Reply reply);
  void on_tests_in_file(const TestsInFileParams &params, Reply reply);
  // The tests and Java main methods of a document (its open text, else the file on disk),
  // each with hotlines/run params that profile it: for hotlines/testsInFile and "Profile"
  // code lenses. Found on a worker, which also reads the file (a regular file only: a FIFO
  // must not block anyone); `done` runs on the loop thread, with `error` set when the file
  // cannot be read.
  using TestsDone = std::function<void(const TestsInFileResult &result, const std::string &error)>;
  void tests_in_file(const std::string &uri, TestsDone done);
  // A planned run's start (loop thread), its end (the files it wrote are looked at on a
  // worker), and the hotlines/runFinished notification after the profile it wrote loaded.
  void start_run(const std::string &id, const std::string &recipe, int64_t timeout_ms,
                 const RunPlan &plan, Reply reply);
  void finish_run(const std::string &id, const RunPlan &plan, const RunOutcome &outcome);
  void report_run(const std::string &id, const RunPlan &plan, const RunOutcome &outcome,
                  bool written);
  RunManager &runs();
  std::string workspace_root() const;

  LoopWork *work_;
  Options options_;
  Send send_;
  Session session_;
  std::unique_ptr<RunManager> runs_;                             // created on first use
  std::map<std::string, std::weak_ptr<Reply::State>> in_flight_; // by dump_json(id)
  std::map<std::string, std::vector<json>> published_;           // URIs with diagnostics
  std::unique_ptr<FileWatcher> watcher_;    // loaded profile files (watchProfiles)
  std::unique_ptr<HttpServer> view_server_; // hotlines/openView, started on first use
  std::string view_token_;
  // The functions of the data document last served per profile id (name, resolved path or
  // why not), for the page's "open" posts, which name a function by its index there; `index`
  // tells a reloaded profile apart.
  struct ViewFunction {
    std::string name, path, why;
  };
  struct ServedFunctions {
    std::weak_ptr<const ProfileIndex> index;
    std::vector<ViewFunction> functions;
  };
  std::map<std::string, ServedFunctions> view_functions_;
  uint64_t workspace_builds_ = 0; // builds started (a newer one wins)
  bool workspace_building_ = false;
  std::vector<std::function<void()>> after_workspace_; // run when the index build in flight ends
  int64_t next_client_request_ = 1;
  std::map<std::string, ClientReply> client_requests_; // by dump_json(id)
  InitializeParams init_;
  bool initialized_ = false, shutdown_ = false, exiting_ = false, finished_ = false;
  bool log_to_client_ = false;
  bool client_commands_ = false;    // initializationOptions.clientCommands: lens commands run
  bool notify_annotations_ = false; // initializationOptions.annotationsChanged
  int exit_code_ = 1;
};

} // namespace hotlines
