// Frames and threads written as text the way async-profiler writes them (collapsed stacks, its
// HTML and text outputs, the function names of its OTLP output): a `_[j]`-style kind suffix,
// a `:LINE` suffix, JVM frames as `org/acme/shop/Pricing.discount`, and thread frames
// `[name tid=N]`. Every one of those readers follows these rules (CollapsedFrames caches them
// per builder), so the same frame gets the same function.
// Pure functions; thread-safe.
#pragma once

#include "formats/profile.h"
#include "formats/profile_builder.h"

#include <string_view>

namespace hotlines {

// A frame's text with its suffixes taken off.
struct FrameText {
  std::string_view name; // without `_[x]` and `:LINE`
  FrameKind kind = FrameKind::unknown;
  int32_t line = 0; // 0 when there is no `:LINE`
};

// Takes a `_[x]` kind suffix (j, i, 0, 1, k, n, c) off *frame and returns its kind; unknown
// (and *frame untouched) when there is none.
FrameKind take_kind_suffix(std::string_view *frame);

// Splits `name:LINE_[x]` (each suffix optional) into its parts.
FrameText parse_frame_text(std::string_view frame);

// The function a frame name denotes: a JVM frame (`pkg/Class.method`, unless `kind` is native,
// cpp or kernel) gets its dotted display name, class and method; a dotted hidden class is
// normalized; anything else is its own name. system_name keeps the name as given.
Function frame_text_function(ProfileBuilder &b, std::string_view name, FrameKind kind);

// async-profiler's bracketed pseudo-frames (`[unknown]`, `[GC_active]`, …): never threads.
bool is_pseudo_frame(std::string_view frame);

// The inside of a thread frame, `name tid=N` (or just `name`), into name and tid (-1 when
// absent).
void split_thread_text(std::string_view text, std::string_view *name, int64_t *tid);

} // namespace hotlines
