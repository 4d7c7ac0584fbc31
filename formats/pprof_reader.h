// pprof reader: profile.proto (uncompressed; gzip is handled by the loader) into the model.
// Never throws; a malformed profile (truncated or corrupt protobuf, ids that point nowhere,
// value counts that do not match the sample types, string indices out of range) is a failure
// with what was wrong and the byte offset. Reentrant: no shared state.
//
// How pprof maps to the model (go tool pprof is the reference for every number):
//  - Sample types -> events (pprof_sample_types.h): pairs become one event with the count
//    type in `count` and the value type in `value` (cpu = samples + cpu, alloc = alloc_objects
//    + alloc_space, inuse = inuse_objects + inuse_space, lock = contentions + delay; samples
//    pairs with wall when there is no cpu). Any other type is its own event named after the
//    type, with count 1 per sample and the type's value in `value`. Event::count_label /
//    value_label keep the pprof type names, so every `-sample_index` is one column of one
//    event (find_pprof_sample_type()). The default event is the one holding
//    default_sample_type, else the last sample type's (what go tool pprof shows).
//  - Zero samples: a sample is stored in an event only when that event's values are not all
//    zero (count and value of a pair; the value of an unpaired type). go tool pprof skips
//    zero-weight samples too, so every flat/cum/total is unchanged. A pair whose count type
//    has a value < 1 next to a non-zero value (diff profiles, negative counts) cannot satisfy
//    count >= 1: that pair is split into two unpaired events, with a warning.
//  - Locations: one frame per line; a location with several lines is an inlining chain, the
//    last line the physical caller (FrameKind::unknown), the others FrameKind::inlined.
//    Functions keep name, system name, file (as recorded) and start line. A location without
//    lines becomes function `0x<address>` with `library` = its mapping's file name.
//  - Labels: `thread` / `thread_name` (string) name the sample's thread, `thread_id` / `tid`
//    give its OS tid and `java_thread_id` its Java tid (a numeric string is accepted); all
//    other string and numeric labels form the sample's label set.
//  - time_nanos -> start_time_ns, duration_nanos, period, period_type ("type/unit"),
//    comments; a comment "Produced by X" sets the producer ("go" when files end in .go).
//  - drop_frames / keep_frames are applied exactly as go tool pprof applies them when it
//    loads a profile (pprof_prune.h), and a warning says so; a pattern the matcher cannot
//    handle leaves the frames in place, with a warning.
#pragma once

#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

LoadResult read_pprof(std::string_view data, const LoadOptions &options = {});

} // namespace hotlines
