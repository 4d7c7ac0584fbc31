// Collapsed stacks writer: one line per distinct stack (and thread, when asked), root first,
// `frame;frame;…;leaf WEIGHT`, in the style async-profiler and jfrconv write, so FlameGraph
// tools and our collapsed reader read it back. JVM frames are written as
// `internal/Class.method` (as recorded), others by display name; optional `:LINE`, `_[j]`
// kind suffixes and a `[thread tid=N]` first frame. Lines are sorted for stable output.
// Pure function over an immutable Profile; thread-safe.
#pragma once

#include "formats/profile.h"

#include <string>

namespace hotlines {

struct CollapsedOptions {
  int event = -1;        // -1: the profile's default event
  bool use_value = true; // weights from the value column (else the count)
  bool threads = false;  // first frame `[name tid=N]`
  bool lines = false;    // `:LINE` after frames with a line
  bool kinds = false;    // `_[0]` interpreted, `_[j]` jit, `_[i]` inlined, `_[1]` c1, `_[k]` kernel
};

std::string write_collapsed(const Profile &profile, const CollapsedOptions &options = {});

} // namespace hotlines
