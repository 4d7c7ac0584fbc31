// LSP lifecycle types (see lsp_types.h).
#include "protocol/lsp_types.h"

#include "protocol/json_fields.h"

namespace hotlines {

namespace {
bool flag(const json &caps, std::initializer_list<const char *> path) {
  const json *j = &caps;
  for (const char *k : path) {
    if (!j->is_object()) return false;
    auto it = j->find(k);
    if (it == j->end()) return false;
    j = &*it;
  }
  return j->is_boolean() && j->get<bool>();
}
} // namespace

std::string parse_params(const json &params, InitializeParams *out) {
  FieldReader r(params);
  std::string root_path;
  r.optional("rootUri", &out->root_uri);
  r.optional("rootPath", &root_path);
  r.optional("initializationOptions", &out->initialization_options);
  r.optional("trace", &out->trace);
  const json &info = r.object("clientInfo");
  const json &caps = r.object("capabilities");
  if (!r.ok()) return r.error();
  if (info.is_object() && info.contains("name") && info["name"].is_string())
    out->client_name = info["name"].get<std::string>();
  if (out->root_uri.empty() && !root_path.empty()) out->root_uri = "file://" + root_path;
  if (auto it = params.find("workspaceFolders"); it != params.end() && it->is_array()) {
    for (const json &f : *it) {
      FieldReader fr(f, "params.workspaceFolders[]");
      WorkspaceFolder w;
      fr.required("uri", &w.uri);
      fr.optional("name", &w.name);
      if (!fr.ok()) return fr.error();
      out->workspace_folders.push_back(w);
    }
  }
  ClientCapabilities &c = out->capabilities;
  c.work_done_progress = flag(caps, {"window", "workDoneProgress"});
  c.show_document = flag(caps, {"window", "showDocument", "support"});
  c.inlay_hint_refresh = flag(caps, {"workspace", "inlayHint", "refreshSupport"});
  c.code_lens_refresh = flag(caps, {"workspace", "codeLens", "refreshSupport"});
  c.configuration = flag(caps, {"workspace", "configuration"});
  c.watched_files_dynamic =
      flag(caps, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  return {};
}

std::string text_document_uri(const json &params) {
  if (!params.is_object() || !params.contains("textDocument")) return {};
  const json &td = params["textDocument"];
  if (!td.is_object() || !td.contains("uri") || !td["uri"].is_string()) return {};
  return td["uri"].get<std::string>();
}

json server_capabilities(const std::vector<std::string> &commands,
                         const std::vector<std::string> &requests) {
  return {
      {"textDocumentSync",
       {{"openClose", true}, {"change", 2}, {"save", {{"includeText", false}}}}},
      {"inlayHintProvider", true},
      {"codeLensProvider", {{"resolveProvider", false}}},
      {"hoverProvider", true},
      {"workspaceSymbolProvider", true},
      {"executeCommandProvider", {{"commands", commands}, {"workDoneProgress", true}}},
      {"experimental", {{"hotlines", {{"requests", requests}}}}},
  };
}

} // namespace hotlines
