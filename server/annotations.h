// The LSP server's first answers over the query engine: hot methods and the per-line
// annotations of one source file, with both measures (count and value) per row. The file is
// matched to the profile's recorded file keys by the longest common trailing path (a first
// version; the source-resolution module replaces it). Pure; any thread.
#pragma once

#include "protocol/hotlines_types.h"
#include "server/profile_index.h"

#include <atomic>
#include <string>
#include <string_view>

namespace hotlines {

template <typename T> struct Answer {
  T result;
  std::string error;
};

Answer<HotMethodsResult> hot_methods(const ProfileIndex &index, const HotMethodsParams &params,
                                     const std::atomic<bool> *cancel);

Answer<FileAnnotationsResult> file_annotations(const ProfileIndex &index,
                                               const FileAnnotationsParams &params,
                                               const std::string &path,
                                               const std::atomic<bool> *cancel);

// How many trailing path components `path` and the recorded `key` share.
size_t common_trailing_components(std::string_view path, std::string_view key);

} // namespace hotlines
