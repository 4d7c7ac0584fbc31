// `hotlines events FILE`: the events a profile holds (cpu, wall, alloc, lock, ...), their
// sample counts and values with units, and which one is the default.
// Threading: Runs on the CLI's main thread.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/row_json.h"
#include "server/cli/text_table.h"
#include "server/engine/query_events.h"
#include "server/engine/units.h"

#include <cstdio>

namespace hotlines {

namespace {

int run(const CliFlags &f) {
  CliInput in;
  if (!in.load(f.files[0], f)) return kExitInput;
  Json rows = Json::array();
  TextTable t({{"event", TextTable::left},
               {"count", TextTable::right},
               {"value", TextTable::right},
               {"unit", TextTable::left},
               {"time", TextTable::left},
               {"sources", TextTable::left}});
  for (const EventRow &e : list_events(in.index().profile())) {
    rows.push_back(event_json(e));
    t.add({std::string(e.name) + (e.is_default ? " *" : ""), std::to_string(e.count),
           format_weight(e.value, e.unit), unit_label(e.unit), e.has_time ? "yes" : "no",
           e.sources_text()});
  }
  if (f.json) {
    Json j;
    j["command"] = "events";
    j["file"] = in.path();
    j["events"] = rows;
    print_json(j);
  } else {
    fputs((t.render() + "(* the default event)\n").c_str(), stdout);
  }
  return kExitOk;
}

} // namespace

const CliCommand kEventsCommand{
    "events", "events FILE", "the profile's events with counts, values and units", {}, 1, 1, run};

} // namespace hotlines
