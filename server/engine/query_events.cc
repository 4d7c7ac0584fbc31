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
// The samples of an event by thread state, decoded a block at a time.
std::vector<StateRow> state_rows(const Profile &p, const SampleColumns &c) {
  if (c.state.empty()) return {};
  std::vector<StateRow> rows(p.states.size());
  int64_t state[PackedInts::kBlock], count[PackedInts::kBlock], value[PackedInts::kBlock];
  for (size_t first = 0; first < c.size(); first += PackedInts::kBlock) {
    const size_t n = std::min(c.size() - first, PackedInts::kBlock);
    c.state.decode(first, n, state);
    if (!c.count.empty()) c.count.decode(first, n, count);
    if (!c.value.empty()) c.value.decode(first, n, value);
    for (size_t i = 0; i < n; i++) {
      StateRow &r = rows[static_cast<size_t>(state[i])];
      const int64_t k = c.count.empty() ? 1 : count[i];
      r.samples++;
      r.count = saturating_add(r.count, k);
      r.value = saturating_add(r.value, c.value.empty() ? k : value[i]);
    }
  }
  for (size_t s = 0; s < rows.size(); s++) rows[s].name = p.str(p.states[s]);
  std::erase_if(rows, [](const StateRow &r) { return r.samples == 0; });
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
    r.states = state_rows(p, ev.samples);
    r.has_time = ev.samples.has_time();
    r.is_default = static_cast<int>(e) == p.metadata.default_event;
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace hotlines
