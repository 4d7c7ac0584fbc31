// Reader of Linux perf's own recording (`perf.data`, magic PERFILE2): runs `perf script` on it
// (perf on PATH; the only reader of its format that knows every kernel's records) with process
// and thread ids and periods, and reads that text with perf_script_reader.h, source lines and
// inlined functions coming from the binaries' DWARF (dwarf_lines.h). Blocking, with a child
// process: call it on a worker thread, never the server's loop thread. options.cancel kills perf;
// perf's stderr is in the error when it fails.
#pragma once

#include "formats/load_result.h"

#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

// A perf.data file (file mode) starts with the 8 bytes `PERFILE2`.
bool is_perf_data(std::string_view data);

// The perf script command read_perf_data_file runs on `path`.
std::vector<std::string> perf_script_argv(const std::string &path);

// The warning a load gives when perf script says the recording lost events ("Processed 1135
// events and lost 26 chunks!", "... lost 3.50% samples!"), from perf's stderr; "" when not.
std::string perf_lost_warning(std::string_view perf_stderr);

// Runs perf script on the file; its output is limited to options.limits.max_bytes. What perf
// says about lost events becomes a warning (perf_lost_warning), or part of the error when no
// sample is left.
LoadResult read_perf_data_file(const std::string &path, const LoadOptions &options = {});

// perf.data bytes already in memory (inflated from gzip, stdin): written to a temporary file
// first, which perf script needs.
LoadResult read_perf_data(std::string_view data, const LoadOptions &options = {});

} // namespace hotlines
