// Frames and threads named as async-profiler's collapsed output names them, shared by the
// readers of its text formats (collapsed stacks, the HTML flame graph and tree, the text
// traces): `org/acme/shop/Pricing.cached:29_[j]` -> the frame (function, line 29, kind jit),
// `[worker-0 tid=24733]` -> the thread. One name always gives the same frame, so every one
// of these formats keys functions and lines as the others and as the JFR reader do. Not
// thread-safe: one per ProfileBuilder.
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

  // async-profiler's bracketed pseudo-frames (`[unknown]`, `[GC_active]`, …): never threads.
  static bool is_pseudo_frame(std::string_view f);
  // `[…]` and not a pseudo-frame: the thread frame async-profiler puts first with `threads`.
  static bool is_thread_frame(std::string_view f);
  // The kind of a `_[x]` suffix letter; unknown for any other letter.
  static FrameKind kind_of_suffix(char c);

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
