// What event an async-profiler HTML page or text output holds, from what it says about
// itself: the agent's page title ("CPU profile", "Allocation profile (bytes)", …), the units
// of its weights (samples, bytes, ns) and whether its stacks end in the allocated or locked
// class (alloc and lock outputs add that frame). Also the name rules those outputs share.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace hotlines {

struct ApOutputEvent {
  std::string name; // cpu, wall, alloc, lock, nativemem, nativelock, trace, or the units word
  std::string unit; // samples, bytes, nanoseconds, count
};

// `title`: the agent's title ("" when the page has none of its own, as jfrconv's "Flame
// Graph"); `units`: "samples", "bytes", "ns", …; `class_leaves`: every stack ends in a class.
// Without a known title: bytes -> alloc (class leaves) or nativemem; ns -> lock (class
// leaves) or `ns_default`; samples -> alloc (class leaves) or cpu; another word names itself.
ApOutputEvent ap_output_event(std::string_view title, std::string_view units, bool class_leaves,
                              std::string_view ns_default);

// A class name as async-profiler writes the allocated or locked class: `byte[]`,
// `java.lang.String`, `org.acme.Foo$Bar` (dotted, no method part that it could tell apart).
bool looks_like_java_class(std::string_view name);

// A frame name of async-profiler's output in the collapsed form (`:LINE` kept): dotted JVM
// names become slashed (slashed_jvm_frame), anything else is returned as it is.
std::string collapsed_frame_name(std::string_view name);

} // namespace hotlines
