// async-profiler's text frames (see frame_text.h).
#include "formats/frame_text.h"

#include "formats/jvm_names.h"

#include <charconv>

namespace hotlines {

namespace {

FrameKind kind_of_suffix(char c) {
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

} // namespace

FrameKind take_kind_suffix(std::string_view *frame) {
  std::string_view f = *frame;
  if (f.size() > 4 && f[f.size() - 4] == '_' && f[f.size() - 3] == '[' && f.back() == ']') {
    FrameKind k = kind_of_suffix(f[f.size() - 2]);
    if (k != FrameKind::unknown) frame->remove_suffix(4);
    return k;
  }
  return FrameKind::unknown;
}

FrameText parse_frame_text(std::string_view f) {
  FrameText t;
  t.kind = take_kind_suffix(&f);
  // `:LINE` suffix.
  size_t colon = f.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < f.size() && colon > 0 && f[colon - 1] != ':') {
    int32_t line = 0;
    std::string_view num = f.substr(colon + 1);
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), line);
    if (ec == std::errc() && p == num.data() + num.size() && line > 0) {
      t.line = line;
      f = f.substr(0, colon);
    }
  }
  t.name = f;
  return t;
}

Function frame_text_function(ProfileBuilder &b, std::string_view f, FrameKind kind) {
  Function fn;
  std::string_view cls, method;
  if (kind != FrameKind::kernel && kind != FrameKind::native && kind != FrameKind::cpp &&
      split_jvm_frame(f, &cls, &method)) {
    fn.name = b.intern(jvm_display_name(cls, method));
    fn.class_name = b.intern(cls);
    fn.method = b.intern(method);
  } else if (f.find("$$Lambda") != std::string_view::npos) { // dotted: org.acme.Foo$$Lambda…
    fn.name = b.intern(normalize_jvm_class(f));
  } else {
    fn.name = b.intern(f);
  }
  fn.system_name = b.intern(f);
  return fn;
}

bool is_pseudo_frame(std::string_view f) {
  static const std::string_view kPseudo[] = {
      "[unknown]",       "[unknown_Java]",   "[not_walkable_Java]", "[not_walkable_not_Java]",
      "[no_Java_frame]", "[deoptimization]", "[safepoint]",         "[vtable stub]",
      "[itable stub]",   "[GC_active]",      "[truncated]",         "[thread_start]",
      "[thread_end]",    "[skipped frames]"};
  for (std::string_view p : kPseudo)
    if (f == p) return true;
  return false;
}

void split_thread_text(std::string_view t, std::string_view *name, int64_t *tid) {
  *name = t;
  *tid = -1;
  size_t k = t.rfind("tid=");
  if (k == std::string_view::npos || (k != 0 && t[k - 1] != ' ')) return;
  std::string_view num = t.substr(k + 4);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
  if (ec != std::errc() || p != num.data() + num.size()) return;
  *tid = v;
  std::string_view n = t.substr(0, k);
  while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
  *name = n;
}

} // namespace hotlines
