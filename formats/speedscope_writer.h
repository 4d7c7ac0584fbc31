// speedscope writer: any Profile to speedscope's JSON file format
// (https://www.speedscope.app/file-format-schema.json) — one "sampled" profile per event and
// thread, samples in time order when the format has time (consecutive samples with the same
// stack merged into one weight), frames shared and merged by display name and file (as the
// query engine groups functions). Weights are the event's values: nanoseconds and bytes keep
// their unit, samples and counts are "none". JSON is written by hand (formats/ has no JSON
// library). Reads the Profile only; safe on a shared, immutable Profile from any thread.
#pragma once

#include "formats/event_pick.h"
#include "formats/profile.h"

#include <string>
#include <vector>

namespace hotlines {

struct SpeedscopeWriteOptions {
  // Events to write (event_pick.h); empty writes every event whole.
  std::vector<EventPick> events;
  // The file's name (shown in speedscope's title bar).
  std::string name;
  // The exporter field.
  std::string exporter = "hotlines";
};

// Returns the JSON text; on failure (an event index out of range) returns an empty string and
// sets *error. The active profile is the heaviest thread of the first written event.
std::string write_speedscope(const Profile &profile, const SpeedscopeWriteOptions &options = {},
                             std::string *error = nullptr);

// `s` as a JSON string literal (quotes included; control characters and invalid UTF-8 bytes
// escaped so the output is always valid JSON).
std::string json_quote(std::string_view s);

} // namespace hotlines
