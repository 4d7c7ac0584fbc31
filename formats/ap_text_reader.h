// Reader of async-profiler's text output (agent `traces[=N]`, `flat[=N]`, or a `.txt` file
// with both): `--- Execution profile ---`, then each distinct stack with its weight, share
// and samples (`--- 619367508 ns (20.82%), 308 samples` and `  [ 0] leaf` … root), then the
// top self functions (`ns  percent  samples  top`). Stacks make a full profile; a file with
// only the flat list makes a self-only profile (Metadata::self_only). Pure function;
// thread-safe.
#pragma once

#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

// The first line of every async-profiler text output.
bool looks_like_ap_text(std::string_view data);

LoadResult read_ap_text(std::string_view text, const LoadOptions &options = {});

} // namespace hotlines
