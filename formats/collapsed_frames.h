// The frames and threads of async-profiler's text names (frame_text.h) made in one builder and
// cached by text, for the readers of its text formats (collapsed stacks, the HTML flame graph
// and tree, the text traces): `org/acme/shop/Pricing.cached:29_[j]` -> the frame (function,
// line 29, kind jit), `[worker-0 tid=24733]` -> the thread. Not thread-safe: one per
// ProfileBuilder.
#pragma once

#include "formats/profile_builder.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace hotlines {

class CollapsedFrames {
public:
  explicit CollapsedFrames(ProfileBuilder &builder) : b_(builder) {}

  // A frame as collapsed stacks write it: an optional `_[x]` kind suffix (j, i, 0, 1, k, n, c)
  // after an optional `:LINE`.
  FrameId frame(std::string_view text);
  // A frame whose kind is known apart from its name (an HTML page's frame colours); `name`
  // may end in `:LINE`. Java kinds (interpreted, jit, inlined, c1) split `class.method`.
  FrameId frame(std::string_view name, FrameKind kind);
  // The thread named by the inside of a `[name tid=N]` frame.
  ThreadId thread(std::string_view inside_brackets);

  // `[…]` and not a pseudo-frame: the thread frame async-profiler puts first with `threads`.
  static bool is_thread_frame(std::string_view f);

private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  using Cache = std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>>;

  FrameId make(std::string_view name, FrameKind kind);

  ProfileBuilder &b_;
  Cache frames_, threads_;
  Cache kinded_[8]; // frame(name, kind), one cache per kind
};

} // namespace hotlines
