// Collapsed stacks writer (see collapsed_writer.h).
// Threading: Pure function over an immutable Profile; safe from any thread.
#include "formats/collapsed_writer.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

namespace {

std::string_view kind_suffix(FrameKind k) {
  switch (k) {
  case FrameKind::interpreted:
    return "_[0]";
  case FrameKind::jit:
    return "_[j]";
  case FrameKind::inlined:
    return "_[i]";
  case FrameKind::c1:
    return "_[1]";
  case FrameKind::kernel:
    return "_[k]";
  default:
    return "";
  }
}

std::string frame_text(const Profile &p, const Frame &fr, const CollapsedOptions &o) {
  const Function &fn = p.functions[fr.function];
  std::string s;
  if (fn.class_name && fn.method) {
    s.append(p.str(fn.class_name));
    s.push_back('.');
    s.append(p.str(fn.method));
  } else {
    s.append(p.str(fn.name));
  }
  // A ';' would split the frame on reading; the FlameGraph tools use ':' likewise.
  std::replace(s.begin(), s.end(), ';', ':');
  if (o.lines && fr.line > 0) s += ":" + std::to_string(fr.line);
  if (o.kinds) s.append(kind_suffix(fr.kind));
  return s;
}

} // namespace

std::string write_collapsed(const Profile &p, const CollapsedOptions &o) {
  std::string out;
  int e = o.event < 0 ? p.metadata.default_event : o.event;
  if (e < 0 || static_cast<size_t>(e) >= p.events.size()) return out;
  const SampleColumns &c = p.events[e].samples;
  // Weight per (thread, stack).
  std::unordered_map<uint64_t, int64_t> weights;
  for (size_t i = 0; i < c.size(); i++) {
    uint64_t thread = o.threads ? c.thread_at(i) : 0;
    weights[(thread << 32) | c.stack_at(i)] += o.use_value ? c.value_at(i) : c.count_at(i);
  }
  std::vector<std::string> frame_cache(p.frames.size());
  std::vector<uint8_t> cached(p.frames.size(), 0);
  std::vector<std::pair<std::string, int64_t>> lines;
  lines.reserve(weights.size());
  std::vector<FrameId> frames;
  for (const auto &[key, w] : weights) {
    if (w == 0) continue;
    StackId stack = static_cast<StackId>(key & 0xffffffffu);
    std::string line;
    if (o.threads) {
      const Thread &t = p.threads[key >> 32];
      line.push_back('[');
      line.append(p.str(t.name));
      if (t.os_tid >= 0) line += " tid=" + std::to_string(t.os_tid);
      line.push_back(']');
    }
    frames = p.frames_of(stack); // leaf first
    for (size_t i = frames.size(); i-- > 0;) {
      FrameId f = frames[i];
      if (!cached[f]) {
        frame_cache[f] = frame_text(p, p.frames[f], o);
        cached[f] = 1;
      }
      if (!line.empty()) line.push_back(';');
      line.append(frame_cache[f]);
    }
    if (line.empty()) line = "[empty]";
    lines.emplace_back(std::move(line), w);
  }
  // Stacks that differ only in what is not written (lines, kinds, threads) merge here.
  std::sort(lines.begin(), lines.end());
  for (size_t i = 0; i < lines.size();) {
    int64_t w = 0;
    size_t j = i;
    for (; j < lines.size() && lines[j].first == lines[i].first; j++) w += lines[j].second;
    if (w != 0) {
      out.append(lines[i].first);
      out.push_back(' ');
      out.append(std::to_string(w));
      out.push_back('\n');
    }
    i = j;
  }
  return out;
}

} // namespace hotlines
