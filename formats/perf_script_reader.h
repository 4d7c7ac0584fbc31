// Reader of `perf script` text (Linux perf; what every stackcollapse-perf user has): one block
// per sample, a header line `comm pid/tid [cpu] secs.usecs: period event:` and the callchain
// leaf first, one frame a line `addr sym+off (dso)`, each optionally followed by its
// `  file:line` (-F +srcline) and with `(inlined)` frames (--inline). Samples become events by
// perf's event name (count 1, value the period: ns for cpu-clock/task-clock), threads by comm
// and tid (the pid is a sample label), times relative to the first sample; `[kernel.kallsyms]`
// frames are kernel, runs of `[unknown]` frames collapse into one. Pure function (but for the
// ELF files a DwarfLines reads); thread-safe.
#pragma once

#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

// The first sample header (after `#` comment lines) parses as perf script's.
bool looks_like_perf_script(std::string_view data);

class DwarfLines;
class LineIterator;

// `lines` set: frames that come without a srcline get their lines and inlined functions from
// DWARF (the perf.data reader; a text alone is read as it is).
LoadResult read_perf_script(std::string_view text, const LoadOptions &options = {},
                            DwarfLines *lines = nullptr);
// The same for a text read as it arrives (perf script's output): only the model is kept, not
// the text; progress comes from the samples' times within those the --header gives.
LoadResult read_perf_script(LineIterator &text, const LoadOptions &options, DwarfLines *lines);

} // namespace hotlines
