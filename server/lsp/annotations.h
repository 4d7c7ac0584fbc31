// The LSP server's answers over the query engine that do not depend on the session: hot
// methods with both measures per row, and the hotlines/fileAnnotations result of a file's
// heat mapped through the editor's document. Pure; any thread.
#pragma once

#include "protocol/hotlines_types.h"
#include "server/engine/profile_index.h"
#include "server/lsp/file_heat.h"
#include "server/sources/text_document.h"

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

// The fileAnnotations result of `heat`, its lines mapped into `doc` (null: the file as
// profiled). Lines deleted in the document are left out. With a baseline, `delta` is the
// change of the line's self share of the value (`by_value`) or of the sample count.
FileAnnotationsResult annotations_result(const FileHeat &heat, const TextDocument *doc,
                                         bool by_value);

} // namespace hotlines
