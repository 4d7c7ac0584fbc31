// Frames and threads in async-profiler's text naming, cached (see collapsed_frames.h).
#include "formats/collapsed_frames.h"

#include "formats/frame_text.h"

namespace hotlines {

bool CollapsedFrames::is_thread_frame(std::string_view f) {
  return f.size() >= 2 && f.front() == '[' && f.back() == ']' && !is_pseudo_frame(f);
}

FrameId CollapsedFrames::frame(std::string_view f) {
  auto it = frames_.find(f);
  if (it != frames_.end()) return it->second;
  std::string key(f);
  const FrameKind kind = take_kind_suffix(&f);
  const FrameId id = make(f, kind);
  frames_.emplace(std::move(key), id);
  return id;
}

FrameId CollapsedFrames::frame(std::string_view name, FrameKind kind) {
  Cache &cache = kinded_[static_cast<size_t>(kind) & 7];
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const FrameId id = make(name, kind);
  cache.emplace(std::string(name), id);
  return id;
}

FrameId CollapsedFrames::make(std::string_view f, FrameKind kind) {
  const FrameText t = parse_frame_text(f); // `f` has no kind suffix left: only `:LINE`
  Frame frame;
  frame.kind = kind;
  frame.line = t.line;
  frame.function = b_.function(frame_text_function(b_, t.name, kind));
  return b_.frame(frame);
}

ThreadId CollapsedFrames::thread(std::string_view t) {
  auto it = threads_.find(t);
  if (it != threads_.end()) return it->second;
  std::string_view name;
  int64_t tid;
  split_thread_text(t, &name, &tid);
  const ThreadId id = b_.thread(name, tid);
  threads_.emplace(std::string(t), id);
  return id;
}

} // namespace hotlines
