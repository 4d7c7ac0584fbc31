// Profile accessors and the invariant checker (see profile.h for the invariants).
#include "formats/profile.h"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

namespace hotlines {

std::string_view frame_kind_name(FrameKind kind) {
  switch (kind) {
  case FrameKind::interpreted:
    return "interpreted";
  case FrameKind::jit:
    return "jit";
  case FrameKind::inlined:
    return "inlined";
  case FrameKind::c1:
    return "c1";
  case FrameKind::native:
    return "native";
  case FrameKind::cpp:
    return "cpp";
  case FrameKind::kernel:
    return "kernel";
  case FrameKind::unknown:
    break;
  }
  return "unknown";
}

size_t SampleColumns::bytes() const {
  return stack.bytes() + thread.bytes() + time.bytes() + count.bytes() + value.bytes() +
         labels.bytes() + state.bytes() + source.bytes();
}

std::vector<StateTotal> state_totals(const SampleColumns &c, size_t states) {
  std::vector<StateTotal> out;
  if (c.state.empty()) return out;
  out.resize(states);
  constexpr size_t kBlock = PackedInts::kBlock;
  int64_t state[kBlock], count[kBlock], value[kBlock];
  for (size_t first = 0; first < c.size(); first += kBlock) {
    const size_t m = std::min(kBlock, c.size() - first);
    c.state.decode(first, m, state);
    if (!c.count.empty()) c.count.decode(first, m, count);
    if (!c.value.empty()) c.value.decode(first, m, value);
    for (size_t k = 0; k < m; k++) {
      StateTotal &t = out[static_cast<size_t>(state[k])];
      const int64_t n = c.count.empty() ? 1 : count[k];
      t.samples++;
      t.count = saturating_add(t.count, n);
      t.value = saturating_add(t.value, c.value.empty() ? n : value[k]);
    }
  }
  return out;
}

size_t Profile::sample_count() const {
  size_t n = 0;
  for (const Event &e : events) n += e.samples.size();
  return n;
}

size_t Profile::sample_bytes() const {
  size_t n = 0;
  for (const Event &e : events) n += e.samples.bytes();
  return n;
}

int Profile::find_event(std::string_view name) const {
  for (size_t i = 0; i < events.size(); i++)
    if (str(events[i].name) == name) return static_cast<int>(i);
  int found = -1;
  for (size_t i = 0; i < events.size(); i++)
    for (StringId s : events[i].sources)
      if (str(s) == name) {
        if (found >= 0) return -1;
        found = static_cast<int>(i);
      }
  return found;
}

int Profile::selected_source(EventId e, std::string_view name) const {
  const Event &ev = events[e];
  if (str(ev.name) == name || ev.samples.source.empty()) return -1;
  for (size_t s = 0; s < ev.sources.size(); s++)
    if (str(ev.sources[s]) == name) return static_cast<int>(s);
  return -1;
}

std::vector<FrameId> Profile::frames_of(StackId stack) const {
  std::vector<FrameId> out;
  for (StackId s = stack; s != kNoStack; s = stack_parent[s]) out.push_back(stack_frame[s]);
  return out;
}

namespace {
std::string at(const char *what, size_t i) {
  return std::string(what) + " " + std::to_string(i) + ": ";
}
} // namespace

std::string Profile::check_valid() const {
  const size_t ns = strings.size();
  if (ns == 0 || !strings[0].empty()) return "string 0 must exist and be empty";
  {
    std::set<std::string_view> seen;
    for (size_t i = 0; i < ns; i++)
      if (!seen.insert(strings[i]).second)
        return at("string", i) + "duplicate '" + strings[i] + "'";
  }
  auto bad_str = [&](StringId s) { return s >= ns; };
  {
    std::set<std::tuple<StringId, StringId, StringId, StringId, StringId, StringId, int32_t>> seen;
    for (size_t i = 0; i < functions.size(); i++) {
      const Function &f = functions[i];
      if (bad_str(f.name) || bad_str(f.class_name) || bad_str(f.method) || bad_str(f.system_name) ||
          bad_str(f.file) || bad_str(f.library))
        return at("function", i) + "string id out of range";
      if (!seen.insert(
                   {f.name, f.class_name, f.method, f.system_name, f.file, f.library, f.start_line})
               .second)
        return at("function", i) + "duplicate";
    }
  }
  {
    std::set<std::tuple<FunctionId, int32_t, int32_t, FrameKind>> seen;
    for (size_t i = 0; i < frames.size(); i++) {
      const Frame &f = frames[i];
      if (f.function >= functions.size()) return at("frame", i) + "function out of range";
      if (f.line < 0) return at("frame", i) + "negative line";
      if (!seen.insert({f.function, f.line, f.bci, f.kind}).second)
        return at("frame", i) + "duplicate";
    }
  }
  const size_t nstacks = stack_frame.size();
  if (stack_parent.size() != nstacks) return "stack columns differ in length";
  {
    std::set<std::pair<StackId, FrameId>> seen;
    for (size_t i = 0; i < nstacks; i++) {
      StackId parent = stack_parent[i];
      if (stack_frame[i] >= frames.size()) return at("stack", i) + "frame out of range";
      if (parent != kNoStack && parent >= i) return at("stack", i) + "parent not before child";
      if (!seen.insert({parent, stack_frame[i]}).second) return at("stack", i) + "duplicate";
    }
  }
  for (size_t i = 0; i < threads.size(); i++)
    if (bad_str(threads[i].name)) return at("thread", i) + "name out of range";
  if (label_sets.empty() || !label_sets[0].empty()) return "label set 0 must exist and be empty";
  for (size_t i = 0; i < label_sets.size(); i++)
    for (const Label &l : label_sets[i])
      if (bad_str(l.key) || bad_str(l.str) || bad_str(l.unit))
        return at("label set", i) + "string id out of range";
  if (!states.empty() && states[0] != 0) return "thread state 0 must be \"\"";
  {
    std::set<StringId> state_names;
    for (size_t i = 0; i < states.size(); i++)
      if (bad_str(states[i]) || !state_names.insert(states[i]).second)
        return at("thread state", i) + "name out of range or repeated";
  }
  std::set<StringId> event_names;
  for (size_t e = 0; e < events.size(); e++) {
    const Event &ev = events[e];
    if (bad_str(ev.name) || bad_str(ev.unit) || bad_str(ev.count_label) ||
        bad_str(ev.value_label) || bad_str(ev.rule))
      return at("event", e) + "string id out of range";
    if (!event_names.insert(ev.name).second) return at("event", e) + "duplicate name";
    for (StringId s : ev.sources)
      if (bad_str(s)) return at("event", e) + "source out of range";
    const SampleColumns &c = ev.samples;
    const size_t n = c.size();
    if (!c.thread.empty() && c.thread.size() != n) return at("event", e) + "thread column length";
    if (!c.labels.empty() && c.labels.size() != n) return at("event", e) + "labels column length";
    if (!c.time.empty() && c.time.size() != n) return at("event", e) + "time column length";
    if (!c.state.empty() && c.state.size() != n) return at("event", e) + "state column length";
    if (!c.source.empty() && c.source.size() != n) return at("event", e) + "source column length";
    if (!c.count.empty() && c.count.size() != n) return at("event", e) + "count column length";
    if (!c.value.empty() && c.value.size() != n) return at("event", e) + "value column length";
    int64_t tc = 0, tv = 0;
    for (size_t i = 0; i < n; i++) {
      if (const StackId st = c.stack_at(i); st != kNoStack && st >= nstacks)
        return at("event", e) + "stack out of range";
      if (c.thread_at(i) >= threads.size()) return at("event", e) + "thread out of range";
      if (c.labels_at(i) >= label_sets.size()) return at("event", e) + "label set out of range";
      if (!c.state.empty() && c.state_at(i) >= states.size())
        return at("event", e) + "thread state out of range";
      if (!c.source.empty() && c.source_at(i) >= ev.sources.size())
        return at("event", e) + "source out of range";
      if (c.count_at(i) < 1) return at("event", e) + "count < 1";
      if (c.has_time() && c.time.at(i) < 0) return at("event", e) + "negative time";
      tc = saturating_add(tc, c.count_at(i));
      tv = saturating_add(tv, c.value_at(i));
    }
    if (tc != ev.total_count || tv != ev.total_value)
      return at("event", e) + "totals differ from samples";
    if (state_totals(c, states.size()) != ev.states)
      return at("event", e) + "state totals differ from samples";
  }
  if (metadata.default_event < 0 ||
      (!events.empty() && static_cast<size_t>(metadata.default_event) >= events.size()))
    return "default event out of range";
  return {};
}

} // namespace hotlines
