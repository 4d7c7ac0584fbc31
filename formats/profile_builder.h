// ProfileBuilder: how readers make a Profile. Interns strings and deduplicates functions,
// frames and threads with hash tables (IdTable: ids only, the keys are the profile's own
// tables) and stacks as a tree (StackChildren) that are dropped by finish(). The tree's columns
// grow in place (GrowingColumn) and join the profile in finish(). Not thread-safe: a reader
// that decodes in parallel (JFR slices) resolves into one builder in file order.
#pragma once

#include "formats/growing_column.h"
#include "formats/id_table.h"
#include "formats/profile.h"
#include "formats/stack_children.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map> // label sets

namespace hotlines {

class ProfileBuilder {
public:
  ProfileBuilder();

  StringId intern(std::string_view s);
  FunctionId function(const Function &f);
  FrameId frame(const Frame &f);
  // The stack (parent, frame); parent kNoStack makes a root.
  StackId stack(StackId parent, FrameId frame);
  // Appends the node (parent, frame) unchecked, for a reader that deduplicates its own stacks
  // (pprof); such nodes are unknown to stack() and must not be mixed with it.
  StackId append_stack(StackId parent, FrameId frame);
  size_t stack_count() const { return stack_frame_.size(); }
  // Builds a stack from frames given root first.
  StackId stack_from_root(std::span<const FrameId> frames_root_first);
  // Builds a stack from frames given leaf first (JFR and pprof order).
  StackId stack_from_leaf(std::span<const FrameId> frames_leaf_first);
  // Builds stacks from frames given leaf first, stack i from frames [ends[i - 1], ends[i])
  // (ends[-1] being 0), into out[i]: the stacks stack_from_leaf called on each in turn gives,
  // but the new nodes numbered in the order of the stacks' frames root first (built in that
  // order, each stack takes the prefix it shares with the one before without a lookup).
  void stacks_from_leaf(std::span<const FrameId> frames, std::span<const uint32_t> ends,
                        StackId *out);
  ThreadId thread(std::string_view name, int64_t os_tid = -1, int64_t java_tid = -1);

  // Finds or creates the event `name` with its value unit.
  EventId event(std::string_view name, std::string_view unit);
  Event &event_at(EventId id) { return p_->events[id]; }

  // Interns a label set (order matters); the empty set is 0.
  uint32_t label_set(const LabelSet &labels);

  // The thread state `name` (a JFR jdk.types.ThreadState: STATE_RUNNABLE, ...), stored without
  // its STATE_ prefix; "" and STATE_DEFAULT, which async-profiler writes for samples taken
  // without a state, are 0, none.
  uint32_t state(std::string_view name);

  // Appends one sample. Optional columns materialize the first time a sample needs them
  // (time_ns 0, thread 0, count 1, value == count, label set 0 and state 0 are the defaults).
  void add_sample(EventId event, StackId stack, ThreadId thread, int64_t time_ns, int64_t count,
                  int64_t value, uint32_t label_set = 0, uint32_t state = 0);
  // As above for formats without time.
  void add_sample(EventId event, StackId stack, ThreadId thread, int64_t count, int64_t value);

  Metadata &metadata() { return p_->metadata; }
  void warn(std::string message, int64_t offset = -1, int64_t line = -1);
  // The profile being built, without its stack columns until finish() (stack_count() counts
  // them).
  Profile &profile() { return *p_; }

  // Hands out the profile, computing event totals (also per thread state) and giving samples
  // without a stack the stack `[no stack]` (Event::stackless counts them). The builder is empty
  // afterwards.
  std::unique_ptr<Profile> finish();

private:
  void total(Event &e);
  void place_stackless();
  // The root stack `[no stack]`, made when first needed.
  StackId no_stack_root();
  // The stack of frames frame_at(0) (root) .. frame_at(depth - 1) (leaf).
  template <class Frames> StackId stack_along(size_t depth, Frames frame_at);
  // The node (parent, frame), or kNoStack.
  StackId find_child(StackId parent, FrameId frame) const;
  // Adds the node (parent, frame), known to be new.
  StackId add_child(StackId parent, FrameId frame);

  std::unique_ptr<Profile> p_;
  IdTable string_ids_, function_ids_, frame_ids_, thread_ids_;
  // The stack tree. A node made right after its parent (id parent + 1; id 0 for a root) is
  // found there, and only the other nodes through later_children_. A new path below an
  // existing node is a chain of such nodes, so a deep tree of mostly distinct tails needs a
  // table entry per branch, not per node, and walking a path reads memory in order.
  StackChildren later_children_;
  GrowingColumn<StackId> stack_parent_;
  GrowingColumn<FrameId> stack_frame_;
  size_t built_ = 0; // nodes made by stack() (a reader may append its own: append_stack())
  // The path of the last stack built from frames, root first: its frames and their nodes.
  std::vector<FrameId> last_path_frames_;
  std::vector<StackId> last_path_nodes_;
  std::vector<uint32_t> batch_order_; // stacks_from_leaf's order of a batch
  std::unordered_map<std::string, uint32_t> label_set_ids_;
};

} // namespace hotlines
