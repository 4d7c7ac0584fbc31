// SampleFilter: a View compiled against one profile — which samples pass (event, the JFR type
// its name selects, threads, thread states, window, include/exclude patterns, no-idle) and which
// stack-tree node each passing sample lands on (the stack rewritten without hidden frames).
// Compiling costs O(functions + frames
// + stacks); testing a sample is a few array reads. Immutable after compile(); for_each() may run
// on several threads over disjoint ranges.
#pragma once

#include "formats/profile.h"
#include "server/engine/stack_tree.h"
#include "server/engine/view.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace hotlines {

class ProfileIndex;

class SampleFilter {
public:
  // Compiles `view`. `base` is the profile's own StackTree (built here when null);
  // `idle_functions` the per-function idle flags (computed here when null). Returns false
  // with *error for an unknown event, an invalid pattern (NamePattern), a window on a
  // profile without timestamps, thread states for an event without them or an unknown state, and
  // with *error "cancelled" when the token fires (polled between names while patterns are matched,
  // so a slow match stops too).
  bool compile(const Profile &profile, const View &view, std::shared_ptr<const StackTree> base,
               const std::vector<uint8_t> *idle_functions, const std::atomic<bool> *cancel,
               std::string *error);
  // compile() against an index's profile, with its StackTree and idle flags.
  bool compile(const ProfileIndex &index, const View &view, const std::atomic<bool> *cancel,
               std::string *error);

  EventId event() const { return event_; }
  Measure measure() const { return measure_; }
  // The tree passing samples land on (the profile's own, or one without hidden frames).
  const std::shared_ptr<const StackTree> &tree() const { return tree_; }
  // True when every sample of the event passes unchanged.
  bool passes_everything() const { return pass_all_; }

  // Calls fn(i, node, weight) for every passing sample i in [begin, end); node is kNoNode
  // for an empty stack. Decodes the packed columns a run of samples at a time (skipping
  // blocks whose time range is outside the window); polls `cancel` once per run and stops
  // early when it fires.
  template <class Fn>
  [[gnu::always_inline]] void for_each(size_t begin, size_t end, const std::atomic<bool> *cancel,
                                       Fn &&fn) const {
    pass<false, false>(begin, end, cancel, fn);
  }
  // As for_each, with the sample's time (0 when the event has none) and thread:
  // fn(i, node, weight, time, thread).
  template <class Fn>
  void for_each_sample(size_t begin, size_t end, const std::atomic<bool> *cancel, Fn &&fn) const {
    pass<true, true>(begin, end, cancel, fn);
  }

  // Bounds of `threads` ranges of the event's samples (for parallel_split) with equal shares
  // of the work: with a window, of the blocks whose time range meets it (samples are mostly
  // in time order, so equal ranges of indices would leave one worker most of the window);
  // else of the samples.
  std::vector<size_t> split(unsigned threads) const;

private:
  static constexpr uint32_t kDropped = kNoNode - 1;

  // The pass, specialized on what it reads so that its inner loop is as tight as one over
  // plain arrays (a pass is bound by the cache misses of its tree lookups, and a lean loop
  // keeps more of them in flight). Always inlined into the caller; mark fn
  // __attribute__((always_inline)) too, or GCC calls it out of line from each of the pass's
  // specializations (a window-filtered view of the query benchmark: 133-141 -> 102-104 ms).
  template <bool kTime, bool kThread, class Fn>
  [[gnu::always_inline]] void pass(size_t begin, size_t end, const std::atomic<bool> *cancel,
                                   Fn &fn) const;
  template <bool kTime, bool kThread, bool kWeighted, bool kSelect, class Fn>
  [[gnu::always_inline]] void runs(size_t begin, size_t end, const std::atomic<bool> *cancel,
                                   Fn &fn) const;

  const SampleColumns *cols_ = nullptr;
  EventId event_ = 0;
  Measure measure_ = Measure::value;
  bool pass_all_ = true;
  // Samples pass by thread, state and source (`select_`): the tables are then full, one flag
  // per ThreadId, per state and per source of the event.
  bool select_ = false;
  std::vector<uint8_t> thread_ok_, state_ok_, source_ok_;
  bool window_ = false;
  int64_t from_ = 0, to_ = 0;
  std::shared_ptr<const StackTree> tree_;
  std::vector<uint32_t> stack_node_; // empty: node == tree_->node_of_stack(stack)
  uint32_t empty_node_ = kNoNode;    // where an empty stack goes: kNoNode or kDropped
};

// True when the view passes fewer than all of its event's samples or changes their stacks:
// View::filters(), or the event's name is a JFR type that is one of several sources of its
// event (Profile::selected_source).
bool view_filters(const Profile &profile, const View &view);

// Why `name` selects no event of the profile: "no event 'x' in the profile (events: cpu, alloc)",
// or, for a JFR type that feeds several, "jdk.ExecutionSample feeds several events (cpu, wall):
// pick one".
std::string unknown_event_error(const Profile &profile, const std::string &name);

// Per-function idle flags (is_idle_function_name of each display name).
std::vector<uint8_t> idle_functions(const Profile &profile);

// Per-state flags: the state is one of `names` (any case, the STATE_ prefix optional).
// False with *error naming an unknown state and the profile's states.
bool states_matching(const Profile &profile, const std::vector<std::string> &names,
                     std::vector<uint8_t> *ok, std::string *error);

// True when `states` may filter `event`'s samples: none are given, or the event records states
// and each name is one of the profile's (then *ok, when given, receives states_matching's
// flags); else false with *error saying which.
bool check_view_states(const Profile &profile, EventId event,
                       const std::vector<std::string> &states, std::string *error,
                       std::vector<uint8_t> *ok = nullptr);

// Per-thread flags: the thread passes `filter` (an exact name, an OS or Java thread id, or a
// pattern matches it). Empty when `cancel` fires.
std::vector<uint8_t> threads_matching(const Profile &profile, const ThreadFilter &filter,
                                      const std::atomic<bool> *cancel = nullptr);

// True when every name pattern of the view (threads, hide, include, exclude) is valid; else
// false with *error naming the field, the first invalid pattern and why:
// "include: bad pattern 'a(?=b)': invalid perl operator: (?= (patterns are RE2 syntax)".
bool check_view_patterns(const View &view, std::string *error);

template <bool kTime, bool kThread, class Fn>
inline void SampleFilter::pass(size_t begin, size_t end, const std::atomic<bool> *cancel,
                               Fn &fn) const {
  const SampleColumns &c = *cols_;
  const bool weighted =
      measure_ == Measure::value ? !c.value.empty() || !c.count.empty() : !c.count.empty();
  if (weighted) {
    if (select_)
      runs<kTime, kThread, true, true>(begin, end, cancel, fn);
    else
      runs<kTime, kThread, true, false>(begin, end, cancel, fn);
  } else {
    if (select_)
      runs<kTime, kThread, false, true>(begin, end, cancel, fn);
    else
      runs<kTime, kThread, false, false>(begin, end, cancel, fn);
  }
}

template <bool kTime, bool kThread, bool kWeighted, bool kSelect, class Fn>
inline void SampleFilter::runs(size_t begin, size_t end, const std::atomic<bool> *cancel,
                               Fn &fn) const {
  // Runs of samples within one PackedInts block, small enough that their decoded columns
  // stay in L1 beside what fn touches.
  constexpr size_t kRun = 256;
  static_assert(PackedInts::kBlock % kRun == 0);
  const SampleColumns &c = *cols_;
  const PackedInts &weights = measure_ == Measure::value && !c.value.empty() ? c.value : c.count;
  // Only the columns this pass reads are decoded (a window implies times: compile() checks).
  const PackedInts *threads = (kThread || kSelect) && !c.thread.empty() ? &c.thread : nullptr;
  const PackedInts *states = kSelect && !c.state.empty() ? &c.state : nullptr;
  const PackedInts *sources = kSelect && !c.source.empty() ? &c.source : nullptr;
  const PackedInts *times = (kTime || window_) && !c.time.empty() ? &c.time : nullptr;
  const uint32_t *map = stack_node_.empty() ? nullptr : stack_node_.data();
  const uint8_t *thread_ok = thread_ok_.data(), *state_ok = state_ok_.data(),
                *source_ok = source_ok_.data();
  const StackTree &tree = *tree_;
  const uint32_t empty_node = empty_node_;
  const int64_t from = from_, to = to_;
  int64_t stack_buf[kRun], weight_buf[kRun], time_buf[kRun], thread_buf[kRun],
      state_buf[kSelect ? kRun : 1], source_buf[kSelect ? kRun : 1];
  if ((kThread || kSelect) && !threads) std::fill(thread_buf, thread_buf + kRun, 0);
  if (kSelect && !states) std::fill(state_buf, state_buf + kRun, 0);
  if (kSelect && !sources) std::fill(source_buf, source_buf + kRun, 0);
  if (kTime && !times) std::fill(time_buf, time_buf + kRun, 0);
  auto run = [&]<bool kCheckTime>(size_t first, size_t n) {
    for (size_t k = 0; k < n; k++) {
      if constexpr (kSelect)
        if (!thread_ok[thread_buf[k]] || !state_ok[state_buf[k]] || !source_ok[source_buf[k]])
          continue;
      if constexpr (kCheckTime)
        if (time_buf[k] < from || time_buf[k] >= to) continue;
      const StackId s = static_cast<StackId>(stack_buf[k]);
      const uint32_t node = s == kNoStack ? empty_node : (map ? map[s] : tree.node_of_stack(s));
      if (node == kDropped) continue;
      const int64_t wt = kWeighted ? weight_buf[k] : int64_t{1};
      if constexpr (kTime || kThread)
        fn(first + k, node, wt, kTime ? time_buf[k] : int64_t{0},
           kThread ? static_cast<ThreadId>(thread_buf[k]) : ThreadId{0});
      else
        fn(first + k, node, wt);
    }
  };
  for (size_t first = begin; first < end;) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return;
    const size_t n = std::min(end, (first | (kRun - 1)) + 1) - first;
    // A window tests each sample's time only in blocks that straddle an edge of it.
    bool check_time = false;
    if (window_ && times) {
      int64_t lo, hi;
      times->block_range(first, &lo, &hi);
      if (hi < from || lo >= to) { // no sample of the block is in the window
        first += n;
        continue;
      }
      check_time = lo < from || hi >= to;
    }
    c.stack.decode(first, n, stack_buf);
    if (kWeighted) weights.decode(first, n, weight_buf);
    if (times && (kTime || check_time)) times->decode(first, n, time_buf);
    if (threads) threads->decode(first, n, thread_buf);
    if (kSelect && states) states->decode(first, n, state_buf);
    if (kSelect && sources) sources->decode(first, n, source_buf);
    if (check_time)
      run.template operator()<true>(first, n);
    else
      run.template operator()<false>(first, n);
    first += n;
  }
}

} // namespace hotlines
