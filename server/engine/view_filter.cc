// Compiling a View into a SampleFilter (see view_filter.h).
// Threading: compile() on one thread; for_each() on disjoint ranges from several.
#include "server/engine/view_filter.h"

#include "server/engine/idle_frames.h"
#include "server/engine/name_pattern.h"
#include "server/engine/parallel.h"
#include "server/engine/profile_index.h"

namespace hotlines {

std::vector<uint8_t> idle_functions(const Profile &p) {
  std::vector<uint8_t> idle(p.functions.size());
  for (size_t f = 0; f < p.functions.size(); f++)
    idle[f] = is_idle_function_name(p.str(p.functions[f].name));
  return idle;
}

namespace {

// Per-frame flags: the frame's function display name matches one of the patterns. Each
// distinct name is matched once (profile strings are unique, so by its StringId), whatever
// the number of functions, frames or samples that carry it. Empty when cancelled.
std::vector<uint8_t> frames_matching(const Profile &p, const std::vector<std::string> &patterns,
                                     const std::atomic<bool> *cancel) {
  std::vector<NamePattern> compiled(patterns.begin(), patterns.end());
  enum : uint8_t { unknown, no, yes };
  std::vector<uint8_t> by_name(p.strings.size(), unknown);
  std::vector<uint8_t> fn(p.functions.size(), 0);
  for (size_t f = 0; f < p.functions.size(); f++) {
    StringId name = p.functions[f].name;
    if (by_name[name] == unknown) {
      if (cancel && cancel->load(std::memory_order_relaxed)) return {};
      bool hit = false;
      for (const NamePattern &np : compiled)
        if ((hit = np.matches(p.str(name)))) break;
      by_name[name] = hit ? yes : no;
    }
    fn[f] = by_name[name] == yes;
  }
  std::vector<uint8_t> out(p.frames.size());
  for (size_t i = 0; i < p.frames.size(); i++) out[i] = fn[p.frames[i].function];
  return out;
}

bool thread_matches(const Profile &p, const Thread &t, const ThreadFilter &tf,
                    const std::vector<NamePattern> &patterns) {
  std::string_view name = p.str(t.name);
  for (const std::string &n : tf.names)
    if (name == n) return true;
  for (int64_t id : tf.ids)
    if ((t.os_tid >= 0 && t.os_tid == id) || (t.java_tid >= 0 && t.java_tid == id)) return true;
  for (const NamePattern &np : patterns)
    if (np.matches(name)) return true;
  return false;
}

} // namespace

std::vector<uint8_t> threads_matching(const Profile &p, const ThreadFilter &filter,
                                      const std::atomic<bool> *cancel) {
  std::vector<NamePattern> patterns(filter.patterns.begin(), filter.patterns.end());
  std::vector<uint8_t> ok(p.threads.size());
  for (size_t t = 0; t < p.threads.size(); t++) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return {};
    ok[t] = thread_matches(p, p.threads[t], filter, patterns);
  }
  return ok;
}

namespace {
// A state name as the profile stores it: upper case, without the STATE_ prefix.
std::string state_key(std::string_view name) {
  std::string s;
  for (char ch : name) s.push_back(ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 32) : ch);
  if (s.starts_with("STATE_")) s.erase(0, 6);
  return s;
}
} // namespace

bool states_matching(const Profile &p, const std::vector<std::string> &names,
                     std::vector<uint8_t> *ok, std::string *error) {
  ok->assign(std::max<size_t>(p.states.size(), 1), 0);
  for (const std::string &name : names) {
    const std::string key = state_key(name);
    bool found = false;
    for (size_t s = 1; s < p.states.size(); s++)
      if (p.str(p.states[s]) == key) {
        (*ok)[s] = 1;
        found = true;
      }
    if (!found) {
      std::string known;
      for (size_t s = 1; s < p.states.size(); s++)
        known += (known.empty() ? "" : ", ") + std::string(p.str(p.states[s]));
      *error = "no thread state '" + name +
               "' in the profile (states: " + (known.empty() ? "none recorded" : known) + ")";
      return false;
    }
  }
  return true;
}

bool check_view_states(const Profile &p, EventId event, const std::vector<std::string> &states,
                       std::string *error, std::vector<uint8_t> *ok) {
  if (states.empty()) return true;
  const Event &ev = p.events[event];
  if (ev.states.empty() && ev.samples.size() > 0) {
    std::string with;
    for (const Event &e : p.events)
      if (!e.states.empty()) with += (with.empty() ? "" : ", ") + std::string(p.str(e.name));
    *error = "event " + std::string(p.str(ev.name)) +
             " records no thread states, so --state cannot apply" +
             (with.empty() ? "" : " (events with states: " + with + ")");
    return false;
  }
  std::vector<uint8_t> flags;
  return states_matching(p, states, ok ? ok : &flags, error);
}

std::string unknown_event_error(const Profile &p, const std::string &name) {
  std::string names, fed;
  for (const Event &ev : p.events) {
    names += (names.empty() ? "" : ", ") + std::string(p.str(ev.name));
    for (StringId s : ev.sources)
      if (p.str(s) == name) fed += (fed.empty() ? "" : ", ") + std::string(p.str(ev.name));
  }
  if (!fed.empty()) return name + " feeds several events (" + fed + "): pick one";
  return "no event '" + name + "' in the profile (events: " + (names.empty() ? "none" : names) +
         ")";
}

bool view_filters(const Profile &p, const View &view) {
  if (view.filters()) return true;
  if (view.event.empty()) return false;
  const int e = p.find_event(view.event);
  return e >= 0 && p.selected_source(static_cast<EventId>(e), view.event) >= 0;
}

bool check_view_patterns(const View &view, std::string *error) {
  const std::pair<const char *, const std::vector<std::string> *> lists[] = {
      {"threads", &view.threads.patterns},
      {"hide", &view.hide},
      {"include", &view.include},
      {"exclude", &view.exclude}};
  for (const auto &[field, patterns] : lists)
    if (!check_patterns(*patterns, error)) {
      *error = std::string(field) + ": " + *error;
      return false;
    }
  return true;
}

bool SampleFilter::compile(const Profile &p, const View &view,
                           std::shared_ptr<const StackTree> base,
                           const std::vector<uint8_t> *idle_fn, const std::atomic<bool> *cancel,
                           std::string *error) {
  auto cancelled = [&] {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      *error = "cancelled";
      return true;
    }
    return false;
  };
  if (view.event.empty()) {
    if (p.events.empty()) {
      *error = "the profile has no events";
      return false;
    }
    event_ = static_cast<EventId>(p.metadata.default_event);
  } else {
    int e = p.find_event(view.event);
    if (e < 0) {
      *error = unknown_event_error(p, view.event);
      return false;
    }
    event_ = static_cast<EventId>(e);
  }
  if (!check_view_patterns(view, error)) return false;
  cols_ = &p.events[event_].samples;
  measure_ = view.measure;
  pass_all_ = !view_filters(p, view);

  thread_ok_.clear();
  state_ok_.clear();
  source_ok_.clear();
  if (const int source = view.event.empty() ? -1 : p.selected_source(event_, view.event);
      source >= 0) {
    source_ok_.assign(p.events[event_].sources.size(), 0);
    source_ok_[static_cast<size_t>(source)] = 1;
  }
  if (!view.threads.empty()) thread_ok_ = threads_matching(p, view.threads, cancel);
  if (cancelled()) return false;
  if (!view.states.empty() && !check_view_states(p, event_, view.states, error, &state_ok_))
    return false;
  select_ = !thread_ok_.empty() || !state_ok_.empty() || !source_ok_.empty();
  if (select_ && thread_ok_.empty()) thread_ok_.assign(std::max<size_t>(p.threads.size(), 1), 1);
  if (select_ && state_ok_.empty()) state_ok_.assign(std::max<size_t>(p.states.size(), 1), 1);
  if (select_ && source_ok_.empty())
    source_ok_.assign(std::max<size_t>(p.events[event_].sources.size(), 1), 1);

  window_ = view.from_ns || view.to_ns;
  if (window_) {
    if (!cols_->has_time() && cols_->size() > 0) {
      *error = "the profile has no sample timestamps, so --from/--to cannot apply (" +
               p.metadata.format + " profiles have none)";
      return false;
    }
    from_ = view.from_ns.value_or(INT64_MIN);
    to_ = view.to_ns.value_or(INT64_MAX);
  }

  if (!base) base = std::make_shared<const StackTree>(p);
  if (!view.hide.empty()) {
    std::vector<uint8_t> hidden = frames_matching(p, view.hide, cancel);
    if (cancelled()) return false;
    tree_ = StackTree::without_frames(p, hidden, cancel);
    if (!tree_) return !cancelled();
  } else {
    tree_ = std::move(base);
  }
  if (cancelled()) return false;

  // Stack-level filters on the original stacks.
  const bool include = !view.include.empty(), exclude = !view.exclude.empty();
  empty_node_ = include ? kDropped : kNoNode;
  stack_node_.clear();
  if (include || exclude || view.no_idle) {
    std::vector<uint8_t> inc_frame, exc_frame, idle_local;
    if (include) inc_frame = frames_matching(p, view.include, cancel);
    if (exclude) exc_frame = frames_matching(p, view.exclude, cancel);
    if (cancelled()) return false;
    if (view.no_idle && !idle_fn) {
      idle_local = idle_functions(p);
      idle_fn = &idle_local;
    }
    const size_t n = p.stack_count();
    std::vector<uint8_t> inc(include ? n : 0), exc(exclude ? n : 0);
    stack_node_.resize(n);
    for (size_t s = 0; s < n; s++) {
      StackId par = p.stack_parent[s];
      FrameId f = p.stack_frame[s];
      bool keep = true;
      if (include) {
        inc[s] = inc_frame[f] || (par != kNoStack && inc[par]);
        keep = inc[s];
      }
      if (exclude) {
        exc[s] = exc_frame[f] || (par != kNoStack && exc[par]);
        keep = keep && !exc[s];
      }
      if (view.no_idle && (*idle_fn)[p.frames[f].function]) keep = false;
      stack_node_[s] = keep ? tree_->node_of_stack(static_cast<StackId>(s)) : kDropped;
    }
  }
  return !cancelled();
}

std::vector<size_t> SampleFilter::split(unsigned threads) const {
  const size_t n = cols_->size();
  if (!window_ || cols_->time.empty() || threads <= 1) return even_split(n, threads);
  // Equal numbers of the blocks whose time range meets the window, cut at block starts.
  constexpr size_t kBlock = PackedInts::kBlock;
  auto meets = [&](size_t first) {
    int64_t lo, hi;
    cols_->time.block_range(first, &lo, &hi);
    return hi >= from_ && lo < to_;
  };
  size_t met = 0;
  for (size_t first = 0; first < n; first += kBlock) met += meets(first);
  std::vector<size_t> bounds(threads + 1, n);
  bounds[0] = 0;
  size_t seen = 0;
  unsigned w = 1;
  for (size_t first = 0; first < n && w < threads; first += kBlock) {
    // bounds[w] is the first block past w shares of the met blocks.
    while (w < threads && seen * threads >= met * w) bounds[w++] = first;
    seen += meets(first);
  }
  return bounds;
}

bool SampleFilter::compile(const ProfileIndex &index, const View &view,
                           const std::atomic<bool> *cancel, std::string *error) {
  return compile(index.profile(), view, index.tree(), &index.idle_functions(), cancel, error);
}

} // namespace hotlines
