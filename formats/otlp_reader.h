// OTLP reader: the OpenTelemetry profiles signal (protobuf ProfilesData of opentelemetry-proto
// v1.10.0, profiles/v1development; what async-profiler 4.5's `-o otlp` and `jfrconv -o otlp`
// write) into the model. Uncompressed (gzip is the loader's). Never throws; malformed data,
// or data of another version of the specification, is a failure naming what and the byte
// offset (otlp_decoder.h). Reentrant: no shared state.
//
// How OTLP maps to the model:
//  - Each Profile is one sample type. Profiles with the same (type, unit) are one event
//    (jfrconv writes a profile per JFR chunk). The event is named after the type:
//    cpu, perf_events, itimer, ctimer, cpu-clock -> cpu; wall -> wall; allocations,
//    alloc_tracer, object_sampler -> alloc; locks, lock_tracer -> lock; malloc,
//    malloc_tracer -> nativemem; native_lock_tracer -> nativelock; samples -> the period
//    type's event (the eBPF profiler writes samples/count with period type cpu); any other
//    type keeps its name (made unique with its unit when two units share a name).
//  - Observations: a Sample's values, or its timestamps alone (each counts 1), or both
//    paired. Unit count (or samples, or none): count = value = the value (event unit
//    "samples"); any other unit ("ns" -> "nanoseconds"): count 1 per observation, value =
//    the value. Zero values are skipped; a negative count is an error.
//  - Time: timestamps become ns since the profile start, the earliest Profile.time_unix_nano
//    or timestamp; the span ends at the latest profile end or timestamp.
//  - Frames: a Location's lines, leaf first; all but the last are inlined (FrameKind
//    inlined). Function names are read like collapsed frames (frame_text.h): `_[k]` kinds,
//    `:LINE`, `pkg/Class.method` JVM frames (unless the function's file is not a JVM
//    language's, or a dot comes before the last slash: a Go import path); Line.line wins
//    over a `:LINE` suffix. The
//    location attribute profile.frame.type (kernel, native) gives the kind too. A location
//    without lines is function `0x<address>`; a mapping's file name is the library.
//  - Sample attributes: thread.name (async-profiler's `[name tid=N]` is split; an unnamed
//    `[tid=N]` keeps that name, as the JFR reader names unnamed threads), thread.id
//    and java_thread_id name the thread; every other scalar attribute is a label. Profile and
//    resource attributes, links and mappings' addresses are not read.
#pragma once

#include "formats/load_result.h"

#include <string_view>

namespace hotlines {

LoadResult read_otlp(std::string_view data, const LoadOptions &options = {});

// Whether uncompressed bytes are OTLP profiles rather than pprof (also protobuf): the first
// top-level field 1 is a non-empty message made only of length-delimited fields 1-3
// (ResourceProfiles: resource, scope_profiles, schema_url), where pprof's field 1 is a
// ValueType of varints (type, unit). The top-level fields before it must be well formed; a
// file cut short inside that message still counts (the reader then says where it ends).
bool looks_like_otlp(std::string_view data);

} // namespace hotlines
