// LspServer: what editors draw from a file's heat — inlay hints at hot lines, code lenses
// above profiled methods, hint diagnostics and hotlines/fileAnnotations — and the commands
// that change the session view (selectEvent, selectThreads, setWindow, setBaseline). The heat
// comes from Session::heat (computed on a worker, cached per profile, view and file); lines
// follow unsaved edits. Hover is in lsp_hover.cc, workspace symbols in lsp_sources.cc.
#include "protocol/json_fields.h"
#include "server/engine/line_keys.h"
#include "server/engine/query_tree.h"
#include "server/engine/view_spec.h"
#include "server/lsp/annotations.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/sources/source_scan.h"

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

void LspServer::on_file_annotations(const FileAnnotationsParams &p, Reply reply) {
  const LoadedProfile &lp = session_.profile(p.profile_id);
  Session::check_event(*lp.profile, p.event);
  session_.heat(p.uri, &lp, p.event, reply.cancel_flag(),
                [this, reply, p](const LoadedProfile *lp, std::shared_ptr<const FileHeat> heat,
                                 const Failure *failure) {
                  if (failure) return reply.fail(*failure);
                  FileAnnotationsResult r = annotations_result(*heat, session_.document(p.uri),
                                                               session_.config.by_value());
                  r.uri = p.uri;
                  r.profile_id = lp->id;
                  reply(to_json(r));
                });
}

void LspServer::on_inlay_hint(const json &params, Reply reply) {
  std::string uri = text_document_uri(params);
  if (uri.empty()) throw Failure::bad_params("params.textDocument.uri is required");
  int64_t from = 0, to = INT64_MAX;
  if (params.contains("range")) {
    FieldReader range(params["range"], "params.range");
    FieldReader start(range.object("start"), "params.range.start"),
        end(range.object("end"), "params.range.end");
    start.optional("line", &from, 0, INT64_MAX);
    end.optional("line", &to, 0, INT64_MAX);
    for (const FieldReader *r : {&range, &start, &end})
      if (!r->ok()) throw Failure::bad_params(r->error());
  }
  session_.heat(
      uri, session_.profiles.latest(), "", reply.cancel_flag(),
      [this, reply, uri, from, to](const LoadedProfile *, std::shared_ptr<const FileHeat> heat,
                                   const Failure *failure) {
        if (failure) return reply.fail(*failure);
        json hints = json::array();
        if (!heat) return reply(hints);
        const ServerConfig &config = session_.config;
        const TextDocument *doc = session_.document(uri);
        HeatText t = session_.heat_text(*heat);
        FileAnnotationsResult r = annotations_result(*heat, doc, config.by_value());
        HeatText bt = t; // shares of the baseline's total
        if (heat->baseline) bt.view_total = heat->baseline->view_total;
        for (const LineAnnotation &l : r.lines) {
          double shown = std::max(shown_share(t, l.self), shown_share(t, l.total));
          if (l.has_baseline)
            shown = std::max(
                {shown, shown_share(bt, l.baseline_self), shown_share(bt, l.baseline_total)});
          if (shown < config.min_percent) continue;
          int64_t line = l.line - 1;
          if (line < from || line > to) continue;
          int64_t end = doc && line < static_cast<int64_t>(doc->lines().size())
                            ? TextDocument::utf16_length(doc->lines()[line])
                            : 0;
          std::string tip = self_total_text(t, l.self, l.total);
          std::string label = line_label(t, l.self, l.total, l.heat, config.min_percent);
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
  if (uri.empty()) throw Failure::bad_params("params.textDocument.uri is required");
  // With runLenses: "Profile" above every test, main method and test class of the file
  // (hotlines/testsInFile, found on a worker), in that order.
  if (!session_.config.run_lenses) return code_lenses(uri, json::array(), reply);
  tests_in_file(uri, [this, uri, reply](const TestsInFileResult &tests, const std::string &error) {
    json run_lenses = json::array();
    if (error.empty()) {
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
    code_lenses(uri, std::move(run_lenses), reply);
  });
}

void LspServer::code_lenses(const std::string &uri, json run_lenses, Reply reply) {
  session_.heat(
      uri, session_.profiles.latest(), "", reply.cancel_flag(),
      [this, reply, uri, run_lenses](const LoadedProfile *lp, std::shared_ptr<const FileHeat> heat,
                                     const Failure *failure) {
        if (failure) return reply.fail(*failure);
        json lenses = run_lenses;
        if (!heat) return reply(lenses);
        const TextDocument *doc = session_.document(uri);
        const SourceScan scan = doc ? scan_source(doc->lines(), extension_of(uri)) : SourceScan{};
        HeatText t = session_.heat_text(*heat);
        for (const HeatFunction &f : heat->functions) {
          if (shown_share(t, f.total) < session_.config.min_percent) continue;
          int32_t first = f.first_line > 0 ? f.first_line - 1 : 0;
          int32_t cur = doc ? doc->current_line(first) : first;
          if (cur < 0) continue;
          int32_t decl = declaration_above(scan, f.name, cur + 1) - 1;
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
  if (!session_.config.diagnostics || session_.profiles.all().empty()) {
    if (published_.erase(uri))
      send_notification("textDocument/publishDiagnostics",
                        {{"uri", uri}, {"diagnostics", json::array()}});
    return;
  }
  session_.heat(
      uri, session_.profiles.latest(), "", nullptr,
      [this, uri](const LoadedProfile *, std::shared_ptr<const FileHeat> heat,
                  const Failure *failure) {
        const ServerConfig &config = session_.config;
        if (failure || !config.diagnostics || exiting_) return;
        const TextDocument *doc = session_.document(uri);
        json diags = json::array();
        if (heat) {
          HeatText t = session_.heat_text(*heat);
          for (const LineAnnotation &l : annotations_result(*heat, doc, config.by_value()).lines) {
            if (shown_share(t, l.self) < config.min_percent) continue;
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
  session_.forget_heat();
  if (exiting_) return;
  if (init_.capabilities.inlay_hint_refresh) send_request("workspace/inlayHint/refresh", nullptr);
  if (init_.capabilities.code_lens_refresh) send_request("workspace/codeLens/refresh", nullptr);
  if (notify_annotations_) send_notification("hotlines/annotationsChanged", json::object());
  std::vector<std::string> uris;
  for (const auto &[uri, doc] : session_.documents) uris.push_back(uri);
  for (const auto &[uri, d] : published_)
    if (!session_.documents.count(uri)) uris.push_back(uri);
  for (const std::string &uri : uris) publish_diagnostics(uri);
}

void LspServer::on_select_event(const json &params, Reply reply) {
  FieldReader r(params);
  std::string event;
  r.required("event", &event);
  if (!r.ok()) throw Failure::bad_params(r.error());
  if (const LoadedProfile *lp = session_.profiles.latest())
    Session::check_event(*lp->profile, event);
  session_.config.event = event;
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_select_threads(const json &params, Reply reply) {
  json threads;
  FieldReader r(params);
  r.optional("threads", &threads);
  if (!r.ok()) throw Failure::bad_params(r.error());
  ConfigChange ch = apply_config(json{{"threads", threads}}, &session_.config);
  if (!ch.errors.empty()) throw Failure::bad_params(ch.errors[0]);
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_select_states(const json &params, Reply reply) {
  json states;
  FieldReader r(params);
  r.optional("states", &states);
  if (!r.ok()) throw Failure::bad_params(r.error());
  ConfigChange ch = apply_config(json{{"states", states}}, &session_.config);
  if (!ch.errors.empty()) throw Failure::bad_params(ch.errors[0]);
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_set_window(const json &params, Reply reply) {
  ServerConfig next = session_.config;
  ConfigChange ch = apply_config(json{{"window", params}}, &next);
  if (!ch.errors.empty()) throw Failure::bad_params(ch.errors[0]);
  if (const LoadedProfile *lp = session_.profiles.latest()) {
    std::swap(next, session_.config);
    View view;
    Failure failure;
    bool ok = session_.view(*lp, "", &view, &failure);
    std::swap(next, session_.config);
    if (!ok) throw failure;
  }
  session_.config = next;
  annotations_changed();
  reply(nullptr);
}

void LspServer::on_set_baseline(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id;
  r.optional("profileId", &id);
  if (!r.ok()) throw Failure::bad_params(r.error());
  if (!id.empty()) session_.profile(id);
  session_.baseline_id = id;
  annotations_changed();
  reply(nullptr);
}

} // namespace hotlines
