// Checking and ordering writers' event picks (see event_pick.h).
#include "formats/event_pick.h"

#include <algorithm>

namespace hotlines {

bool pick_events(const Profile &p, const std::vector<EventPick> &picks, std::vector<EventPick> *out,
                 std::string *error) {
  out->clear();
  if (picks.empty()) {
    for (size_t e = 0; e < p.events.size(); e++) out->emplace_back(static_cast<EventId>(e));
    return true;
  }
  for (const EventPick &pick : picks) {
    if (pick.event >= p.events.size()) {
      *error = "event " + std::to_string(pick.event) + " does not exist (the profile has " +
               std::to_string(p.events.size()) + " events)";
      return false;
    }
    const size_t sources = p.events[pick.event].sources.size();
    if (pick.source >= 0 && static_cast<size_t>(pick.source) >= sources) {
      *error = "event " + std::to_string(pick.event) + " has no source " +
               std::to_string(pick.source) + " (it has " + std::to_string(sources) + ")";
      return false;
    }
    out->push_back(pick);
  }
  std::stable_sort(out->begin(), out->end(),
                   [](const EventPick &a, const EventPick &b) { return a.event < b.event; });
  size_t kept = 0;
  for (const EventPick &pick : *out) {
    if (kept > 0 && (*out)[kept - 1].event == pick.event) {
      if ((*out)[kept - 1].source != pick.source) (*out)[kept - 1].source = -1;
      continue;
    }
    (*out)[kept++] = pick;
  }
  out->resize(kept);
  return true;
}

} // namespace hotlines
