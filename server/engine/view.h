// View: what every query looks at — one event of one profile, a measure (count or value),
// a thread filter, a thread-state filter, a time window [from, to) in ns since the profile start,
// frame patterns that keep (include) or drop (exclude) samples through a frame, hidden frames
// (removed from stacks), no-idle (drop samples whose leaf is a park/wait/sleep/poll/futex frame)
// and the function grouping. A plain value type; copy it freely between threads.
#pragma once

#include "server/engine/function_keys.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hotlines {

enum class Measure : uint8_t { count, value };

struct ThreadFilter {
  std::vector<std::string> names;    // exact thread names
  std::vector<int64_t> ids;          // OS or Java thread ids
  std::vector<std::string> patterns; // NamePatterns (substring, or regex with operators)

  bool empty() const { return names.empty() && ids.empty() && patterns.empty(); }
};

struct View {
  std::string event; // product event (cpu, wall, alloc, ...); empty: the profile's default
  Measure measure = Measure::value;
  ThreadFilter threads; // empty: every thread; else a thread passes when any entry matches
  // Thread states (RUNNABLE, SLEEPING; any case, STATE_ prefix optional); empty: every sample.
  // Only for events whose samples record a state.
  std::vector<std::string> states;
  std::optional<int64_t> from_ns, to_ns; // [from, to), ns since the profile start
  std::vector<std::string> include;      // keep samples with a frame matching any of these
  std::vector<std::string> exclude;      // drop samples with a frame matching any of these
  std::vector<std::string> hide;         // remove matching frames from every stack
  bool no_idle = false;
  FunctionGrouping grouping = FunctionGrouping::name;

  // True when some sample or frame is filtered (anything beyond event, measure, grouping).
  bool filters() const {
    return !threads.empty() || !states.empty() || from_ns || to_ns || !include.empty() ||
           !exclude.empty() || !hide.empty() || no_idle;
  }
};

} // namespace hotlines
