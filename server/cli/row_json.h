// The JSON of rows that several commands print: the self and total fields of a weighted row
// (hot, lines, tree, info), an event (events, info) and a thread group (threads, info).
// Pure functions; the CLI's main thread.
#pragma once

#include "server/cli/input.h"
#include "server/engine/query_events.h"
#include "server/engine/query_threads.h"

#include <cstdint>

namespace hotlines {

// Adds self, self_pct, total and total_pct (percent of the view's total) to `row`.
void add_weight_json(Json &row, const ViewWeights &view, int64_t self, int64_t total);

// name, unit, count, value, samples, has_time, default.
// An event's thread states: [{name, samples, count, value}].
Json states_json(const std::vector<StateRow> &states);
Json event_json(const EventRow &event);

// name, threads (how many), weight, pct (of `view_total`).
Json thread_group_json(const ThreadRow &row, int64_t view_total);

} // namespace hotlines
