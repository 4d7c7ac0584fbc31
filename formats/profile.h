// The profile model: one immutable in-memory form for every input format.
// Readers build it through ProfileBuilder; queries read it. A finished Profile is never
// mutated, so it may be shared between threads without locks.
//
// Invariants (checked by check_valid()):
//  - string 0 is "", every StringId is < strings.size(), strings are unique;
//  - every FunctionId/FrameId/StackId/ThreadId/EventId in any table is in range;
//  - stacks form a prefix tree: stack 0.. are (parent, frame); parent < own id (or kNoStack
//    for a root), and no two stacks share the same (parent, frame). A stack's depth is the
//    length of its parent chain: not stored, which saves a third of the tree's memory;
//  - functions and frames are unique (no two equal entries);
//  - at least one thread exists (thread 0) when there are samples; label set 0 is empty;
//  - thread state 0 is "" (no state), the names are unique, and every state column entry is
//    a state;
//  - every event's sample columns have equal lengths (optional columns are empty or full),
//    counts are >= 1, times (when present) are >= 0, totals (and state totals) equal the
//    column sums;
//  - events have unique names.
#pragma once

#include "formats/packed_ints.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

using StringId = uint32_t;
using FunctionId = uint32_t;
using FrameId = uint32_t;
using StackId = uint32_t;
using ThreadId = uint32_t;
using EventId = uint32_t;

inline constexpr uint32_t kNoStack = UINT32_MAX;

// a + b, saturating at INT64_MAX/INT64_MIN (totals of counts up to 2^63-1 must not overflow).
inline int64_t saturating_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

// How a frame was executed; from JFR's jdk.types.FrameType, collapsed `_[x]` suffixes, or
// pprof's inlined lines.
enum class FrameKind : uint8_t { unknown, interpreted, jit, inlined, c1, native, cpp, kernel };

std::string_view frame_kind_name(FrameKind kind);

struct Function {
  StringId name = 0;        // display name: `org.acme.shop.Pricing$Inner.spin`, `main.work`
  StringId class_name = 0;  // JVM internal class name `org/acme/shop/Pricing$Inner`, else 0
  StringId method = 0;      // bare method name (JVM), else 0
  StringId system_name = 0; // raw name as recorded (descriptor, mangled name, lambda address)
  StringId file = 0;        // source file as recorded (pprof, collapsed paths), else 0
  StringId library = 0;     // native/kernel library or mapping file, else 0
  int32_t start_line = 0;   // first line of the function when the format records it

  bool operator==(const Function &) const = default;
};

struct Frame {
  FunctionId function = 0;
  int32_t line = 0; // 1-based source line, 0 when unknown
  int32_t bci = -1; // JVM bytecode index, -1 when unknown
  FrameKind kind = FrameKind::unknown;

  bool operator==(const Frame &) const = default;
};

struct Thread {
  StringId name = 0;
  int64_t os_tid = -1;
  int64_t java_tid = -1;
};

// A sample label (pprof labels; thread labels become threads instead).
struct Label {
  StringId key = 0;
  StringId str = 0; // string value, or 0 for a numeric label
  int64_t num = 0;
  StringId unit = 0;
  bool operator==(const Label &) const = default;
};
using LabelSet = std::vector<Label>;

// The samples of one event, column-wise. `stack` is always present; the other columns are
// optional: `thread` empty means every sample is on thread 0, `count` empty means every
// sample counts 1, `value` empty means the value equals the count, `time` empty means the
// format has no time, `labels` empty means no sample has labels (label set 0 is empty),
// `state` empty means no sample has a thread state (state 0 is none), `source` empty means the
// event has one source (else each sample's index into Event::sources).
// Every column is packed (PackedInts): a cpu sample takes about 7-9 bytes (stack 2-3, thread 1,
// time 4), an allocation sample 2-3 more for its size. Loops over many samples decode runs of
// them (PackedInts::decode) rather than calling the *_at accessors.
struct SampleColumns {
  PackedInts stack;  // leaf StackId (kNoStack for an empty stack, until ProfileBuilder::finish)
  PackedInts thread; // ThreadId
  PackedInts time;   // ns since profile start
  PackedInts count;  // >= 1
  PackedInts value;
  PackedInts labels; // index into Profile::label_sets
  PackedInts state;  // index into Profile::states
  PackedInts source; // index into Event::sources

  size_t size() const { return stack.size(); }
  StackId stack_at(size_t i) const { return static_cast<StackId>(stack.at(i)); }
  ThreadId thread_at(size_t i) const {
    return thread.empty() ? 0 : static_cast<ThreadId>(thread.at(i));
  }
  uint32_t labels_at(size_t i) const {
    return labels.empty() ? 0 : static_cast<uint32_t>(labels.at(i));
  }
  uint32_t state_at(size_t i) const {
    return state.empty() ? 0 : static_cast<uint32_t>(state.at(i));
  }
  uint32_t source_at(size_t i) const {
    return source.empty() ? 0 : static_cast<uint32_t>(source.at(i));
  }
  int64_t count_at(size_t i) const { return count.empty() ? 1 : count.at(i); }
  int64_t value_at(size_t i) const { return value.empty() ? count_at(i) : value.at(i); }
  int64_t time_at(size_t i) const { return time.empty() ? 0 : time.at(i); }
  bool has_time() const { return !time.empty(); }
  // Heap bytes of the columns.
  size_t bytes() const;
};

// The samples of one event in one thread state.
struct StateTotal {
  uint64_t samples = 0; // sample rows
  int64_t count = 0, value = 0;
  bool operator==(const StateTotal &) const = default;
};

// Per state index (of `states` states), the samples of `samples` in that state; empty when the
// columns have no state column. Decodes the columns a block at a time.
std::vector<StateTotal> state_totals(const SampleColumns &samples, size_t states);

struct Event {
  StringId name = 0;        // product event: cpu, wall, alloc, lock, live, nativemem, ...
  StringId unit = 0;        // unit of `value`: samples, nanoseconds, bytes, count
  StringId count_label = 0; // what `count` counts when it is not samples (e.g. alloc_objects)
  StringId value_label = 0; // the source's name for `value` (e.g. pprof alloc_space)
  // The source event/sample types that fed it (JFR types, pprof sample types). A JFR type's
  // name selects its event (Profile::find_event), and with it only that type's samples when
  // the event has several sources (the `source` column).
  std::vector<StringId> sources;
  StringId rule = 0; // how the reader chose the samples when their type does not
                     // say ("jdk.ExecutionSample in STATE_DEFAULT: ..."), else 0
  SampleColumns samples;
  // Each row stands for count_at(i) samples of one stack, summed by a load that read no
  // threads or times (LoadOptions::merge_samples); else a row is a sample, or what the
  // format's sample holds (a pprof sample's count).
  bool merged = false;
  int64_t total_count = 0;
  int64_t total_value = 0;
  // Samples recorded without a stack (the JDK writes some allocation events so, pprof allows
  // samples without locations): ProfileBuilder::finish gives them the one-frame stack
  // `[no stack]`, so that every view shows their weight as a frame of its own.
  uint64_t stackless = 0;
  // state_totals(samples, Profile::states.size()), set by ProfileBuilder::finish.
  std::vector<StateTotal> states;
};

struct LoadWarning {
  std::string message;
  int64_t offset = -1; // byte offset, when known
  int64_t line = -1;   // 1-based line, text formats
};

struct Metadata {
  std::string format;        // "jfr", "pprof", "collapsed"
  std::string producer;      // "async-profiler 4.5", "OpenJDK 17.0.15", "go"
  int64_t start_time_ns = 0; // wall-clock epoch ns, 0 when unknown
  int64_t duration_ns = 0;
  int64_t period = 0; // pprof period, JFR sampling interval when known
  std::string period_type;
  uint32_t chunks = 0; // JFR chunks
  std::vector<std::string> comments;
  std::vector<LoadWarning> warnings;
  int default_event = 0; // event shown when the user picks none
  // Every stack is only its leaf frame, from a list of top self functions (async-profiler's
  // `flat` text): self weights are known, totals and call trees are not.
  bool self_only = false;
};

class Profile {
public:
  std::vector<std::string> strings;
  std::vector<Function> functions;
  std::vector<Frame> frames;
  std::vector<StackId> stack_parent;
  std::vector<FrameId> stack_frame;
  std::vector<Thread> threads;
  std::vector<LabelSet> label_sets; // label set 0 is empty
  // Thread states samples were taken in, by name without the JFR `STATE_` prefix (RUNNABLE,
  // SLEEPING); state 0 is "", no state (async-profiler's STATE_DEFAULT is none too).
  std::vector<StringId> states;
  std::vector<Event> events;
  Metadata metadata;

  std::string_view str(StringId id) const { return strings[id]; }
  size_t stack_count() const { return stack_frame.size(); }
  size_t sample_count() const;
  // Bytes held by the sample columns of every event.
  size_t sample_bytes() const;
  // Returns an empty string when every invariant above holds, else the first violation.
  std::string check_valid() const;
  // The event with this name, else the one event one of whose several sources has it (a JFR
  // type: `jdk.ThreadPark` is part of lock), else -1 (also when several events share the
  // source: async-profiler 2.x's jdk.ExecutionSample feeds cpu and wall).
  int find_event(std::string_view name) const;
  // The index in event e's sources of the source `name` selects: when `name` is not e's own
  // name and e's samples come from several sources. Else -1 (the name takes every sample).
  int selected_source(EventId e, std::string_view name) const;
  // Frames of a stack, leaf first.
  std::vector<FrameId> frames_of(StackId stack) const;
};

} // namespace hotlines
