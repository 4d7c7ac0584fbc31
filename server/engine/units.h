// Numbers as people read and write them: weights in their unit (ms, MiB, samples),
// percentages, time offsets, and the parsing of counts, numbers and durations (`2s`, `500ms`,
// `1m30s`). Pure functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hotlines {

// A weight in its unit, the one rule every front end follows (README "Units"): nanoseconds
// as "999 ns", "1.50 µs", "12.50 ms", "1.20 s"; bytes in binary multiples as "999 B",
// "1.50 KiB", "117.48 MiB", "2.03 GiB", "1.00 TiB"; scaled values with 2 decimals rounded half
// away from zero, unscaled ones as integers; "2530" for samples and counts.
std::string format_weight(int64_t weight, std::string_view unit);
// "38.12%".
std::string format_pct(double pct);
// A time offset: "1.250s".
std::string format_seconds(int64_t ns);
// What the unit column says: "samples", "ns", "bytes", ... for headers.
std::string unit_label(std::string_view unit);

// A finite decimal number, the whole text.
bool parse_number(std::string_view text, double *out);
// A non-negative integer, the whole text.
bool parse_count(std::string_view text, uint64_t *out);
// A duration: `2s`, `500ms`, `1m30s`, `1.5s`, `250us`, `10ns`, `1h`. False when the text is
// not a duration with units.
bool parse_duration_ns(std::string_view text, int64_t *ns);

} // namespace hotlines
