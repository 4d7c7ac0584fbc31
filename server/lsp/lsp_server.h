// The language server: JSON-RPC dispatch (one binding table for the whole surface), the LSP
// lifecycle, cancellation and the handlers. The query core knows nothing of this class.
// Threading: every member runs on the loop thread; handlers hand heavy work to LoopWork and
// answer from its `done` callback. Each request is answered exactly once (Reply).
#pragma once

#include "protocol/jsonrpc.h"
#include "protocol/lsp_types.h"
#include "protocol/run_types.h"
#include "server/lsp/annotation_text.h"
#include "server/lsp/file_heat.h"
#include "server/lsp/file_watcher.h"
#include "server/lsp/http_server.h"
#include "server/lsp/loop_work.h"
#include "server/lsp/profile_store.h"
#include "server/lsp/server_config.h"
#include "server/runs/run_manager.h"
#include "server/sources/source_resolver.h"
#include "server/sources/text_document.h"

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
  // A request to the client; `done` gets the result, or the error object (result null).
  using ClientReply = std::function<void(const json &result, const json &error)>;
  void send_request(std::string_view method, const json &params, ClientReply done = {});
  void show_message(int type, const std::string &message); // window/showMessage
  void log(std::string_view level, const std::string &message);
  void finish_if_done();
  // True while profiled runs are still running; once exiting, kills them first (lsp_runs.cc).
  bool runs_still_running();

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
  void on_execute_command(const json &params, Reply reply);
  // Helpers: each answers the request with an error when it returns null/false.
  const LoadedProfile *find_profile(const std::string &id, const Reply &reply);
  bool check_event(const Profile &profile, const std::string &event, const Reply &reply);
  // Runs `query` on a worker against `lp` and answers with its JSON ({"error": …} fails);
  // stale answers (profile reloaded meanwhile) become ContentModified.
  void run_query(const LoadedProfile &lp, Reply reply, std::function<json()> query);
  // Loads (or reloads) a profile on a worker; `done` gets the stored profile or the error.
  using LoadDone = std::function<void(const LoadedProfile *lp, const RpcError *error)>;
  void load_profile(const std::string &path, const json &work_done_token,
                    const std::atomic<bool> *cancel, LoadDone done);
  // A loaded profile goes into the store: watched, answered, announced.
  void finish_load(const std::string &path, std::shared_ptr<const ProfileIndex> index,
                   std::shared_ptr<const FileFunctions> files,
                   std::shared_ptr<const ProfileResolution> resolution, const std::string &warning,
                   const LoadDone &done);
  void load_request(const std::string &path, const json &work_done_token, Reply reply);
  void reload_profile(const std::string &id);
  std::string resolve_workspace_path(const std::string &path) const;
  void on_unload_profile(const json &params, Reply reply);

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
  // The session view with the request's overrides; false after answering with the error.
  bool request_view(const LoadedProfile &lp, const json &params, View *view, const Reply &reply);

  // Documents and configuration (lsp_documents.cc)
  void on_did_open(const json &params);
  void on_did_change(const json &params);
  void on_did_close(const json &params);
  void on_did_save(const json &params);
  void on_did_change_configuration(const json &params);
  void on_did_change_watched_files(const json &params);
  void apply_settings(const json &settings);
  // The open document of a URI, or null.
  const TextDocument *document(const std::string &uri) const;

  // Source resolution (lsp_sources.cc)
  void rebuild_workspace(); // index the roots on a worker, then resolve
  void workspace_ready();   // the latest index build ended: runs after_workspace_
  void resolve_profile(const std::string &id); // (re)resolve one profile on a worker
  void workspace_file_event(const std::string &path, bool removed);
  void on_resolve_frame(const json &params, Reply reply);
  void on_resolution_report(const json &params, Reply reply);
  void on_workspace_symbol(const json &params, Reply reply);

  // The flame graph view served on loopback (lsp_view.cc)
  void on_open_view(const json &params, Reply reply);
  void on_flame_document(const json &params, Reply reply);
  bool start_view_server(std::string *error);
  std::string view_url(const std::string &profile_id) const;
  void serve_view(const HttpServer::Request &req, HttpServer::Respond respond);

  // Annotations (lsp_annotations.cc)
  void on_file_annotations(const json &params, Reply reply);
  void on_inlay_hint(const json &params, Reply reply);
  void on_code_lens(const json &params, Reply reply);
  void on_hover(const json &params, Reply reply); // lsp_hover.cc
  void on_select_event(const json &params, Reply reply);
  void on_select_threads(const json &params, Reply reply);
  void on_set_window(const json &params, Reply reply);
  void on_set_baseline(const json &params, Reply reply);
  // The session view (configuration + per-request event) for a profile; false after
  // answering the request with the error.
  bool session_view(const LoadedProfile &lp, const std::string &event, View *view,
                    const Reply *reply, std::string *error = nullptr);
  // Calls `use` with the heat of a file under the session view for the active profile
  // (null heat when no profile is loaded); computes on a worker on first use, then cached.
  using HeatUse = std::function<void(const LoadedProfile *lp, std::shared_ptr<const FileHeat>,
                                     const std::string &error)>;
  void with_heat(const std::string &uri, const std::string &profile_id, const std::string &event,
                 const std::atomic<bool> *cancel, HeatUse use);
  HeatText heat_text(const FileHeat &heat) const;
  // After a load, reload, unload or view change: drop cached heat, ask clients to refresh
  // inlay hints and code lenses, re-publish diagnostics.
  void annotations_changed();
  void publish_diagnostics(const std::string &uri);

  // ---- Runs (lsp_runs.cc): hotlines/run, cancelRun, listJvms, testsInFile ----
  void on_run(const json &params, Reply reply);
  void on_cancel_run(const json &params, Reply reply);
  void on_list_jvms(const json &params, Reply reply);
  void on_tests_in_file(const json &params, Reply reply);
  // The tests and Java main methods of a document (its open text, else the file on disk),
  // each with hotlines/run params that profile it: for hotlines/testsInFile and "Profile"
  // code lenses. False with *error when the file cannot be read.
  bool tests_in_file(const std::string &uri, TestsInFileResult *result, std::string *error);
  void finish_run(const std::string &id, const RunPlan &plan, const RunOutcome &outcome);
  RunManager &runs();
  std::string workspace_root() const;
  std::unique_ptr<RunManager> runs_; // created on first use
  // ---- end of Runs ----

  LoopWork *work_;
  Options options_;
  Send send_;
  std::map<std::string, RequestHandler> requests_;
  std::map<std::string, NotificationHandler> notifications_;
  std::map<std::string, std::weak_ptr<Reply::State>> in_flight_; // by id.dump()
  std::vector<std::string> commands_;
  ProfileStore profiles_;
  ServerConfig config_;
  std::map<std::string, TextDocument> documents_;               // open documents by URI
  std::map<std::string, std::shared_ptr<const FileHeat>> heat_; // by profile, view, path
  std::map<std::string, std::vector<json>> published_;          // URIs with diagnostics
  std::string baseline_id_;
  std::shared_ptr<const SourceResolver> resolver_; // null until the first index is built
  std::unique_ptr<FileWatcher> watcher_;           // loaded profile files (watchProfiles)
  std::unique_ptr<HttpServer> view_server_;        // hotlines/openView, started on first use
  std::string view_token_;
  uint64_t workspace_builds_ = 0; // builds started (a newer one wins)
  bool workspace_building_ = false;
  std::vector<std::function<void()>> after_workspace_; // run when the index build in flight ends
  int64_t next_client_request_ = 1;
  std::map<std::string, ClientReply> client_requests_; // by id.dump()
  InitializeParams init_;
  bool initialized_ = false, shutdown_ = false, exiting_ = false, finished_ = false;
  bool log_to_client_ = false;
  bool client_commands_ = false;    // initializationOptions.clientCommands: lens commands run
  bool notify_annotations_ = false; // initializationOptions.annotationsChanged
  int exit_code_ = 1;
};

} // namespace hotlines
