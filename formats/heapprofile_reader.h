// Reader of V8 sampling heap profiles (.heapprofile: `node --heap-prof`, DevTools' allocation
// sampling): the nested call tree from `head`, and `samples` ({size, nodeId, ordinal}) as
// event alloc, one row per sampled allocation, value its bytes (V8 already scaled them); a
// profile without `samples` gives one row per node of its `selfSize`. No times. Frames as in
// the .cpuprofile reader (v8_call_tree.h), on their function's first line. Thread-safe.
#pragma once

#include "formats/load_result.h"
#include "formats/v8_call_tree.h"

#include <string_view>

namespace hotlines {

LoadResult read_heapprofile(std::string_view data, const LoadOptions &options = {});

// Adds a parsed .heapprofile's allocations to `b` on `thread`.
V8Error add_heapprofile(ProfileBuilder &b, V8Frames &frames, const JsonDoc &doc, ThreadId thread,
                        const LoadOptions &options);

} // namespace hotlines
