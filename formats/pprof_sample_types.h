// How pprof sample types map to product events, both ways. The reader groups sample types
// into events (architecture.md: cpu = samples/count + cpu/nanoseconds, alloc = alloc_objects +
// alloc_space, inuse, lock = contentions + delay, wall); the writer names sample types for
// events; `-sample_index=TYPE` resolves through the event's count_label / value_label.
// Pure functions over immutable data; safe from any thread.
#pragma once

#include "formats/profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

// One pprof sample type as the model exposes it: which event holds it and in which column.
struct PprofSampleType {
  std::string type;   // pprof type name: "alloc_space"
  std::string unit;   // pprof unit: "bytes"
  int event = -1;     // index into Profile::events
  bool count = false; // true: the event's count column; false: its value column
};

// A group of sample types (by index into the profile's sample_type list) that becomes one
// event: `count_type` (-1 when unpaired) feeds Event::count, `value_type` feeds Event::value.
struct PprofEventGroup {
  std::string name;    // product event name, unique within the profile
  int count_type = -1; // -1: every kept sample counts 1
  int value_type = -1;
};

// Groups the sample types (type names in order) into events. Pairs named in `unpair` (by
// their value type's name) are not paired: the reader asks for that when a pair's count
// column holds values < 1 that the model cannot represent. Groups come in order of their
// first sample type.
std::vector<PprofEventGroup> group_pprof_sample_types(const std::vector<std::string_view> &types,
                                                      const std::vector<std::string> &unpair = {});

// Every pprof sample type the model can reproduce, in event order (count type first): the
// types write_pprof() writes. An event has a count type when it has a count_label, or when it
// comes from another format and its values differ from its counts ("<event>_count").
std::vector<PprofSampleType> pprof_sample_types(const Profile &profile);

// Resolves a `-sample_index` style name: a pprof sample type name ("alloc_objects"), a product
// event name ("alloc": its value column) or a 0-based index into pprof_sample_types().
// Returns false when nothing matches.
bool find_pprof_sample_type(const Profile &profile, std::string_view name, PprofSampleType *out);

} // namespace hotlines
