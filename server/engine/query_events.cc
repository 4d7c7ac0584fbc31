// Event listing (see query_events.h).
// Threading: Pure function; any thread.
#include "server/engine/query_events.h"

namespace hotlines {

std::string EventRow::sources_text() const {
  std::string out;
  for (std::string_view s : sources) out += (out.empty() ? "" : ",") + std::string(s);
  return out;
}

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
    r.has_time = ev.samples.has_time();
    r.is_default = static_cast<int>(e) == p.metadata.default_event;
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace hotlines
