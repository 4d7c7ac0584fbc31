// pprof reader: profile.proto (uncompressed; gzip is handled by the loader) into the model.
#pragma once

#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

LoadResult read_pprof(std::string_view data, const LoadOptions &options = {});

} // namespace hotlines
