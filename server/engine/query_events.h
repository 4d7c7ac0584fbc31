// The events of a profile (cpu, wall, alloc, lock, ...) with their totals and units, in the
// profile's order, marking the default one. Pure function; thread-safe.
#pragma once

#include "formats/profile.h"

#include <string_view>
#include <vector>

namespace hotlines {

struct EventRow {
  EventId id = 0;
  std::string_view name, unit, count_label, value_label;
  std::vector<std::string_view> sources; // source event / sample types
  int64_t count = 0, value = 0;
  uint64_t samples = 0;   // sample rows
  uint64_t stackless = 0; // of them, recorded without a stack (shown as `[no stack]`)
  bool has_time = false;
  bool is_default = false;

  // The sources, comma-separated.
  std::string sources_text() const;
};

std::vector<EventRow> list_events(const Profile &profile);

} // namespace hotlines
