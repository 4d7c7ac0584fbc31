// Reader of V8 sampling heap profiles (.heapprofile: `node --heap-prof`, DevTools' allocation
// sampling): the nested call tree from `head` as event alloc, one row per node with bytes, value
// its `selfSize` (what DevTools shows) and count the `samples` ({size, nodeId, ordinal}) naming
// it (at least 1). V8 writes samples and tree from different moments: samples naming nodes the
// tree lacks are left out with a warning. What V8 reports are the sampled allocations still
// live when the profile was taken (unless its producer asked to keep collected ones: the file
// does not say). No times. Frames as in the .cpuprofile reader (v8_call_tree.h), on their
// function's first line. Thread-safe.
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
