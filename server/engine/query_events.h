// The events of a profile (cpu, wall, alloc, lock, ...) with their totals and units, the
// thread states their samples were taken in, and how the reader chose their samples, in the
// profile's order, marking the default one. Pure function; thread-safe.
#pragma once

#include "formats/profile.h"

#include <string_view>
#include <vector>

namespace hotlines {

// The samples of one event in one thread state.
struct StateRow {
  std::string_view name; // RUNNABLE, SLEEPING, ...; "" for samples without a state
  uint64_t samples = 0;
  int64_t count = 0, value = 0;
};

struct EventRow {
  EventId id = 0;
  std::string_view name, unit, count_label, value_label;
  std::vector<std::string_view> sources; // source event / sample types
  std::string_view rule;                 // Event::rule, "" when the types say it all
  std::vector<StateRow> states;          // most samples first; empty when no sample records a state
  int64_t count = 0, value = 0;
  uint64_t samples = 0;   // sample rows
  uint64_t stackless = 0; // of them, recorded without a stack (shown as `[no stack]`)
  bool has_time = false;
  bool is_default = false;

  // The sources, comma-separated.
  std::string sources_text() const;
  // The states with their sample counts: "SLEEPING 12655 (88.30%), RUNNABLE 1677 (11.70%)".
  std::string states_text() const;
};

std::vector<EventRow> list_events(const Profile &profile);

} // namespace hotlines
