// SampleFilter: a View compiled against one profile — which samples pass (event, threads,
// window, include/exclude patterns, no-idle) and which stack-tree node each passing sample
// lands on (the stack rewritten without hidden frames). Compiling costs O(functions +
// frames + stacks); testing a sample is a few array reads. Immutable after compile();
// for_each() may run on several threads over disjoint ranges.
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
  // with *error for an unknown event, an invalid pattern (NamePattern) or a window on a
  // profile without timestamps, and with *error "cancelled" when the token fires (polled
  // between names while patterns are matched, so a slow match stops too).
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
  // for an empty stack. Polls `cancel` every 64K samples and stops early when it fires.
  template <class Fn>
  void for_each(size_t begin, size_t end, const std::atomic<bool> *cancel, Fn &&fn) const;

private:
  static constexpr uint32_t kDropped = kNoNode - 1;

  const SampleColumns *cols_ = nullptr;
  EventId event_ = 0;
  Measure measure_ = Measure::value;
  bool pass_all_ = true;
  std::vector<uint8_t> thread_ok_; // empty: every thread passes
  bool window_ = false;
  int64_t from_ = 0, to_ = 0;
  std::shared_ptr<const StackTree> tree_;
  std::vector<uint32_t> stack_node_; // empty: node == tree_->node_of_stack(stack)
  uint32_t empty_node_ = kNoNode;    // where an empty stack goes: kNoNode or kDropped
};

// Per-function idle flags (is_idle_function_name of each display name).
std::vector<uint8_t> idle_functions(const Profile &profile);

// Per-thread flags: the thread passes `filter` (an exact name, an OS or Java thread id, or a
// pattern matches it). Empty when `cancel` fires.
std::vector<uint8_t> threads_matching(const Profile &profile, const ThreadFilter &filter,
                                      const std::atomic<bool> *cancel = nullptr);

// True when every name pattern of the view (threads, hide, include, exclude) is valid; else
// false with *error naming the field, the first invalid pattern and why:
// "include: bad pattern 'a(?=b)': invalid perl operator: (?= (patterns are RE2 syntax)".
bool check_view_patterns(const View &view, std::string *error);

template <class Fn>
void SampleFilter::for_each(size_t begin, size_t end, const std::atomic<bool> *cancel,
                            Fn &&fn) const {
  const SampleColumns &c = *cols_;
  const bool use_value = measure_ == Measure::value && !c.value.empty();
  const int64_t *weights =
      use_value ? c.value.data() : (c.count.empty() ? nullptr : c.count.data());
  const StackId *stacks = c.stack.data();
  const ThreadId *threads = c.thread.empty() ? nullptr : c.thread.data();
  const int64_t *times = c.time.data();
  const uint32_t *map = stack_node_.empty() ? nullptr : stack_node_.data();
  const StackTree &tree = *tree_;
  for (size_t i = begin; i < end; i++) {
    if ((i & 0xffff) == 0 && cancel && cancel->load(std::memory_order_relaxed)) return;
    if (!thread_ok_.empty() && !thread_ok_[threads ? threads[i] : 0]) continue;
    if (window_ && (times[i] < from_ || times[i] >= to_)) continue;
    StackId s = stacks[i];
    uint32_t node = s == kNoStack ? empty_node_ : (map ? map[s] : tree.node_of_stack(s));
    if (node == kDropped) continue;
    fn(i, node, weights ? weights[i] : int64_t{1});
  }
}

} // namespace hotlines
