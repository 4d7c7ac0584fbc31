// LspServer: the standard LSP features any editor shows — inlay hints at hot lines, code
// lenses above profiled methods, hover with every event's numbers and the line's callers and
// callees, hint diagnostics, workspace symbols for hot methods — plus hotlines/fileAnnotations
// and the commands that change the session view. Heat is computed per (profile, view, file) on
// a worker and cached until the profile or the view changes; lines follow unsaved edits.
#include "protocol/json_fields.h"
#include "server/engine/line_keys.h"
#include "server/engine/query_tree.h"
#include "server/engine/view_spec.h"
#include "server/lsp/annotations.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/sources/declarations.h"

#include <algorithm>
#include <optional>

namespace hotlines {

namespace {

json lsp_range(int64_t line, int64_t from, int64_t to) {
  return {{"start", {{"line", line}, {"character", from}}},
          {"end", {{"line", line}, {"character", to}}}};
}

// The share that decides whether a line or function is shown.
double shown_share(const HeatText &t, Weight w) {
  int64_t part = t.by_value ? w.value : w.count;
  int64_t whole = t.by_value ? t.view_total.value : t.view_total.count;
  return whole == 0 ? 0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

} // namespace

bool LspServer::session_view(const LoadedProfile &lp, const std::string &event, View *view,
                             const Reply *reply, std::string *error) {
  ViewSpec spec;
  spec.event = event.empty() ? config_.event : event;
  // A configured event the profile lacks falls back to the profile's default event.
  if (event.empty() && !spec.event.empty() && lp.profile->find_event(spec.event) < 0)
    spec.event.clear();
  spec.measure = config_.by_value() ? Measure::value : Measure::count;
  spec.threads = config_.threads;
  spec.from = config_.window_from;
  spec.to = config_.window_to;
  spec.hide = config_.hide;
  std::string err;
  if (make_view(spec, *lp.index, view, &err)) return true;
  err = "the view's window: " + err;
  if (reply) reply->error(kInvalidParams, err);
  if (error) *error = err;
  return false;
}

HeatText LspServer::heat_text(const FileHeat &heat) const {
  HeatText t;
  t.event = heat.event;
  t.unit = heat.unit;
  t.view_total = heat.view_total;
  t.format = config_.format;
  t.by_value = config_.by_value();
  return t;
}

void LspServer::with_heat(const std::string &uri, const std::string &profile_id,
                          const std::string &event, const std::atomic<bool> *cancel, HeatUse use) {
  const LoadedProfile *lp = profile_id.empty() ? profiles_.latest() : profiles_.find(profile_id);
  if (!lp) {
    if (!profile_id.empty()) return use(nullptr, nullptr, "unknown profileId '" + profile_id + "'");
    return use(nullptr, nullptr, {});
  }
  if (!event.empty() && lp->profile->find_event(event) < 0)
    return use(nullptr, nullptr, "unknown event '" + event + "'");
  View view;
  std::string error;
  if (!session_view(*lp, event, &view, nullptr, &error)) return use(nullptr, nullptr, error);
  std::string path = path_of_uri(uri);
  std::string key = lp->id + '\x1d' + std::to_string(lp->generation) + '\x1d' +
                    ViewCache::signature(view) + '\x1d' + path;
  // With a baseline set: the same file in the baseline profile, same view and event.
  const LoadedProfile *base =
      baseline_id_.empty() || baseline_id_ == lp->id ? nullptr : profiles_.find(baseline_id_);
  View base_view;
  if (base) {
    const Profile &p = *lp->profile;
    std::string name = view.event.empty()
                           ? std::string(p.str(p.events[p.metadata.default_event].name))
                           : view.event;
    if (base->profile->find_event(name) < 0 || !session_view(*base, name, &base_view, nullptr))
      base = nullptr;
    else
      key += '\x1d' + base->id + ':' + std::to_string(base->generation);
  }
  if (auto it = heat_.find(key); it != heat_.end()) return use(lp, it->second, {});
  struct Job {
    std::shared_ptr<const FileHeat> heat;
    std::string error;
  };
  struct Source {
    std::shared_ptr<ViewCache> views;
    std::shared_ptr<const FileFunctions> files;
    std::shared_ptr<const ProfileResolution> resolution;
    View view;
  };
  auto heat_of = [](const Source &src, const std::string &path, const std::atomic<bool> *cancel,
                    std::string *error) -> std::shared_ptr<FileHeat> {
    View count_view = src.view;
    count_view.measure = Measure::count;
    View value_view = src.view;
    value_view.measure = Measure::value;
    ViewResult v = src.views->get(value_view, cancel), c = src.views->get(count_view, cancel);
    if (!v.ok() || !c.ok()) {
      *error = v.cancelled || c.cancelled ? "cancelled" : v.ok() ? c.error : v.error;
      return nullptr;
    }
    std::vector<std::string> keys =
        recorded_keys_for_path(src.resolution.get(), src.views->index().lines(), path);
    return std::make_shared<FileHeat>(compute_file_heat(*v.weights, *c.weights, *src.files, keys));
  };
  auto job = std::make_shared<Job>();
  std::string id = lp->id;
  uint64_t generation = lp->generation;
  Source main{lp->views, lp->file_functions, lp->resolution, view};
  std::optional<Source> baseline;
  if (base) baseline = Source{base->views, base->file_functions, base->resolution, base_view};
  work_->queue(
      [job, main, baseline, heat_of, path, cancel] {
        std::shared_ptr<FileHeat> heat = heat_of(main, path, cancel, &job->error);
        if (!heat) return;
        if (baseline) {
          heat->baseline = heat_of(*baseline, path, cancel, &job->error);
          if (!heat->baseline) return;
        }
        job->heat = std::move(heat);
      },
      [this, job, id, generation, key, use] {
        const LoadedProfile *now = profiles_.find(id);
        if (!job->heat) {
          use(nullptr, nullptr, job->error);
        } else if (!now || now->generation != generation) {
          use(nullptr, nullptr, "stale");
        } else {
          heat_[key] = job->heat;
          use(now, job->heat, {});
        }
        finish_if_done();
      });
}

namespace {
// Answers a request whose heat failed; true when it did.
bool heat_failed(const LspServer::Reply &reply, const std::string &error) {
  if (error.empty()) return false;
  if (reply.cancelled() || error == "cancelled")
    reply.error(kRequestCancelled, "request cancelled");
  else if (error == "stale")
    reply.error(kContentModified, "the profile was reloaded or unloaded; ask again");
  else
    reply.error(kInvalidParams, error);
  return true;
}
} // namespace

void LspServer::on_file_annotations(const json &params, Reply reply) {
  FileAnnotationsParams p;
  std::string err = parse_file_annotations_params(params, &p);
  if (!err.empty()) return reply.error(kInvalidParams, err);
  const LoadedProfile *lp = find_profile(p.profile_id, reply);
  if (!lp || !check_event(*lp->profile, p.event, reply)) return;
  with_heat(p.uri, p.profile_id, p.event, reply.cancel_flag(),
            [this, reply, p](const LoadedProfile *lp, std::shared_ptr<const FileHeat> heat,
                             const std::string &error) {
              if (heat_failed(reply, error)) return;
              FileAnnotationsResult r =
                  annotations_result(*heat, document(p.uri), config_.by_value());
              r.uri = p.uri;
              r.profile_id = lp->id;
              reply(to_json(r));
            });
}

void LspServer::on_inlay_hint(const json &params, Reply reply) {
  std::string uri = text_document_uri(params);
  if (uri.empty()) return reply.error(kInvalidParams, "params.textDocument.uri is required");
  int64_t from = 0, to = INT64_MAX;
  if (params.contains("range") && params["range"].is_object()) {
    const json &r = params["range"];
    from = r.value("start", json::object()).value("line", int64_t{0});
    to = r.value("end", json::object()).value("line", INT64_MAX);
  }
  with_heat(uri, "", "", reply.cancel_flag(),
            [this, reply, uri, from, to](const LoadedProfile *,
                                         std::shared_ptr<const FileHeat> heat,
                                         const std::string &error) {
              if (heat_failed(reply, error)) return;
              json hints = json::array();
              if (!heat) return reply(hints);
              const TextDocument *doc = document(uri);
              HeatText t = heat_text(*heat);
              FileAnnotationsResult r = annotations_result(*heat, doc, config_.by_value());
              HeatText bt = t; // shares of the baseline's total
              if (heat->baseline) bt.view_total = heat->baseline->view_total;
              for (const LineAnnotation &l : r.lines) {
                double shown = std::max(shown_share(t, l.self), shown_share(t, l.total));
                if (l.has_baseline)
                  shown = std::max(
                      {shown, shown_share(bt, l.baseline_self), shown_share(bt, l.baseline_total)});
                if (shown < config_.min_percent) continue;
                int64_t line = l.line - 1;
                if (line < from || line > to) continue;
                int64_t end = doc && line < static_cast<int64_t>(doc->lines().size())
                                  ? TextDocument::utf16_length(doc->lines()[line])
                                  : 0;
                std::string tip = self_total_text(t, l.self, l.total);
                std::string label = line_label(t, l.self, l.total, l.heat, config_.min_percent);
                if (l.has_baseline) { // diff mode: the change of the line's self share
                  label = delta_label(t, l.delta);
                  tip = "now: " + tip +
                        "\n\nbaseline: " + self_total_text(bt, l.baseline_self, l.baseline_total);
                }
                if (l.stale) tip += "\n\n(edited since it was profiled)";
                hints.push_back({{"position", {{"line", line}, {"character", end}}},
                                 {"label", label},
                                 {"paddingLeft", true},
                                 {"tooltip", {{"kind", "markdown"}, {"value", tip}}}});
              }
              reply(hints);
            });
}

void LspServer::on_code_lens(const json &params, Reply reply) {
  std::string uri = text_document_uri(params);
  if (uri.empty()) return reply.error(kInvalidParams, "params.textDocument.uri is required");
  // With runLenses: "Profile" above every test, main method and test class of the file
  // (hotlines/testsInFile), in that order.
  json run_lenses = json::array();
  TestsInFileResult tests;
  std::string tests_error;
  if (config_.run_lenses && tests_in_file(uri, &tests, &tests_error)) {
    const json found = to_json(tests);
    for (const char *list : {"tests", "mains", "classes"})
      for (const json &t : found[list]) {
        if (t["run"].is_null()) continue;
        run_lenses.push_back({{"range", t["selectionRange"]},
                              {"command",
                               {{"title", "\u25B6 Profile " + t["name"].get<std::string>()},
                                {"command", "hotlines.run"},
                                {"arguments", json::array({t["run"]})}}}});
      }
  }
  with_heat(
      uri, "", "", reply.cancel_flag(),
      [this, reply, uri, run_lenses](const LoadedProfile *lp, std::shared_ptr<const FileHeat> heat,
                                     const std::string &error) {
        if (heat_failed(reply, error)) return;
        json lenses = run_lenses;
        if (!heat) return reply(lenses);
        const TextDocument *doc = document(uri);
        HeatText t = heat_text(*heat);
        for (const HeatFunction &f : heat->functions) {
          if (shown_share(t, f.total) < config_.min_percent) continue;
          int32_t first = f.first_line > 0 ? f.first_line - 1 : 0;
          int32_t cur = doc ? doc->current_line(first) : first;
          if (cur < 0) continue;
          int32_t decl = doc ? declaration_line(doc->lines(), cur, short_name(f.name)) : -1;
          json command = {{"title", function_title(t, f.self, f.total)},
                          {"command", client_commands_ ? "hotlines.showCallers" : ""}};
          if (client_commands_)
            command["arguments"] = json::array({{{"profileId", lp->id}, {"function", f.name}}});
          lenses.push_back(
              {{"range", lsp_range(decl >= 0 ? decl : cur, 0, 0)}, {"command", command}});
        }
        reply(lenses);
      });
}

void LspServer::publish_diagnostics(const std::string &uri) {
  if (!config_.diagnostics || profiles_.all().empty()) {
    if (published_.erase(uri))
      send_notification("textDocument/publishDiagnostics",
                        {{"uri", uri}, {"diagnostics", json::array()}});
    return;
  }
  with_heat(uri, "", "", nullptr,
            [this, uri](const LoadedProfile *, std::shared_ptr<const FileHeat> heat,
                        const std::string &error) {
              if (!error.empty() || !config_.diagnostics || exiting_) return;
              const TextDocument *doc = document(uri);
              json diags = json::array();
              if (heat) {
                HeatText t = heat_text(*heat);
                for (const LineAnnotation &l :
                     annotations_result(*heat, doc, config_.by_value()).lines) {
                  if (shown_share(t, l.self) < config_.min_percent) continue;
                  int64_t line = l.line - 1;
                  int64_t end = doc && line < static_cast<int64_t>(doc->lines().size())
                                    ? TextDocument::utf16_length(doc->lines()[line])
                                    : 0;
                  diags.push_back(
                      {{"range", lsp_range(line, 0, end)},
                       {"severity", 4},
                       {"source", "hotlines"},
                       {"message", share(t.by_value ? l.self.value : l.self.count,
                                         t.by_value ? t.view_total.value : t.view_total.count) +
                                       " of " + t.event + " " +
                                       (t.by_value && t.unit != "samples" ? t.unit : "samples")}});
                }
              }
              if (diags.empty() && !published_.count(uri)) return;
              published_[uri] = {};
              send_notification("textDocument/publishDiagnostics",
                                {{"uri", uri}, {"diagnostics", diags}});
            });
}

void LspServer::annotations_changed() {
  heat_.clear();
  if (exiting_) return;
  if (init_.capabilities.inlay_hint_refresh) send_request("workspace/inlayHint/refresh", nullptr);
  if (init_.capabilities.code_lens_refresh) send_request("workspace/codeLens/refresh", nullptr);
  if (notify_annotations_) send_notification("hotlines/annotationsChanged", json::object());
  std::vector<std::string> uris;
  for (const auto &[uri, doc] : documents_) uris.push_back(uri);
  for (const auto &[uri, d] : published_)
    if (!documents_.count(uri)) uris.push_back(uri);
  for (const std::string &uri : uris) publish_diagnostics(uri);
}

void LspServer::on_select_event(const json &params, Reply reply) {
  FieldReader r(params);
  std::string event;
  r.required("event", &event);
  if (!r.ok()) return reply.error(kInvalidParams, r.error());
  if (const LoadedProfile *lp = profiles_.latest(); lp && !check_event(*lp->profile, event, reply))
    return;
  config_.event = event;
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_select_threads(const json &params, Reply reply) {
  json threads;
  FieldReader r(params);
  r.optional("threads", &threads);
  if (!r.ok()) return reply.error(kInvalidParams, r.error());
  ConfigChange ch = apply_config(json{{"threads", threads}}, &config_);
  if (!ch.errors.empty()) return reply.error(kInvalidParams, ch.errors[0]);
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_set_window(const json &params, Reply reply) {
  ServerConfig next = config_;
  ConfigChange ch = apply_config(json{{"window", params}}, &next);
  if (!ch.errors.empty()) return reply.error(kInvalidParams, ch.errors[0]);
  if (const LoadedProfile *lp = profiles_.latest()) {
    std::swap(next, config_);
    View view;
    std::string error;
    bool ok = session_view(*lp, "", &view, nullptr, &error);
    std::swap(next, config_);
    if (!ok) return reply.error(kInvalidParams, error);
  }
  config_ = next;
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_set_baseline(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id;
  r.optional("profileId", &id);
  if (!r.ok()) return reply.error(kInvalidParams, r.error());
  if (!id.empty() && !find_profile(id, reply)) return;
  baseline_id_ = id;
  annotations_changed();
  reply(nullptr);
}

} // namespace hotlines
