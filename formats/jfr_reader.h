// JFR reader: async-profiler and JDK Flight Recorder files (uncompressed; gzip is handled
// by the loader) into the profile model.
#pragma once

#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

LoadResult read_jfr(std::string_view data, const LoadOptions &options = {});

} // namespace hotlines
