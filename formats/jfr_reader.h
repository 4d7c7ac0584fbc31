// JFR reader: async-profiler and JDK Flight Recorder files (uncompressed; gzip is handled
// by the loader) into the profile model.
#pragma once

#include "formats/file_reader.h"
#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

// From bytes in memory.
LoadResult read_jfr(std::string_view data, const LoadOptions &options = {});
// From an open file, read chunk by chunk into reused buffers (the file is never in memory
// whole); a file that changes while it is read is an error.
LoadResult read_jfr_file(const RegularFile &file, const LoadOptions &options = {});

} // namespace hotlines
