// OTLP writer: any Profile (from JFR, pprof, collapsed or OTLP) to OpenTelemetry profiles,
// the ProfilesData of otlp_profiles.proto (opentelemetry-proto v1.10.0, profiles/
// v1development), which read_otlp() reads back with the same numbers. Serializes through the
// protoc-generated classes. Reads the Profile only; safe from any thread on a shared Profile.
//
// One ResourceProfiles with one ScopeProfiles (scope "hotlines") holding one Profile per
// event, sharing one dictionary:
//  - sample_type: (event name, "count") when every value equals its count (cpu, wall, any
//    sampled event), else (event name, the event's unit) — and when such an event has counts
//    other than 1 (pprof's alloc_objects beside alloc_space), a second Profile holds them as
//    (count_label, else "<event>_count", "count").
//  - Samples merge by (stack, thread, labels). With times, each model sample is one
//    observation (value and timestamp, epoch ns); without, counts are summed and any other
//    value stays one observation per model sample (each counts 1 when read back).
//  - Stacks: a location per frame with the frames inlined into it as its first lines
//    (stack_locations.h); JVM functions are named `pkg/Class.method` as async-profiler writes
//    them, others by display name; system name, file and start line kept; a library becomes
//    a mapping; kernel and native frames carry the location attribute profile.frame.type.
//  - Threads: the sample attributes thread.name, thread.id (OS) and java_thread_id; labels
//    become attributes with their units.
#pragma once

#include "formats/event_pick.h"
#include "formats/profile.h"

#include <string>
#include <vector>

namespace hotlines {

struct OtlpWriteOptions {
  // Events to write (event_pick.h); empty writes every event whole.
  std::vector<EventPick> events;
  // Raw protobuf (what async-profiler writes and collectors take) unless asked.
  bool gzip = false;
  int gzip_level = 6;
  // InstrumentationScope.version.
  std::string version;
};

// Returns the encoded data; on failure (an event out of range, a profile over protobuf's
// 2 GiB) returns an empty string and sets *error.
std::string write_otlp(const Profile &profile, const OtlpWriteOptions &options = {},
                       std::string *error = nullptr);

} // namespace hotlines
