// pprof writer: any Profile (from JFR, collapsed or pprof, whole or filtered by the query
// engine's materialize_view) to gzipped profile.proto that `go tool pprof` reads back with the
// same -top and -list numbers. Serializes through the protoc-generated classes. Reads the
// Profile only; safe to call from any thread on a shared, immutable Profile.
//
// Sample types are named by pprof_sample_types(): an event with a count_label (pprof pairs),
// or from another format with values that differ from its counts (JFR alloc, lock), writes a
// count type (count_label, else "<event>_count") then its value type (value_label, else the
// event name; unit = the event's unit); any other event writes its value type only. So
// `-sample_index=T` on the written file equals find_pprof_sample_type(profile, T).
// Stacks become locations (a frame and the inlined frames above it share one location, as
// pprof encodes inlining), threads become `thread` / `thread_id` / `java_thread_id` labels,
// label sets become labels. Sample times are not written (pprof has none).
#pragma once

#include "formats/event_pick.h"
#include "formats/profile.h"

#include <string>
#include <vector>

namespace hotlines {

struct PprofWriteOptions {
  // Events to write (event_pick.h); empty writes every event whole.
  std::vector<EventPick> events;
  // Merges samples with the same stack, thread and labels (pprof's usual form; smaller).
  bool aggregate = true;
  // gzip the output (what go tool pprof and most producers use); false writes raw protobuf.
  bool gzip = true;
  int gzip_level = 6;
};

// Returns the encoded profile; on failure (an event index out of range) returns an empty
// string and sets *error.
std::string write_pprof(const Profile &profile, const PprofWriteOptions &options = {},
                        std::string *error = nullptr);

} // namespace hotlines
