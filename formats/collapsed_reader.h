// Collapsed stacks reader: what async-profiler, jfrconv and FlameGraph's stackcollapse tools
// write. One sample per line, `frame;frame;…;frame COUNT`, root first.
#pragma once

#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

LoadResult read_collapsed(std::string_view text, const LoadOptions &options = {});

} // namespace hotlines
