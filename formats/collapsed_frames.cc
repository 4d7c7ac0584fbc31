// Frames and threads in async-profiler's collapsed naming (see collapsed_frames.h).
#include "formats/collapsed_frames.h"

#include "formats/jvm_names.h"

#include <charconv>

namespace hotlines {

bool CollapsedFrames::is_pseudo_frame(std::string_view f) {
  static const std::string_view kPseudo[] = {
      "[unknown]",       "[unknown_Java]",   "[not_walkable_Java]", "[not_walkable_not_Java]",
      "[no_Java_frame]", "[deoptimization]", "[safepoint]",         "[vtable stub]",
      "[itable stub]",   "[GC_active]",      "[truncated]",         "[thread_start]",
      "[thread_end]",    "[skipped frames]"};
  for (std::string_view p : kPseudo)
    if (f == p) return true;
  return false;
}

bool CollapsedFrames::is_thread_frame(std::string_view f) {
  return f.size() >= 2 && f.front() == '[' && f.back() == ']' && !is_pseudo_frame(f);
}

FrameKind CollapsedFrames::kind_of_suffix(char c) {
  switch (c) {
  case 'j':
    return FrameKind::jit;
  case 'i':
    return FrameKind::inlined;
  case '0':
    return FrameKind::interpreted;
  case '1':
    return FrameKind::c1;
  case 'k':
    return FrameKind::kernel;
  case 'n':
    return FrameKind::native;
  case 'c':
    return FrameKind::cpp;
  default:
    return FrameKind::unknown;
  }
}

FrameId CollapsedFrames::frame(std::string_view f) {
  auto it = frames_.find(f);
  if (it != frames_.end()) return it->second;
  std::string key(f);
  FrameKind kind = FrameKind::unknown;
  if (f.size() > 4 && f[f.size() - 4] == '_' && f[f.size() - 3] == '[' && f.back() == ']') {
    kind = kind_of_suffix(f[f.size() - 2]);
    if (kind != FrameKind::unknown) f.remove_suffix(4);
  }
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
  Frame frame;
  frame.kind = kind;
  // `:LINE` suffix (not C++'s `::`).
  size_t colon = f.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < f.size() && colon > 0 && f[colon - 1] != ':') {
    int32_t line = 0;
    std::string_view num = f.substr(colon + 1);
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), line);
    if (ec == std::errc() && p == num.data() + num.size() && line > 0) {
      frame.line = line;
      f = f.substr(0, colon);
    }
  }
  Function fn;
  std::string_view cls, method;
  if (kind != FrameKind::kernel && kind != FrameKind::native && kind != FrameKind::cpp &&
      split_jvm_frame(f, &cls, &method)) {
    fn.name = b_.intern(jvm_display_name(cls, method));
    fn.class_name = b_.intern(cls);
    fn.method = b_.intern(method);
  } else if (f.find("$$Lambda") != std::string_view::npos) { // dotted: org.acme.Foo$$Lambda…
    fn.name = b_.intern(normalize_jvm_class(f));
  } else {
    fn.name = b_.intern(f);
  }
  fn.system_name = b_.intern(f);
  frame.function = b_.function(fn);
  return b_.frame(frame);
}

ThreadId CollapsedFrames::thread(std::string_view t) {
  auto it = threads_.find(t);
  if (it != threads_.end()) return it->second;
  std::string_view name = t;
  int64_t tid = -1;
  size_t k = t.rfind("tid=");
  if (k != std::string_view::npos && (k == 0 || t[k - 1] == ' ')) {
    std::string_view num = t.substr(k + 4);
    int64_t v = 0;
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
    if (ec == std::errc() && p == num.data() + num.size()) {
      tid = v;
      name = t.substr(0, k);
      while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    }
  }
  const ThreadId id = b_.thread(name, tid);
  threads_.emplace(std::string(t), id);
  return id;
}

} // namespace hotlines
