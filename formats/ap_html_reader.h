// Reader of async-profiler's HTML flame graph and tree pages (agent `flamegraph`/`tree`
// output, `jfrconv -o html [--tree]`): the page inlines its frame names (`const cpool`) and
// one call per flame-graph node (`f(key,level,left,width)`, `u(…)`, `n(…)`), from which every
// stack and its weight come back exactly. A heatmap page (`jfrconv -o heatmap`) is recognised
// and refused with the reason. Pure function; thread-safe.
#pragma once

#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

// An HTML document by its start (`<!DOCTYPE html` or `<html`, any case, after white space).
bool looks_like_html(std::string_view data);

LoadResult read_ap_html(std::string_view text, const LoadOptions &options = {});

} // namespace hotlines
