// Reader of V8 CPU profiles (.cpuprofile: `node --cpu-prof`, Chrome DevTools, VS Code's
// JavaScript debugger). The call tree (`nodes`, or an old `head`) gives the stacks, `samples`
// and `timeDeltas` (or old `timestamps`) the samples and their times: event cpu, count 1 per
// sample, value the sample's duration in ns (until the next sample; the last one until
// `endTime`), as DevTools' timeline draws them. A function's samples land on the lines of its
// `positionTicks` (V8's per-line hit counts; which sample hit which line V8 does not record,
// so the samples take the lines in time order, in the order V8 lists them: line counts are
// exact); other frames sit on their function's first line. `(root)` is not a frame;
// `(program)`, `(idle)` and `(garbage collector)` are native frames. Frames of scripts with a
// source map land on the original source (v8_call_tree.h). Pure function of its input and the
// scripts on disk; thread-safe.
#pragma once

#include "formats/load_result.h"
#include "formats/v8_call_tree.h"

#include <string_view>

namespace hotlines {

LoadResult read_cpuprofile(std::string_view data, const LoadOptions &options = {});

// A parsed .cpuprofile's `startTime` (V8 µs, a monotonic clock shared by the processes of one
// machine); false when it has none.
bool cpuprofile_start(const JsonDoc &doc, int64_t *start_us);

// Adds a parsed .cpuprofile's samples to `b` on `thread`, their times counted from `origin_us`
// (the earliest start of the profiles merged; its own start alone).
V8Error add_cpuprofile(ProfileBuilder &b, V8Frames &frames, const JsonDoc &doc, ThreadId thread,
                       int64_t origin_us, const LoadOptions &options);

} // namespace hotlines
