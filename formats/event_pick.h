// EventPick: what a writer (pprof, OTLP, speedscope) writes of one event — all its samples, or
// those of one of its sources when several feed it (a JFR type: `convert -e jdk.ThreadPark`
// writes lock's park samples alone). pick_events() checks and orders a writer's list. Pure
// functions of their arguments; thread-safe.
#pragma once

#include "formats/profile.h"

#include <string>
#include <vector>

namespace hotlines {

struct EventPick {
  EventId event = 0;
  int32_t source = -1; // index into the event's sources; -1: every sample

  EventPick(EventId event = 0, int32_t source = -1) : event(event), source(source) {}
  bool takes(const SampleColumns &c, size_t i) const {
    return source < 0 || c.source_at(i) == static_cast<uint32_t>(source);
  }
};

// `picks` in event order, one per event: an event picked whole and by a source, or by two of
// its sources, is taken whole (no event has more than two). Empty `picks`: every event whole.
// An event or source the profile lacks is an error: false, with *error saying which.
bool pick_events(const Profile &p, const std::vector<EventPick> &picks, std::vector<EventPick> *out,
                 std::string *error);

} // namespace hotlines
