// The JFR event type -> product event table (see jfr_event_table.h and the architecture doc).
#include "formats/jfr_event_table.h"

namespace hotlines {

namespace {

constexpr JfrEventRule kRules[] = {
    {"jdk.ExecutionSample", "", "samples", JfrWeight::one},
    {"jdk.CPUTimeSample", "cpu", "samples", JfrWeight::one},
    {"profiler.WallClockSample", "wall", "samples", JfrWeight::samples},
    {"jdk.NativeMethodSample", "native", "samples", JfrWeight::one},
    {"jdk.ObjectAllocationInNewTLAB", "alloc", "bytes", JfrWeight::tlab_or_allocation},
    {"jdk.ObjectAllocationOutsideTLAB", "alloc", "bytes", JfrWeight::tlab_or_allocation},
    {"jdk.ObjectAllocationSample", "alloc", "bytes", JfrWeight::weight, "alloc-sample"},
    {"profiler.LiveObject", "live", "bytes", JfrWeight::allocation_size},
    {"jdk.JavaMonitorEnter", "lock", "nanoseconds", JfrWeight::duration},
    {"jdk.ThreadPark", "lock", "nanoseconds", JfrWeight::duration},
    {"profiler.Malloc", "nativemem", "bytes", JfrWeight::size},
    {"profiler.NativeLock", "nativelock", "nanoseconds", JfrWeight::duration},
    {"jdk.MethodTrace", "trace", "nanoseconds", JfrWeight::duration},
};

} // namespace

const JfrEventRule *find_jfr_event_rule(std::string_view jfr_type) {
  for (const JfrEventRule &r : kRules)
    if (r.jfr_type == jfr_type) return &r;
  return nullptr;
}

const JfrEventRule *jfr_event_rule_by_type(bool has_duration) {
  static constexpr JfrEventRule kTimed{"", "", "nanoseconds", JfrWeight::duration, "", true};
  static constexpr JfrEventRule kCounted{"", "", "samples", JfrWeight::one, "", true};
  return has_duration ? &kTimed : &kCounted;
}

std::string jfr_execution_event_name(std::string_view setting) {
  if (setting.empty() || setting == "cpu" || setting == "itimer" || setting == "ctimer" ||
      setting == "cpu-clock")
    return "cpu";
  return std::string(setting);
}

} // namespace hotlines
