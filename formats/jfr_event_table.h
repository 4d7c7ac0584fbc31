// Which JFR event types become which product events, and how each sample is weighed: the
// normative table of docs/architecture.md in one place. jdk.ExecutionSample is named by the
// recording (its `event` ActiveSetting), so its product name is decided per chunk.
#pragma once

#include <string>
#include <string_view>

namespace hotlines {

enum class JfrWeight : uint8_t {
  one,                // count 1, value 1
  samples,            // count = value = the `samples` field (at least 1)
  tlab_or_allocation, // value: tlabSize if non-zero, else allocationSize (bytes)
  allocation_size,    // value: allocationSize (bytes)
  weight,             // value: weight (bytes)
  size,               // value: size (bytes)
  duration,           // value: duration (nanoseconds)
};

struct JfrEventRule {
  std::string_view jfr_type;
  std::string_view event; // product event; empty: named by the recording (ExecutionSample)
  std::string_view unit;  // samples, nanoseconds, bytes
  JfrWeight weight;
  // The product event when the recording also has TLAB events (tlab_or_allocation rules),
  // which estimate the same allocations: jdk.ObjectAllocationSample is then alloc-sample.
  // Empty: `event` always.
  std::string_view event_beside_tlab = {};
  // The product event is the JFR type's own name (event types the table does not know).
  bool named_by_type = false;
};

// The rule for a JFR event type, or nullptr when the type is not a sample source.
const JfrEventRule *find_jfr_event_rule(std::string_view jfr_type);

// The rule for an event type the table does not know whose events carry a stack trace: its own
// event, named by the type (`jdk.JavaErrorThrow`, `datadog.ExecutionSample`), weighted by its
// duration when it has one, else counted.
const JfrEventRule *jfr_event_rule_by_type(bool has_duration);

// The product event for jdk.ExecutionSample given an `event` ActiveSetting value:
// cpu, itimer, ctimer and cpu-clock are "cpu"; anything else keeps its name.
std::string jfr_execution_event_name(std::string_view setting);

} // namespace hotlines
