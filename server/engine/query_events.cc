// Event listing (see query_events.h).
// Threading: Pure function; any thread.
#include "server/engine/query_events.h"

#include "server/engine/units.h"
#include "server/engine/view_weights.h"

#include <algorithm>

namespace hotlines {

std::string EventRow::sources_text() const {
  std::string out;
  for (std::string_view s : sources) out += (out.empty() ? "" : ",") + std::string(s);
  return out;
}

std::string EventRow::states_text() const {
  std::string out;
  for (const StateRow &s : states)
    out += (out.empty() ? "" : ", ") + std::string(s.name.empty() ? "(none)" : s.name) + " " +
           std::to_string(s.count) + " (" + format_pct(percent(s.count, count)) + ")";
  return out;
}

namespace {
// The event's thread states with samples, most samples first.
std::vector<StateRow> state_rows(const Profile &p, const Event &e) {
  std::vector<StateRow> rows;
  for (size_t s = 0; s < e.states.size(); s++)
    if (e.states[s].samples)
      rows.push_back(
          StateRow{p.str(p.states[s]), e.states[s].samples, e.states[s].count, e.states[s].value});
  std::stable_sort(rows.begin(), rows.end(),
                   [](const StateRow &a, const StateRow &b) { return a.count > b.count; });
  return rows;
}
} // namespace

std::vector<EventRow> list_events(const Profile &p) {
  std::vector<EventRow> out;
  for (EventId e = 0; e < p.events.size(); e++) {
    const Event &ev = p.events[e];
    EventRow r;
    r.id = e;
    r.name = p.str(ev.name);
    r.unit = p.str(ev.unit);
    r.count_label = p.str(ev.count_label);
    r.value_label = p.str(ev.value_label);
    for (StringId s : ev.sources) r.sources.push_back(p.str(s));
    r.count = ev.total_count;
    r.value = ev.total_value;
    r.samples = ev.samples.size();
    r.stackless = ev.stackless;
    r.rule = p.str(ev.rule);
    r.states = state_rows(p, ev);
    r.has_time = ev.samples.has_time();
    r.is_default = static_cast<int>(e) == p.metadata.default_event;
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace hotlines
