// LspServer handlers for loading profiles and the first queries: hotlines/loadProfile,
// hotlines/profiles, hotlines/hotMethods and workspace/executeCommand. Loading and queries
// run on worker threads; answers are sent from the loop thread.
#include "formats/loader.h"
#include "protocol/hotlines_types.h"
#include "protocol/json_fields.h"
#include "server/lsp/annotations.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/sources/resolution_report.h"

namespace hotlines {

namespace {

ProfileSummary summarize(const LoadedProfile &lp) {
  const Profile &p = *lp.profile;
  ProfileSummary s;
  s.profile_id = lp.id;
  s.path = lp.path;
  s.format = p.metadata.format;
  s.producer = p.metadata.producer;
  for (const Event &e : p.events)
    s.events.push_back(
        {std::string(p.str(e.name)), std::string(p.str(e.unit)), e.total_count, e.total_value});
  if (!p.events.empty())
    s.default_event = std::string(p.str(p.events[p.metadata.default_event].name));
  s.threads = static_cast<int64_t>(p.threads.size());
  s.samples = static_cast<int64_t>(p.sample_count());
  s.duration_ns = p.metadata.duration_ns;
  for (const LoadWarning &w : p.metadata.warnings)
    s.warnings.push_back({w.message, w.offset, w.line});
  return s;
}

} // namespace

void LspServer::on_load_profile(const json &params, Reply reply) {
  LoadProfileParams p;
  std::string err = parse_load_profile_params(params, &p);
  if (!err.empty()) return reply.error(kInvalidParams, err);
  load_request(resolve_workspace_path(p.path), p.work_done_token, reply);
}

std::string LspServer::resolve_workspace_path(const std::string &path) const {
  std::string root = init_.root_uri;
  if (root.empty() && !init_.workspace_folders.empty()) root = init_.workspace_folders[0].uri;
  return absolute_path(path, root);
}

void LspServer::load_request(const std::string &path, const json &token, Reply reply) {
  load_profile(path, token, reply.cancel_flag(),
               [this, reply](const LoadedProfile *lp, const RpcError *e) {
                 if (e) return reply.error(e->code, e->message, e->data);
                 reply(to_json(summarize(*lp)));
               });
}

void LspServer::reload_profile(const std::string &id) {
  const LoadedProfile *lp = profiles_.find(id);
  if (!lp) return;
  load_profile(lp->path, nullptr, nullptr,
               [this, path = lp->path](const LoadedProfile *, const RpcError *e) {
                 if (e)
                   log("warning",
                       "reload of " + path + " failed; the loaded profile stays: " + e->message);
               });
}

void LspServer::load_profile(const std::string &path, const json &token,
                             const std::atomic<bool> *cancel, LoadDone done) {
  struct Job {
    LoadResult result;
    std::shared_ptr<const ProfileIndex> index;
    std::shared_ptr<const FileFunctions> files;
    std::shared_ptr<const ProfileResolution> resolution;
    std::string warning; // most hot frames fail to resolve
    std::atomic<int> percent{0};
  };
  auto job = std::make_shared<Job>();
  const bool progress = !token.is_null();
  if (progress)
    send_notification("$/progress", {{"token", token},
                                     {"value",
                                      {{"kind", "begin"},
                                       {"title", "Loading profile"},
                                       {"message", path},
                                       {"cancellable", true},
                                       {"percentage", 0}}}});
  LoadOptions options;
  options.cancel = cancel;
  if (progress) {
    options.progress = [this, job, token](double fraction) {
      int pct = static_cast<int>(fraction * 100);
      if (pct <= job->percent.exchange(pct)) return;
      work_->post([this, token, pct] {
        send_notification("$/progress",
                          {{"token", token}, {"value", {{"kind", "report"}, {"percentage", pct}}}});
      });
    };
  }
  log("info", "loading " + path);
  work_->queue(
      [job, path, options, resolver = resolver_] {
        job->result = load_profile_file(path, options);
        if (!job->result.ok() || options.cancelled()) return;
        // The precomputed unfiltered views make the frequent queries lookups.
        job->index = ProfileIndex::build(
            std::shared_ptr<const Profile>(std::move(job->result.profile)), options.cancel);
        if (!job->index) return;
        job->files = std::make_shared<FileFunctions>(*job->index);
        if (resolver) {
          job->resolution =
              ProfileResolution::build(job->index->shared_profile(), *resolver, options.cancel);
          if (job->resolution) job->warning = resolution_warning(*job->index, *job->resolution);
        }
      },
      [this, job, path, token, progress, cancel, done] {
        if (progress)
          send_notification("$/progress", {{"token", token}, {"value", {{"kind", "end"}}}});
        if ((cancel && cancel->load()) || (job->result.error.empty() && !job->index)) {
          log("info", "load of " + path + " cancelled");
          RpcError e{kRequestCancelled, "request cancelled", nullptr};
          done(nullptr, &e);
        } else if (!job->result.error.empty()) {
          const LoadResult &r = job->result;
          log("error", r.describe());
          json data = {{"path", path}};
          if (r.error_offset >= 0) data["offset"] = r.error_offset;
          if (r.error_line >= 0) data["line"] = r.error_line;
          RpcError e{kRequestFailed, "cannot load profile: " + r.describe(), data};
          done(nullptr, &e);
        } else {
          // The answer comes with sources: a workspace indexed during the load (or being
          // indexed now) resolves the profile first.
          auto finish = [this, job, path, done] {
            finish_load(path, job->index, job->files, job->resolution, job->warning, done);
            finish_if_done();
          };
          auto resolve = [this, job, finish] {
            if (!resolver_ || exiting_) return finish();
            work_->queue(
                [job, resolver = resolver_] {
                  job->resolution =
                      ProfileResolution::build(job->index->shared_profile(), *resolver);
                  if (job->resolution)
                    job->warning = resolution_warning(*job->index, *job->resolution);
                },
                finish);
          };
          if (job->resolution || exiting_) return finish();
          if (workspace_building_) return after_workspace_.push_back(resolve);
          return resolve();
        }
        finish_if_done();
      });
}

void LspServer::on_unload_profile(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id;
  r.required("profileId", &id);
  if (!r.ok()) return reply.error(kInvalidParams, r.error());
  const LoadedProfile *gone = profiles_.find(id);
  if (!gone) return reply.error(kInvalidParams, "unknown profileId '" + id + "'");
  if (watcher_) watcher_->unwatch(gone->path);
  profiles_.remove(id);
  if (baseline_id_ == id) baseline_id_.clear();
  log("info", "unloaded " + id);
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_profiles(const json &, Reply reply) {
  json list = json::array();
  for (const auto &[id, lp] : profiles_.all()) list.push_back(to_json(summarize(lp)));
  reply({{"profiles", list}});
}

const LoadedProfile *LspServer::find_profile(const std::string &id, const Reply &reply) {
  const LoadedProfile *lp = id.empty() ? profiles_.latest() : profiles_.find(id);
  if (!lp)
    reply.error(kInvalidParams,
                id.empty() ? "no profile is loaded" : "unknown profileId '" + id + "'");
  return lp;
}

bool LspServer::check_event(const Profile &p, const std::string &event, const Reply &reply) {
  if (event.empty() || p.find_event(event) >= 0) return true;
  std::string names;
  for (const Event &e : p.events) names += (names.empty() ? "" : ", ") + std::string(p.str(e.name));
  reply.error(kInvalidParams, "unknown event '" + event + "'; the profile has: " + names);
  return false;
}

void LspServer::finish_load(const std::string &path, std::shared_ptr<const ProfileIndex> index,
                            std::shared_ptr<const FileFunctions> files,
                            std::shared_ptr<const ProfileResolution> resolution,
                            const std::string &warning, const LoadDone &done) {
  bool reloaded = false;
  for (const auto &[id, other] : profiles_.all()) reloaded |= other.path == path;
  const LoadedProfile &lp = profiles_.put(path, std::move(index), std::move(files), resolution);
  log("info", (reloaded ? "reloaded " : "loaded ") + path + " as " + lp.id);
  json summary = to_json(summarize(lp));
  // Watch before answering: a client may rewrite the file as soon as it has the answer.
  if (config_.watch_profiles && !exiting_) {
    if (!watcher_)
      watcher_ = std::make_unique<FileWatcher>(work_->loop(), [this](const std::string &p) {
        for (const auto &[id, other] : profiles_.all())
          if (other.path == p && config_.watch_profiles && !exiting_) {
            log("info", p + " changed on disk: reloading");
            return reload_profile(id);
          }
      });
    std::string werr;
    if (!watcher_->watch(path, &werr)) log("warning", werr);
  }
  done(&lp, nullptr);
  if (!exiting_) {
    send_notification(reloaded ? "hotlines/profileChanged" : "hotlines/profileLoaded", summary);
    annotations_changed();
    if (!warning.empty()) show_message(2, "hotlines: " + warning);
  }
  // Indexed since (or never resolved): resolve now.
  if (!resolution && resolver_) resolve_profile(lp.id);
}

void LspServer::run_query(const LoadedProfile &lp, Reply reply, std::function<json()> query) {
  auto result = std::make_shared<json>();
  std::string id = lp.id;
  uint64_t generation = lp.generation;
  work_->queue([result, query = std::move(query)] { *result = query(); },
               [this, result, reply, id, generation] {
                 const LoadedProfile *now = profiles_.find(id);
                 if (reply.cancelled())
                   reply.error(kRequestCancelled, "request cancelled");
                 else if (!now || now->generation != generation)
                   reply.error(kContentModified, "the profile was reloaded or unloaded; ask again");
                 else if (result->is_object() && result->contains("error"))
                   reply.error(kRequestFailed, (*result)["error"].get<std::string>());
                 else
                   reply(*result);
                 finish_if_done();
               });
}

void LspServer::on_hot_methods(const json &params, Reply reply) {
  HotMethodsParams p;
  std::string err = parse_hot_methods_params(params, &p);
  if (!err.empty()) return reply.error(kInvalidParams, err);
  const LoadedProfile *lp = find_profile(p.profile_id, reply);
  if (!lp || !check_event(*lp->profile, p.event, reply)) return;
  run_query(*lp, reply,
            [index = lp->index, p, id = lp->id, cancel = reply.cancel_flag()]() -> json {
              auto r = hot_methods(*index, p, cancel);
              if (!r.error.empty()) return {{"error", r.error}};
              r.result.profile_id = id;
              return to_json(r.result);
            });
}

void LspServer::on_execute_command(const json &params, Reply reply) {
  FieldReader r(params);
  std::string command;
  json args = json::array(), token;
  r.required("command", &command);
  r.optional("arguments", &args);
  r.optional("workDoneToken", &token);
  if (!r.ok()) return reply.error(kInvalidParams, r.error());
  if (!args.is_array()) return reply.error(kInvalidParams, "params.arguments must be an array");
  json first = args.empty() ? json::object() : args[0];
  if (command == "hotlines.loadProfile") {
    LoadProfileParams p;
    std::string err = parse_load_profile_params(first, &p);
    if (!err.empty()) return reply.error(kInvalidParams, "arguments[0]: " + err);
    return load_request(resolve_workspace_path(p.path), token.is_null() ? p.work_done_token : token,
                        reply);
  }
  if (command == "hotlines.unloadProfile") return on_unload_profile(first, reply);
  if (command == "hotlines.selectEvent") return on_select_event(first, reply);
  if (command == "hotlines.selectThreads") return on_select_threads(first, reply);
  if (command == "hotlines.setWindow") return on_set_window(first, reply);
  if (command == "hotlines.setBaseline") return on_set_baseline(first, reply);
  if (command == "hotlines.openView") return on_open_view(first, reply);
  if (command == "hotlines.hotMethods") return on_hot_methods(first, reply);
  if (command == "hotlines.fileAnnotations") return on_file_annotations(first, reply);
  if (command == "hotlines.run") return on_run(first, reply);
  if (command == "hotlines.cancelRun") return on_cancel_run(first, reply);
  reply.error(kInvalidParams, "unknown command '" + command + "'");
}

} // namespace hotlines
