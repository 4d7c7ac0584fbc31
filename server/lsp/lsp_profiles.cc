// LspServer handlers for loading profiles and the first queries: hotlines/loadProfile,
// unloadProfile, profiles and hotMethods, and run_query, which runs any query on a worker.
// Loading and queries run on worker threads; answers are sent from the loop thread.
#include "formats/loader.h"
#include "protocol/hotlines_types.h"
#include "protocol/json_fields.h"
#include "server/lsp/annotations.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/sources/resolution_report.h"

#include <new>

namespace hotlines {

namespace {

ProfileSummary summarize(const LoadedProfile &lp) {
  const Profile &p = *lp.profile;
  ProfileSummary s;
  s.profile_id = lp.id;
  s.path = lp.path;
  s.format = p.metadata.format;
  s.producer = p.metadata.producer;
  for (const Event &e : p.events) {
    EventSummary es{
        std::string(p.str(e.name)), std::string(p.str(e.unit)), e.total_count, e.total_value, {}};
    for (size_t st = 1; st < e.states.size(); st++)
      if (e.states[st].samples) es.states.emplace_back(p.str(p.states[st]));
    s.events.push_back(std::move(es));
  }
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

void LspServer::on_load_profile(const LoadProfileParams &p, Reply reply) {
  load_profile(resolve_workspace_path(p.path), p.work_done_token, reply.cancel_flag(),
               [reply](const LoadedProfile *lp, const Failure *failure) {
                 if (failure) return reply.fail(*failure);
                 reply(to_json(summarize(*lp)));
               });
}

std::string LspServer::resolve_workspace_path(const std::string &path) const {
  std::string root = init_.root_uri;
  if (root.empty() && !init_.workspace_folders.empty()) root = init_.workspace_folders[0].uri;
  return absolute_path(path, root);
}

void LspServer::reload_profile(const std::string &id) {
  const LoadedProfile *lp = session_.profiles.find(id);
  if (!lp) return;
  load_profile(lp->path, nullptr, nullptr,
               [this, path = lp->path](const LoadedProfile *, const Failure *failure) {
                 if (failure)
                   log("warning", "reload of " + path +
                                      " failed; the loaded profile stays: " + failure->message);
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
  options.limits = session_.config.load_limits();
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
      [job, path, options, resolver = session_.resolver] {
        job->result = load_profile_file(path, options);
        if (!job->result.ok() || options.cancelled()) return;
        // The precomputed unfiltered views make the frequent queries lookups; a profile too
        // big for them fails the load, as one too big to read does.
        try {
          job->index = ProfileIndex::build(
              std::shared_ptr<const Profile>(std::move(job->result.profile)), options.cancel);
        } catch (const std::bad_alloc &) {
          job->result = LoadResult::failure(path + ": out of memory while indexing the profile");
          return;
        }
        if (!job->index) return;
        job->files = std::make_shared<FileFunctions>(*job->index);
        if (resolver) {
          job->resolution =
              ProfileResolution::build(job->index->shared_profile(), *resolver, options.cancel);
          if (job->resolution) job->warning = resolution_warning(*job->index, *job->resolution);
        }
      },
      [this, job, path, token, progress, cancel, done](const Failure *thrown) {
        if (progress)
          send_notification("$/progress", {{"token", token}, {"value", {{"kind", "end"}}}});
        if (thrown) {
          log("error", "loading " + path + ": " + thrown->message);
          done(nullptr, thrown);
        } else if ((cancel && cancel->load()) || (job->result.error.empty() && !job->index)) {
          log("info", "load of " + path + " cancelled");
          Failure cancelled = Failure::cancelled();
          done(nullptr, &cancelled);
        } else if (!job->result.error.empty()) {
          const LoadResult &r = job->result;
          log("error", r.describe());
          json data = {{"path", path}};
          if (r.error_offset >= 0) data["offset"] = r.error_offset;
          if (r.error_line >= 0) data["line"] = r.error_line;
          Failure failed = Failure::failed("cannot load profile: " + r.describe(), data);
          done(nullptr, &failed);
        } else {
          // The answer comes with sources: a workspace indexed during the load (or being
          // indexed now) resolves the profile first.
          auto finish = [this, job, path, done] {
            finish_load(path, job->index, job->files, job->resolution, job->warning, done);
            finish_if_done();
          };
          auto resolve = [this, job, path, finish] {
            if (!session_.resolver || exiting_) return finish();
            work_->queue(
                [job, resolver = session_.resolver] {
                  job->resolution =
                      ProfileResolution::build(job->index->shared_profile(), *resolver);
                  if (job->resolution)
                    job->warning = resolution_warning(*job->index, *job->resolution);
                },
                [this, job, path, finish](const Failure *thrown) {
                  if (thrown) { // loaded all the same, with its sources unresolved
                    log("error", "resolving " + path + ": " + thrown->message);
                    job->resolution = nullptr;
                    job->warning.clear();
                  }
                  finish();
                });
          };
          if (job->resolution || exiting_) return finish();
          if (workspace_building_) return after_workspace_.push_back(resolve);
          return resolve();
        }
      });
}

void LspServer::on_unload_profile(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id;
  r.required("profileId", &id);
  if (!r.ok()) throw Failure::bad_params(r.error());
  const LoadedProfile *gone = session_.profiles.find(id);
  if (!gone) throw Failure::bad_params("unknown profileId '" + id + "'");
  if (watcher_) watcher_->unwatch(gone->path);
  session_.profiles.remove(id);
  if (session_.baseline_id == id) session_.baseline_id.clear();
  log("info", "unloaded " + id);
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_profiles(const json &, Reply reply) {
  json list = json::array();
  for (const auto &[id, lp] : session_.profiles.all()) list.push_back(to_json(summarize(lp)));
  reply({{"profiles", list}});
}

void LspServer::finish_load(const std::string &path, std::shared_ptr<const ProfileIndex> index,
                            std::shared_ptr<const FileFunctions> files,
                            std::shared_ptr<const ProfileResolution> resolution,
                            const std::string &warning, const LoadDone &done) {
  bool reloaded = false;
  for (const auto &[id, other] : session_.profiles.all()) reloaded |= other.path == path;
  const LoadedProfile &lp =
      session_.profiles.put(path, std::move(index), std::move(files), resolution);
  log("info", (reloaded ? "reloaded " : "loaded ") + path + " as " + lp.id);
  json summary = to_json(summarize(lp));
  // Watch before answering: a client may rewrite the file as soon as it has the answer.
  if (session_.config.watch_profiles && !exiting_) {
    if (!watcher_)
      watcher_ = std::make_unique<FileWatcher>(work_->loop(), [this](const std::string &p) {
        for (const auto &[id, other] : session_.profiles.all())
          if (other.path == p && session_.config.watch_profiles && !exiting_) {
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
  if (!resolution && session_.resolver) resolve_profile(lp.id);
}

void LspServer::run_query(const LoadedProfile &lp, Reply reply, std::function<Outcome()> query) {
  auto outcome = std::make_shared<Outcome>(nullptr);
  work_->queue(
      [outcome, query = std::move(query)] { *outcome = query(); },
      [this, outcome, reply, id = lp.id, generation = lp.generation](const Failure *thrown) {
        if (thrown) return reply.fail(*thrown);
        const LoadedProfile *now = session_.profiles.find(id);
        if (!reply.cancelled() && (!now || now->generation != generation))
          return reply.fail(Failure::stale());
        reply.answer(*outcome);
      });
}

void LspServer::on_hot_methods(const HotMethodsParams &p, Reply reply) {
  const LoadedProfile &lp = session_.profile(p.profile_id);
  Session::check_event(*lp.profile, p.event);
  Session::check_method(lp, FunctionGrouping::name, "query", p.query);
  run_query(lp, reply,
            [index = lp.index, p, id = lp.id, cancel = reply.cancel_flag()]() -> Outcome {
              auto r = hot_methods(*index, p, cancel);
              if (!r.error.empty()) return Failure::failed(r.error);
              r.result.profile_id = id;
              return to_json(r.result);
            });
}

} // namespace hotlines
