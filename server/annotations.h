// The LSP server's answers over the query engine that do not depend on the session: hot
// methods with both measures per row, the recorded file keys of the profile that match a
// workspace path, and the hotlines/fileAnnotations result of a file's heat mapped through
// the editor's document. Pure; any thread.
#pragma once

#include "protocol/hotlines_types.h"
#include "server/file_heat.h"
#include "server/profile_index.h"
#include "server/text_document.h"

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

template <typename T> struct Answer {
  T result;
  std::string error;
};

Answer<HotMethodsResult> hot_methods(const ProfileIndex &index, const HotMethodsParams &params,
                                     const std::atomic<bool> *cancel);

// The recorded file keys that name `path`: the ones sharing the most trailing path
// components with it (the whole key for JVM keys like `org/acme/shop/Pricing.java`; for
// path keys at least the file and its folder).
std::vector<std::string> file_keys_for_path(const LineKeys &keys, std::string_view path);

// The recorded file keys a user's `--file NAME` names: the key itself when recorded, else the
// keys that end with all of its path components (`Pricing.java`, `shop/Pricing.java`).
std::vector<std::string> recorded_keys_named(const LineKeys &keys, std::string_view name);

// The fileAnnotations result of `heat`, its lines mapped into `doc` (null: the file as
// profiled). Lines deleted in the document are left out. With a baseline, `delta` is the
// change of the line's self share of the value (`by_value`) or of the sample count.
FileAnnotationsResult annotations_result(const FileHeat &heat, const TextDocument *doc,
                                         bool by_value);

// How many trailing path components `path` and the recorded `key` share.
size_t common_trailing_components(std::string_view path, std::string_view key);

} // namespace hotlines
