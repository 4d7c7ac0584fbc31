// Session: what one editor connection works on — the loaded profiles, the configuration, the
// open documents, the baseline, the workspace resolver and the per-file heat cache — and the
// questions the LSP handlers ask of it: which profile, which event, which view, the heat of
// a file. It speaks no JSON-RPC: failures are Failure values, and the synchronous checks throw
// them for the dispatcher to answer. Threading: loop thread only; heat is computed on a
// LoopWork worker and handed back on the loop thread.
#pragma once

#include "server/engine/view.h"
#include "server/lsp/annotation_text.h"
#include "server/lsp/failure.h"
#include "server/lsp/file_heat.h"
#include "server/lsp/loop_work.h"
#include "server/lsp/profile_store.h"
#include "server/lsp/server_config.h"
#include "server/sources/source_resolver.h"
#include "server/sources/text_document.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace hotlines {

class Session {
public:
  explicit Session(LoopWork *work) : work_(work) {}

  ProfileStore profiles;
  ServerConfig config;
  std::map<std::string, TextDocument> documents;  // open documents by URI
  std::string baseline_id;                        // hotlines.setBaseline ("" = none)
  std::shared_ptr<const SourceResolver> resolver; // null until the first index is built

  // The profile `id` ("" = the latest loaded); throws bad_params when there is none.
  const LoadedProfile &profile(const std::string &id) const;
  // Throws bad_params naming the profile's events unless `event` is "" or one of them.
  static void check_event(const Profile &profile, const std::string &event);
  // Throws bad_params ("params.FIELD: bad pattern …") unless `pattern` is "", a function's
  // label under `grouping`, or a valid NamePattern (FunctionKeys::check_method).
  static void check_method(const LoadedProfile &lp, FunctionGrouping grouping, const char *field,
                           const std::string &pattern);
  // The session view of `lp` (configuration, with `event` when not ""): false with *failure
  // (bad_params) when the configured window does not fit the profile. The throwing form is
  // for handlers.
  bool view(const LoadedProfile &lp, const std::string &event, View *out, Failure *failure) const;
  View view(const LoadedProfile &lp, const std::string &event) const;
  // The open document of a URI, or null.
  const TextDocument *document(const std::string &uri) const;

  // Calls `use` on the loop thread with the heat of the file `uri` under the session view of
  // `lp` (`event` "" = the configured one), and of the same file in the baseline profile when
  // one is set; computed on a worker on first use, then cached. `lp` null: no profile (null
  // heat). The failure is stale when `lp` was reloaded or unloaded meanwhile.
  using HeatUse = std::function<void(const LoadedProfile *lp, std::shared_ptr<const FileHeat>,
                                     const Failure *failure)>;
  void heat(const std::string &uri, const LoadedProfile *lp, const std::string &event,
            const std::atomic<bool> *cancel, HeatUse use);
  // Drops the cached heat (after a load, reload, unload or view change).
  void forget_heat() { heat_.clear(); }
  // How the heat of a file reads under the configuration (format, measure).
  HeatText heat_text(const FileHeat &heat) const;

private:
  LoopWork *work_;
  std::map<std::string, std::shared_ptr<const FileHeat>> heat_; // by profile, view, path
};

} // namespace hotlines
