// LspServer handlers for open documents (didOpen/didChange/didClose/didSave, full and
// incremental sync) and configuration (initializationOptions, didChangeConfiguration).
// Documents keep their origin map so annotations follow unsaved edits.
#include "protocol/json_fields.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"

namespace hotlines {

namespace {

TextPosition position(const json &p) {
  TextPosition out;
  if (!p.is_object()) return out;
  if (p.contains("line") && p["line"].is_number_integer()) out.line = p["line"].get<int64_t>();
  if (p.contains("character") && p["character"].is_number_integer())
    out.character = p["character"].get<int64_t>();
  return out;
}

} // namespace

void LspServer::on_did_open(const json &params) {
  std::string uri = text_document_uri(params);
  if (uri.empty()) return log("error", "textDocument/didOpen without textDocument.uri");
  const json &td = params["textDocument"];
  std::string language = td.contains("languageId") && td["languageId"].is_string()
                             ? td["languageId"].get<std::string>()
                             : std::string();
  int64_t version = td.contains("version") && td["version"].is_number_integer()
                        ? td["version"].get<int64_t>()
                        : 0;
  std::string text =
      td.contains("text") && td["text"].is_string() ? td["text"].get<std::string>() : std::string();
  session_.documents.erase(uri);
  session_.documents.emplace(uri, TextDocument(uri, language, version, text));
  // A file created in the editor (not yet indexed) joins the workspace index.
  std::string path = path_of_uri(uri);
  if (session_.resolver && !session_.resolver->index().find(path))
    workspace_file_event(path, false);
  publish_diagnostics(uri);
}

void LspServer::on_did_change(const json &params) {
  std::string uri = text_document_uri(params);
  auto it = session_.documents.find(uri);
  if (it == session_.documents.end())
    return log("warning", "didChange for a document not open: " + uri);
  TextDocument &doc = it->second;
  const json &td = params["textDocument"];
  int64_t version = td.contains("version") && td["version"].is_number_integer()
                        ? td["version"].get<int64_t>()
                        : doc.version() + 1;
  if (!params.contains("contentChanges") || !params["contentChanges"].is_array())
    return log("error", "didChange without contentChanges");
  for (const json &change : params["contentChanges"]) {
    if (!change.is_object() || !change.contains("text") || !change["text"].is_string()) continue;
    const std::string &text = change["text"].get_ref<const std::string &>();
    if (change.contains("range") && change["range"].is_object())
      doc.apply(position(change["range"].value("start", json())),
                position(change["range"].value("end", json())), text, version);
    else
      doc.replace_all(text, version);
  }
  if (session_.config.diagnostics) publish_diagnostics(uri);
}

void LspServer::on_did_close(const json &params) {
  std::string uri = text_document_uri(params);
  session_.documents.erase(uri);
  if (published_.erase(uri))
    send_notification("textDocument/publishDiagnostics",
                      {{"uri", uri}, {"diagnostics", json::array()}});
}

void LspServer::on_did_save(const json &params) {
  // The saved text is what a new profile will describe; until then keep the mapping.
  (void)params;
}

void LspServer::on_did_change_configuration(const json &params) {
  if (!params.is_object() || !params.contains("settings")) return;
  apply_settings(params["settings"]);
}

void LspServer::on_did_change_watched_files(const json &params) {
  if (!params.is_object() || !params.contains("changes") || !params["changes"].is_array()) return;
  for (const json &c : params["changes"]) {
    if (!c.is_object() || !c.contains("uri") || !c["uri"].is_string()) continue;
    std::string path = path_of_uri(c["uri"].get<std::string>());
    int64_t type = c.contains("type") && c["type"].is_number_integer() ? c["type"].get<int64_t>()
                                                                       : 2; // 1 created, 2 changed, 3 deleted
    bool profile = false;
    for (const auto &[id, lp] : session_.profiles.all()) {
      if (lp.path != path) continue;
      profile = true;
      if (type != 3 && session_.config.watch_profiles) reload_profile(id);
    }
    if (!profile && type != 2) workspace_file_event(path, type == 3);
  }
}

void LspServer::apply_settings(const json &settings) {
  if (settings.is_null()) return;
  ConfigChange ch = apply_config(settings, &session_.config);
  for (const std::string &e : ch.errors) {
    log("error", e);
    show_message(1, "hotlines: " + e);
  }
  for (const std::string &k : ch.unknown) log("info", "ignored unknown setting " + k);
  if (ch.profiles_changed) {
    for (const std::string &p : session_.config.profiles) {
      std::string path = resolve_workspace_path(p);
      bool loaded = false;
      for (const auto &[id, lp] : session_.profiles.all()) loaded |= lp.path == path;
      if (!loaded)
        load_profile(path, nullptr, nullptr,
                     [this, path](const LoadedProfile *, const Failure *failure) {
                       if (failure) show_message(1, "hotlines: " + failure->message);
                     });
    }
  }
  if (ch.sources_changed && initialized_) rebuild_workspace();
  if (ch.view_changed || ch.annotations_changed || ch.sources_changed) annotations_changed();
}

} // namespace hotlines
