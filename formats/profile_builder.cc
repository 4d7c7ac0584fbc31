// ProfileBuilder: interning and deduplication for readers.
#include "formats/profile_builder.h"

#include <algorithm>
#include <vector>

namespace hotlines {

namespace {
inline size_t mix(size_t h, uint64_t v) {
  return (h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2)));
}
} // namespace

size_t ProfileBuilder::FunctionHash::operator()(const Function &f) const {
  size_t h = f.name;
  h = mix(h, f.class_name);
  h = mix(h, f.method);
  h = mix(h, f.system_name);
  h = mix(h, f.file);
  h = mix(h, f.library);
  return mix(h, static_cast<uint32_t>(f.start_line));
}

size_t ProfileBuilder::FrameHash::operator()(const Frame &f) const {
  size_t h = f.function;
  h = mix(h, static_cast<uint32_t>(f.line));
  h = mix(h, static_cast<uint32_t>(f.bci));
  return mix(h, static_cast<uint8_t>(f.kind));
}

size_t ProfileBuilder::ThreadHash::operator()(const ThreadKey &t) const {
  return mix(mix(t.name, static_cast<uint64_t>(t.os_tid)), static_cast<uint64_t>(t.java_tid));
}

ProfileBuilder::ProfileBuilder() : p_(std::make_unique<Profile>()) {
  intern("");
  p_->label_sets.emplace_back();
}

uint32_t ProfileBuilder::label_set(const LabelSet &labels) {
  if (labels.empty()) return 0;
  std::string key; // field by field: Label has padding bytes
  for (const Label &l : labels) {
    const uint32_t parts[] = {l.key, l.str, l.unit};
    key.append(reinterpret_cast<const char *>(parts), sizeof parts);
    key.append(reinterpret_cast<const char *>(&l.num), sizeof l.num);
  }
  auto [it, inserted] =
      label_set_ids_.try_emplace(key, static_cast<uint32_t>(p_->label_sets.size()));
  if (inserted) p_->label_sets.push_back(labels);
  return it->second;
}

StringId ProfileBuilder::intern(std::string_view s) {
  auto it = string_ids_.find(s);
  if (it != string_ids_.end()) return it->second;
  StringId id = static_cast<StringId>(p_->strings.size());
  p_->strings.emplace_back(s);
  string_ids_.emplace(std::string(s), id);
  return id;
}

FunctionId ProfileBuilder::function(const Function &f) {
  auto [it, inserted] = function_ids_.try_emplace(f, static_cast<FunctionId>(p_->functions.size()));
  if (inserted) p_->functions.push_back(f);
  return it->second;
}

FrameId ProfileBuilder::frame(const Frame &f) {
  auto [it, inserted] = frame_ids_.try_emplace(f, static_cast<FrameId>(p_->frames.size()));
  if (inserted) p_->frames.push_back(f);
  return it->second;
}

StackId ProfileBuilder::stack(StackId parent, FrameId frame) {
  uint64_t key = (static_cast<uint64_t>(parent) << 32) | frame;
  auto [it, inserted] = stack_ids_.try_emplace(key, static_cast<StackId>(p_->stack_frame.size()));
  if (inserted) {
    p_->stack_parent.push_back(parent);
    p_->stack_frame.push_back(frame);
    p_->stack_depth.push_back(parent == kNoStack ? 1 : p_->stack_depth[parent] + 1);
  }
  return it->second;
}

StackId ProfileBuilder::stack_from_root(std::span<const FrameId> frames_root_first) {
  StackId s = kNoStack;
  for (FrameId f : frames_root_first) s = stack(s, f);
  return s;
}

StackId ProfileBuilder::stack_from_leaf(std::span<const FrameId> frames_leaf_first) {
  StackId s = kNoStack;
  for (size_t i = frames_leaf_first.size(); i-- > 0;) s = stack(s, frames_leaf_first[i]);
  return s;
}

ThreadId ProfileBuilder::thread(std::string_view name, int64_t os_tid, int64_t java_tid) {
  // Hashed: a collapsed file may name hundreds of thousands of threads.
  const StringId n = intern(name);
  auto [it, inserted] = thread_ids_.try_emplace(ThreadKey{n, os_tid, java_tid},
                                                static_cast<ThreadId>(p_->threads.size()));
  if (inserted) p_->threads.push_back(Thread{n, os_tid, java_tid});
  return it->second;
}

EventId ProfileBuilder::event(std::string_view name, std::string_view unit) {
  StringId n = intern(name);
  for (size_t i = 0; i < p_->events.size(); i++)
    if (p_->events[i].name == n) return static_cast<EventId>(i);
  Event e;
  e.name = n;
  e.unit = intern(unit);
  p_->events.push_back(std::move(e));
  return static_cast<EventId>(p_->events.size() - 1);
}

namespace {
// Appends v to an optional column, materializing it (filled with `fill`) the first time a
// sample differs from the default.
void put(PackedInts &col, size_t n, int64_t v, int64_t dflt) {
  if (col.empty() && v == dflt) return;
  if (col.size() < n) col.append(n - col.size(), dflt);
  col.push_back(v);
}
} // namespace

void ProfileBuilder::add_sample(EventId event, StackId stack, ThreadId thread, int64_t time_ns,
                                int64_t count, int64_t value, uint32_t label_set) {
  SampleColumns &c = p_->events[event].samples;
  const size_t n = c.size();
  put(c.thread, n, thread, 0);
  put(c.time, n, time_ns, 0);
  put(c.labels, n, label_set, 0);
  if (!c.value.empty() || value != count) {
    if (c.value.size() < n) { // value defaulted to each sample's count until now
      if (c.count.empty())
        c.value.append(n, 1);
      else
        for (size_t i = 0; i < n; i++) c.value.push_back(c.count.at(i));
    }
    c.value.push_back(value);
  }
  put(c.count, n, count, 1);
  c.stack.push_back(stack);
}

void ProfileBuilder::add_sample(EventId event, StackId stack, ThreadId thread, int64_t count,
                                int64_t value) {
  add_sample(event, stack, thread, 0, count, value);
}

ProfileBuilder::IdMaps ProfileBuilder::add_tables(const Profile &o) {
  IdMaps m;
  std::vector<StringId> &smap = m.strings;
  smap.resize(o.strings.size());
  for (size_t i = 0; i < o.strings.size(); i++) smap[i] = intern(o.strings[i]);
  std::vector<FunctionId> fmap(o.functions.size());
  for (size_t i = 0; i < o.functions.size(); i++) {
    Function f = o.functions[i];
    f.name = smap[f.name];
    f.class_name = smap[f.class_name];
    f.method = smap[f.method];
    f.system_name = smap[f.system_name];
    f.file = smap[f.file];
    f.library = smap[f.library];
    fmap[i] = function(f);
  }
  std::vector<FrameId> frmap(o.frames.size());
  for (size_t i = 0; i < o.frames.size(); i++) {
    Frame f = o.frames[i];
    f.function = fmap[f.function];
    frmap[i] = frame(f);
  }
  m.stacks.resize(o.stack_count());
  for (size_t i = 0; i < o.stack_count(); i++) {
    StackId parent = o.stack_parent[i];
    m.stacks[i] = stack(parent == kNoStack ? kNoStack : m.stacks[parent], frmap[o.stack_frame[i]]);
  }
  m.threads.resize(o.threads.size());
  for (size_t i = 0; i < o.threads.size(); i++)
    m.threads[i] = thread(o.strings[o.threads[i].name], o.threads[i].os_tid, o.threads[i].java_tid);
  m.label_sets.resize(o.label_sets.size());
  for (size_t i = 0; i < o.label_sets.size(); i++) {
    LabelSet ls = o.label_sets[i];
    for (Label &l : ls) {
      l.key = smap[l.key];
      l.str = smap[l.str];
      l.unit = smap[l.unit];
    }
    m.label_sets[i] = label_set(ls);
  }
  for (const LoadWarning &w : o.metadata.warnings) p_->metadata.warnings.push_back(w);
  return m;
}

void ProfileBuilder::add_profile(const Profile &o) {
  const IdMaps m = add_tables(o);
  const std::vector<StringId> &smap = m.strings;
  for (const Event &oe : o.events) {
    EventId e = event(o.strings[oe.name], o.strings[oe.unit]);
    Event &ne = p_->events[e];
    if (oe.count_label) ne.count_label = smap[oe.count_label];
    if (oe.value_label) ne.value_label = smap[oe.value_label];
    for (StringId s : oe.sources)
      if (std::find(ne.sources.begin(), ne.sources.end(), smap[s]) == ne.sources.end())
        ne.sources.push_back(smap[s]);
    const SampleColumns &c = oe.samples;
    for (size_t i = 0; i < c.size(); i++)
      add_sample(e, c.stack[i] == kNoStack ? kNoStack : m.stacks[c.stack[i]],
                 o.threads.empty() ? 0 : m.threads[c.thread_at(i)], c.time_at(i), c.count_at(i),
                 c.value_at(i), m.label_sets[c.labels_at(i)]);
  }
}

void ProfileBuilder::warn(std::string message, int64_t offset, int64_t line) {
  p_->metadata.warnings.push_back(LoadWarning{std::move(message), offset, line});
}

namespace {
// Adds `*w` to `*total`; where the sum would leave int64, first clamps `*w` so that it does
// not. True when it clamped.
bool add_clamped(int64_t *total, int64_t *w) {
  int64_t sum;
  if (!__builtin_add_overflow(*total, *w, &sum)) {
    *total = sum;
    return false;
  }
  *w = (*w > 0 ? INT64_MAX : INT64_MIN) - *total;
  *total += *w;
  return true;
}
} // namespace

// An event's totals, with sample weights clamped where they would overflow: then every sum
// over a subset of its samples (any view, any tree node) fits in int64 too. The packed
// columns are rewritten only when a weight was clamped.
void ProfileBuilder::total(Event &e) {
  SampleColumns &c = e.samples;
  for (PackedInts *col : {&c.thread, &c.time, &c.count, &c.value, &c.labels}) col->shrink_to_fit();
  constexpr size_t kBlock = PackedInts::kBlock;
  const size_t n = c.size();
  const bool has_count = !c.count.empty(), has_value = !c.value.empty();
  // One pass; with `count`/`value` non-null, the clamped weights are appended to them.
  auto pass = [&](PackedInts *count, PackedInts *value) {
    e.total_count = 0;
    e.total_value = 0;
    bool clamped = false;
    int64_t cnt[kBlock], val[kBlock];
    for (size_t first = 0; first < n; first += kBlock) {
      const size_t m = std::min(kBlock, n - first);
      if (has_count) c.count.decode(first, m, cnt);
      if (has_value) c.value.decode(first, m, val);
      for (size_t k = 0; k < m; k++) {
        if (has_count) {
          clamped |= add_clamped(&e.total_count, &cnt[k]);
          if (count) count->push_back(cnt[k]);
        } else {
          e.total_count++;
        }
        if (has_value) {
          clamped |= add_clamped(&e.total_value, &val[k]);
          if (value) value->push_back(val[k]);
        }
      }
    }
    if (!has_value) e.total_value = e.total_count; // value == count
    return clamped;
  };
  if (!pass(nullptr, nullptr)) return;
  PackedInts count, value;
  pass(has_count ? &count : nullptr, has_value ? &value : nullptr);
  count.shrink_to_fit();
  value.shrink_to_fit();
  if (has_count) c.count = std::move(count);
  if (has_value) c.value = std::move(value);
  warn("event " + std::string(p_->str(e.name)) +
       ": sample weights clamped where its total would leave the 64-bit range");
}

std::unique_ptr<Profile> ProfileBuilder::finish() {
  for (Event &e : p_->events) total(e);
  string_ids_.clear();
  function_ids_.clear();
  frame_ids_.clear();
  stack_ids_.clear();
  thread_ids_.clear();
  label_set_ids_.clear();
  if (p_->threads.empty()) p_->threads.push_back(Thread{});
  auto out = std::move(p_);
  p_ = std::make_unique<Profile>();
  intern("");
  p_->label_sets.emplace_back();
  return out;
}

} // namespace hotlines
