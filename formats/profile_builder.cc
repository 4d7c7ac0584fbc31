// ProfileBuilder: interning and deduplication for readers.
#include "formats/profile_builder.h"

#include <algorithm>
#include <vector>

namespace hotlines {

namespace {
// Hash of a key of several 64-bit parts.
template <class... T> uint64_t hash_of(T... parts) {
  uint64_t h = 0;
  ((h = mix64(h ^ static_cast<uint64_t>(parts))), ...);
  return h;
}
} // namespace

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
  const auto [id, added] = string_ids_.insert(mix64(std::hash<std::string_view>()(s)),
                                              static_cast<StringId>(p_->strings.size()),
                                              [&](uint32_t id) { return p_->strings[id] == s; });
  if (added) p_->strings.emplace_back(s);
  return id;
}

FunctionId ProfileBuilder::function(const Function &f) {
  const uint64_t h = hash_of(f.name, f.class_name, f.method, f.system_name, f.file, f.library,
                             static_cast<uint32_t>(f.start_line));
  const auto [id, added] =
      function_ids_.insert(h, static_cast<FunctionId>(p_->functions.size()),
                           [&](uint32_t id) { return p_->functions[id] == f; });
  if (added) p_->functions.push_back(f);
  return id;
}

FrameId ProfileBuilder::frame(const Frame &f) {
  const uint64_t h = hash_of(f.function, static_cast<uint32_t>(f.line),
                             static_cast<uint32_t>(f.bci), static_cast<uint8_t>(f.kind));
  const auto [id, added] = frame_ids_.insert(h, static_cast<FrameId>(p_->frames.size()),
                                             [&](uint32_t id) { return p_->frames[id] == f; });
  if (added) p_->frames.push_back(f);
  return id;
}

namespace {
// The id a node's child gets when it is made right after its parent: the first node of all for
// a root.
StackId next_to(StackId parent) {
  return parent == kNoStack ? 0 : parent + 1;
}
} // namespace

StackId ProfileBuilder::find_child(StackId parent, FrameId frame) const {
  const StackId next = next_to(parent);
  if (next < stack_frame_.size() && stack_frame_[next] == frame && stack_parent_[next] == parent)
    return next;
  return later_children_.find(parent, frame);
}

StackId ProfileBuilder::add_child(StackId parent, FrameId frame) {
  const StackId id = static_cast<StackId>(stack_frame_.size());
  if (id != next_to(parent)) later_children_.add_new(parent, frame, id);
  stack_parent_.push_back(parent);
  stack_frame_.push_back(frame);
  built_++;
  return id;
}

StackId ProfileBuilder::append_stack(StackId parent, FrameId frame) {
  stack_parent_.push_back(parent);
  stack_frame_.push_back(frame);
  return static_cast<StackId>(stack_frame_.size() - 1);
}

StackId ProfileBuilder::stack(StackId parent, FrameId frame) {
  const StackId found = find_child(parent, frame);
  return found != kNoStack ? found : add_child(parent, frame);
}

void ProfileBuilder::stacks_from_leaf(std::span<const FrameId> frames,
                                      std::span<const uint32_t> ends, StackId *out) {
  std::vector<FrameId> &path_frames = last_path_frames_;
  std::vector<StackId> &path_nodes = last_path_nodes_;
  // In the order of their frames root first: a stack's prefix shared with any stack before it
  // in the batch is the one it shares with the stack right before it, taken from the last path.
  // (A sort by comparisons: a multikey quicksort, reading each frame once per shared depth
  // rather than once per comparison, measured no faster on deep-stacks-ap.jfr.)
  std::vector<uint32_t> &order = batch_order_;
  order.resize(ends.size());
  for (uint32_t i = 0; i < order.size(); i++) order[i] = i;
  auto begin_of = [&](uint32_t i) -> uint32_t { return i ? ends[i - 1] : 0; };
  auto from = [&](uint32_t at) { return std::make_reverse_iterator(frames.begin() + at); };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::lexicographical_compare(from(ends[a]), from(begin_of(a)), from(ends[b]),
                                        from(begin_of(b)));
  });
  for (const uint32_t i : order) {
    const size_t begin = begin_of(i);
    // The prefix shared with the last path is taken from it (as stack_along does).
    size_t at = ends[i]; // frames[begin, at) are still to place, the root-most last
    size_t same = 0;
    const size_t shared = std::min(at - begin, path_frames.size());
    while (same < shared && path_frames[same] == frames[at - 1 - same]) same++;
    path_frames.resize(same);
    path_nodes.resize(same);
    at -= same;
    StackId s = same ? path_nodes[same - 1] : kNoStack;
    for (; at > begin; at--) {
      const StackId child = find_child(s, frames[at - 1]);
      if (child == kNoStack) break;
      s = child;
      path_frames.push_back(frames[at - 1]);
      path_nodes.push_back(s);
    }
    // Below the first node added every node is new and the first child of its parent.
    for (; at > begin; at--) {
      s = add_child(s, frames[at - 1]);
      path_frames.push_back(frames[at - 1]);
      path_nodes.push_back(s);
    }
    out[i] = s;
  }
}

// Stacks built one after another mostly share a prefix with the one before (the same thread's
// samples, the same framework frames): that prefix's nodes are taken from the last path
// without a hash lookup each, which for deep stacks is most of the work.
template <class Frames> StackId ProfileBuilder::stack_along(size_t depth, Frames frame_at) {
  std::vector<FrameId> &frames = last_path_frames_;
  std::vector<StackId> &nodes = last_path_nodes_;
  size_t same = 0;
  const size_t shared = std::min(depth, frames.size());
  while (same < shared && frames[same] == frame_at(same)) same++;
  frames.resize(same);
  nodes.resize(same);
  StackId s = same ? nodes[same - 1] : kNoStack;
  for (size_t i = same; i < depth; i++) {
    const FrameId f = frame_at(i);
    s = stack(s, f);
    frames.push_back(f);
    nodes.push_back(s);
  }
  return s;
}

StackId ProfileBuilder::stack_from_root(std::span<const FrameId> frames_root_first) {
  return stack_along(frames_root_first.size(), [&](size_t i) { return frames_root_first[i]; });
}

StackId ProfileBuilder::stack_from_leaf(std::span<const FrameId> frames_leaf_first) {
  const size_t n = frames_leaf_first.size();
  return stack_along(n, [&](size_t i) { return frames_leaf_first[n - 1 - i]; });
}

ThreadId ProfileBuilder::thread(std::string_view name, int64_t os_tid, int64_t java_tid) {
  // Hashed: a collapsed file may name hundreds of thousands of threads.
  const StringId n = intern(name);
  const auto [id, added] = thread_ids_.insert(
      hash_of(n, os_tid, java_tid), static_cast<ThreadId>(p_->threads.size()), [&](uint32_t id) {
        const Thread &t = p_->threads[id];
        return t.name == n && t.os_tid == os_tid && t.java_tid == java_tid;
      });
  if (added) p_->threads.push_back(Thread{n, os_tid, java_tid});
  return id;
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

uint32_t ProfileBuilder::state(std::string_view name) {
  if (name.starts_with("STATE_")) name.remove_prefix(6);
  if (name.empty() || name == "DEFAULT") return 0;
  const StringId n = intern(name);
  std::vector<StringId> &states = p_->states;
  if (states.empty()) states.push_back(0);
  for (size_t i = 1; i < states.size(); i++)
    if (states[i] == n) return static_cast<uint32_t>(i);
  states.push_back(n);
  return static_cast<uint32_t>(states.size() - 1);
}

void ProfileBuilder::add_sample(EventId event, StackId stack, ThreadId thread, int64_t time_ns,
                                int64_t count, int64_t value, uint32_t label_set, uint32_t state) {
  SampleColumns &c = p_->events[event].samples;
  const size_t n = c.size();
  put(c.thread, n, thread, 0);
  put(c.time, n, time_ns, 0);
  put(c.labels, n, label_set, 0);
  put(c.state, n, state, 0);
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
  for (PackedInts *col :
       {&c.stack, &c.thread, &c.time, &c.count, &c.value, &c.labels, &c.state, &c.source})
    col->shrink_to_fit();
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

void ProfileBuilder::place_stackless() {
  StackId no_stack = kNoStack;
  for (Event &e : p_->events) {
    PackedInts &stacks = e.samples.stack;
    if (!stacks.contains(kNoStack)) continue;
    if (no_stack == kNoStack) no_stack = no_stack_root();
    stacks.replace(kNoStack, no_stack, [&](size_t i) {
      e.stackless += e.merged ? static_cast<uint64_t>(e.samples.count_at(i)) : 1;
    });
  }
}

StackId ProfileBuilder::no_stack_root() {
  Function f;
  f.name = f.method = intern("[no stack]");
  const FrameId fr = frame(Frame{function(f), 0, -1, FrameKind::unknown});
  if (built_ == stack_count()) return stack(kNoStack, fr);
  // A reader that deduplicated its own stacks: the root may exist without our knowing it.
  for (StackId s = 0; s < stack_count(); s++)
    if (stack_parent_[s] == kNoStack && stack_frame_[s] == fr) return s;
  return append_stack(kNoStack, fr);
}

std::unique_ptr<Profile> ProfileBuilder::finish() {
  place_stackless();
  for (Event &e : p_->events) {
    total(e);
    e.states = state_totals(e.samples, p_->states.size()); // after total(): weights clamped
  }
  string_ids_.clear();
  function_ids_.clear();
  frame_ids_.clear();
  later_children_.clear();
  built_ = 0;
  thread_ids_.clear();
  std::vector<FrameId>().swap(last_path_frames_);
  std::vector<StackId>().swap(last_path_nodes_);
  label_set_ids_.clear();
  if (p_->threads.empty()) p_->threads.push_back(Thread{});
  p_->stack_parent = stack_parent_.take();
  p_->stack_frame = stack_frame_.take();
  auto out = std::move(p_);
  p_ = std::make_unique<Profile>();
  intern("");
  p_->label_sets.emplace_back();
  return out;
}

} // namespace hotlines
