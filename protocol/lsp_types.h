// LSP lifecycle types the server uses: initialize params with the client capabilities
// flattened to the bits hotlines acts on, and the server capabilities it advertises.
#pragma once

#include "protocol/jsonrpc.h"

#include <string>
#include <vector>

namespace hotlines {

struct ClientCapabilities {
  bool work_done_progress = false;    // window.workDoneProgress
  bool show_document = false;         // window.showDocument.support
  bool inlay_hint_refresh = false;    // workspace.inlayHint.refreshSupport
  bool code_lens_refresh = false;     // workspace.codeLens.refreshSupport
  bool configuration = false;         // workspace.configuration
  bool watched_files_dynamic = false; // workspace.didChangeWatchedFiles.dynamicRegistration
};

struct WorkspaceFolder {
  std::string uri, name;
};

struct InitializeParams {
  std::string root_uri; // rootUri, else rootPath as a file URI, else ""
  std::vector<WorkspaceFolder> workspace_folders;
  json initialization_options; // null when absent
  ClientCapabilities capabilities;
  std::string trace = "off";
  std::string client_name;
};

// Returns an error message (for -32602) or "" on success.
std::string parse_params(const json &params, InitializeParams *out);

// `params.textDocument.uri` of a textDocument/* message, or "" when absent or not a string.
std::string text_document_uri(const json &params);

// The `capabilities` object of the initialize result. `commands` are the executeCommand ids,
// `requests` the hotlines/* methods (listed under experimental.hotlines.requests).
json server_capabilities(const std::vector<std::string> &commands,
                         const std::vector<std::string> &requests);

} // namespace hotlines
