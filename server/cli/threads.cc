// `hotlines threads FILE`: threads by weight; names that differ only in a trailing number
// are grouped (`pool-1-thread-*`) unless --no-group.
// Threading: Runs on the CLI's main thread; filtered views use both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/row_json.h"
#include "server/cli/text_table.h"
#include "server/engine/query_events.h"
#include "server/engine/query_threads.h"
#include "server/engine/units.h"

#include <cstdio>

namespace hotlines {

namespace {
const FlagSpec kExtra[] = {
    {"no-group", 0, false, "one row per thread instead of grouping numbered names"},
};

int run(const CliFlags &f) {
  CliInput in;
  if (!in.load(f.files[0], f)) return kExitInput;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.view(f, &v)) return rc; // validates the flags; the header describes the view
  View view;
  std::string err;
  make_view(f, in.index(), &view, &err);
  ThreadsResult r = thread_weights(in.index(), view, !f.has("no-group"));
  if (!r.error.empty()) return cli_fail(kExitInput, r.error, f.json);
  const std::string unit(v->unit());
  size_t top = f.top.value_or(0);
  Json rows = Json::array();
  TextTable t({{"weight", TextTable::right},
               {"pct", TextTable::right},
               {"threads", TextTable::right},
               {"tid", TextTable::right},
               {"name", TextTable::left}});
  size_t shown = 0;
  for (const ThreadRow &row : r.rows) {
    if (top && shown >= top) break;
    if (f.min_pct && percent(row.weight, r.view_total) < *f.min_pct) continue;
    shown++;
    Json jr = thread_group_json(row, r.view_total);
    if (row.members.size() == 1) {
      jr["os_tid"] = row.os_tid;
      jr["java_tid"] = row.java_tid;
    }
    rows.push_back(jr);
    t.add({format_weight(row.weight, unit), format_pct(percent(row.weight, r.view_total)),
           std::to_string(row.members.size()),
           row.members.size() == 1 && row.os_tid >= 0 ? std::to_string(row.os_tid) : "", row.name});
  }
  // The thread states of the event's samples, whatever the view selects (--state picks them).
  const std::vector<EventRow> events = list_events(in.index().profile());
  const EventRow &ev = events[v->event];
  if (f.json) {
    Json j;
    j["command"] = "threads";
    j["view"] = view_json(*v, in.path());
    j["grouped"] = !f.has("no-group");
    j["threads"] = rows;
    j["states"] = states_json(ev.states);
    print_json(j);
  } else {
    std::string text = view_header(*v, in.path()) + t.render();
    if (!ev.states.empty())
      text += "thread states of " + std::string(ev.name) + " samples: " + ev.states_text() + "\n";
    fputs(text.c_str(), stdout);
  }
  return kExitOk;
}

} // namespace

const CliCommand kThreadsCommand{"threads",
                                 "threads FILE [-e EVENT] [--no-group] [--top N]",
                                 "threads (grouped pool-1-thread-* style) by weight",
                                 kExtra,
                                 1,
                                 1,
                                 run};

} // namespace hotlines
