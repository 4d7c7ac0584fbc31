// pprof reader (see pprof_reader.h): PprofDecoder's validated tables into the model. The
// mapping decisions are documented in pprof_reader.h. Speed: frames and stacks are
// deduplicated in compact open-addressing tables, and the samples' stacks are built in
// batches, one level at a time across the batch, with the table slots prefetched, so the
// cache misses of different samples overlap (a 1-million-stack profile loads in ~1.5 s).
#include "formats/pprof_reader.h"

#include "formats/huge_pages.h"
#include "formats/pprof_decoder.h"
#include "formats/pprof_prune.h"
#include "formats/pprof_sample_types.h"
#include "formats/profile_builder.h"

#include <charconv>
#include <cstdio>
#include <limits>
#include <unordered_map>
#include <vector>

namespace hotlines {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Open-addressing map from a pair of 32-bit keys to a 32-bit value: the stack table (parent,
// frame) -> stack and the frame table. 12-byte entries at load <= 0.7 and one probe sequence
// per find-or-insert: on large profiles these lookups are the reader's main cost (cache and
// TLB misses), so the table is kept small and asks for huge pages.
class PairMap {
public:
  PairMap() { rehash(1 << 12); }
  void reserve(size_t n) {
    size_t cap = table_.size();
    while (n * 10 > cap * 7) cap *= 2;
    if (cap != table_.size()) rehash(cap);
  }
  void prefetch(uint32_t a, uint32_t b) const { __builtin_prefetch(&table_[slot(a, b)]); }
  // The value of (a, b); when absent, stores `fresh` and sets *inserted.
  uint32_t find_or_insert(uint32_t a, uint32_t b, uint32_t fresh, bool *inserted) {
    if ((size_ + 1) * 10 > table_.size() * 7) rehash(table_.size() * 2);
    for (size_t i = slot(a, b);; i = (i + 1) & mask_) {
      Entry &e = table_[i];
      if (e.value == kNone) {
        e = Entry{a, b, fresh};
        size_++;
        *inserted = true;
        return fresh;
      }
      if (e.a == a && e.b == b) {
        *inserted = false;
        return e.value;
      }
    }
  }

private:
  struct Entry {
    uint32_t a = 0, b = 0, value = kNone;
  };
  size_t slot(uint32_t a, uint32_t b) const {
    uint64_t k = (static_cast<uint64_t>(a) << 32 | b) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(k >> shift_);
  }
  void rehash(size_t n) {
    std::vector<Entry> old = std::move(table_);
    table_ = std::vector<Entry>();
    resize_huge(table_, n);
    mask_ = n - 1;
    shift_ = 64 - __builtin_ctzll(n);
    for (const Entry &e : old) {
      if (e.value == kNone) continue;
      size_t i = slot(e.a, e.b);
      while (table_[i].value != kNone) i = (i + 1) & mask_;
      table_[i] = e;
    }
  }
  std::vector<Entry> table_;
  size_t mask_ = 0, size_ = 0;
  int shift_ = 0;
};

// Label keys that name threads.
enum class ThreadKey : uint8_t { none, name, os_tid, java_tid };

class PprofModelBuilder {
public:
  PprofModelBuilder(PprofDecoder &d, const LoadOptions &options) : d_(d), options_(options) {}

  LoadResult run() {
    prepare_pruning();
    // A pair whose count column holds values < 1 is split, and the profile built again.
    std::vector<std::string> unpair;
    for (;;) {
      std::string split;
      LoadResult r = build(unpair, &split);
      if (split.empty()) return r;
      unpair.push_back(split);
    }
  }

private:
  LoadResult failure() const { return LoadResult::failure(d_.error(), d_.error_offset()); }

  StringId str(int64_t index) {
    uint32_t &id = string_ids_[static_cast<size_t>(index)];
    if (id == kNone) id = b_.intern(d_.strings[static_cast<size_t>(index)]);
    return id;
  }

  int32_t clamp_line(int64_t line) {
    if (line >= 0 && line <= std::numeric_limits<int32_t>::max()) return static_cast<int32_t>(line);
    if (!warned_line_) {
      warned_line_ = true;
      b_.warn("line number " + std::to_string(line) + " out of range; shown as 0");
    }
    return 0;
  }

  FunctionId model_function(uint32_t fi) {
    uint32_t &id = function_model_[fi];
    if (id != kNone) return id;
    const PprofFunction &rf = d_.functions[fi];
    Function f;
    if (rf.name)
      f.name = str(rf.name);
    else if (rf.system_name)
      f.name = str(rf.system_name);
    else
      f.name = b_.intern("<unknown>");
    f.system_name = str(rf.system_name);
    f.file = str(rf.filename);
    f.start_line = clamp_line(rf.start_line);
    id = b_.function(f);
    return id;
  }

  // The frame (function, line, kind), deduplicated here (the reader is the only one adding
  // frames, so ProfileBuilder's map is skipped): pprof frames have no bytecode index.
  FrameId frame(FunctionId function, int32_t line, FrameKind kind) {
    Profile &p = b_.profile();
    uint32_t key = static_cast<uint32_t>(line) << 1 | (kind == FrameKind::inlined ? 1 : 0);
    bool inserted;
    FrameId f =
        frame_ids_.find_or_insert(function, key, static_cast<FrameId>(p.frames.size()), &inserted);
    if (inserted) p.frames.push_back(Frame{function, line, -1, kind});
    return f;
  }

  // Frames of a location, caller first (the order stacks are built in): one per line, the
  // inlined callees marked; a location without lines is function 0x<address> in its mapping.
  std::pair<uint32_t, uint32_t> location_frames(uint32_t li) {
    std::pair<uint32_t, uint32_t> &range = location_frames_[li];
    if (range.first != kNone) return range;
    const PprofLocation &l = d_.locations[li];
    range.first = static_cast<uint32_t>(frames_.size());
    if (l.line_begin == l.line_end) {
      char name[32];
      snprintf(name, sizeof name, "0x%llx", static_cast<unsigned long long>(l.address));
      Function f;
      f.name = b_.intern(name);
      if (l.mapping != kNone) f.library = str(d_.mappings[l.mapping].filename);
      frames_.push_back(frame(b_.function(f), 0, FrameKind::unknown));
    } else {
      for (uint32_t i = l.line_end; i-- > l.line_begin;) {
        const PprofLine &line = d_.lines[i];
        FrameKind kind = i + 1 == l.line_end ? FrameKind::unknown : FrameKind::inlined;
        frames_.push_back(frame(model_function(line.function), clamp_line(line.line), kind));
      }
    }
    range.second = static_cast<uint32_t>(frames_.size());
    return range;
  }

  // The stack (parent, frame), deduplicated here rather than in ProfileBuilder for speed (the
  // reader is the only one building stacks).
  StackId stack_node(StackId parent, FrameId frame) {
    bool inserted;
    StackId s = stacks_.find_or_insert(parent + 1u, frame, static_cast<StackId>(b_.stack_count()),
                                       &inserted);
    if (inserted) b_.append_stack(parent, frame);
    return s;
  }

  // drop_frames: go tool pprof's Profile.Prune, on location lines (here, once) and then on
  // every sample (prune_sample).
  void prepare_pruning() {
    if (d_.drop_frames == 0 || d_.strings[d_.drop_frames].empty()) return;
    PprofPruner pruner;
    std::string err;
    std::string_view drop = d_.strings[d_.drop_frames], keep = d_.strings[d_.keep_frames];
    if (!pruner.init(drop, keep, &err)) {
      prune_warning_ = "drop_frames '" + std::string(drop) + "' not applied: " + err;
      return;
    }
    prune_.assign(d_.locations.size(), 0);
    for (size_t li = 0; li < d_.locations.size(); li++) {
      PprofLocation &l = d_.locations[li];
      // The outermost line (from the caller side) whose function is dropped.
      uint32_t match = kNone;
      for (uint32_t i = l.line_end; i > l.line_begin; i--) {
        const PprofFunction &f = d_.functions[d_.lines[i - 1].function];
        if (f.name && pruner.drops(d_.strings[f.name])) {
          match = i - 1;
          break;
        }
      }
      if (match == kNone) continue;
      if (match + 1 == l.line_end) {
        prune_[li] = kPruneLocation;
      } else {
        prune_[li] = kPruneBeneath;
        l.line_begin = match + 1;
      }
    }
    prune_warning_ = "applied drop_frames '" + std::string(drop) + "'" +
                     (keep.empty() ? "" : " and keep_frames '" + std::string(keep) + "'") +
                     " as go tool pprof does";
  }

  // Cuts a sample's locations (leaf first) as Profile.Prune does. Returns the new leaf index.
  size_t prune_sample(const std::vector<uint32_t> &locs) const {
    bool found_user = false;
    for (size_t i = locs.size(); i-- > 0;) {
      uint8_t p = prune_[locs[i]];
      if (p == 0) {
        found_user = true;
        continue;
      }
      if (!found_user) continue;
      return p == kPruneLocation ? i + 1 : i;
    }
    return 0;
  }

  ThreadKey thread_key(int64_t key) const {
    return thread_keys_.empty() ? ThreadKey::none : thread_keys_[static_cast<size_t>(key)];
  }

  void prepare_threads() {
    bool any = false;
    std::vector<ThreadKey> keys(d_.strings.size(), ThreadKey::none);
    for (size_t i = 0; i < d_.strings.size(); i++) {
      std::string_view s = d_.strings[i];
      if (s == "thread" || s == "thread_name")
        keys[i] = ThreadKey::name;
      else if (s == "thread_id" || s == "tid")
        keys[i] = ThreadKey::os_tid;
      else if (s == "java_thread_id")
        keys[i] = ThreadKey::java_tid;
      else
        continue;
      any = true;
    }
    if (!any) return;
    thread_keys_ = std::move(keys);
    b_.profile().threads.push_back(Thread{}); // thread 0: samples without thread labels
  }

  ThreadId sample_thread(int64_t name, int64_t os_tid, int64_t java_tid) {
    if (d_.strings[name].empty()) name = 0;
    if (name == 0 && os_tid < 0 && java_tid < 0) {
      unnamed_thread_used_ = true;
      return 0;
    }
    ThreadCacheKey key{name, os_tid, java_tid};
    auto [it, inserted] = thread_cache_.try_emplace(key, 0);
    if (inserted) { // new (the cache is keyed like Thread, so no ProfileBuilder scan is needed)
      std::vector<Thread> &threads = b_.profile().threads;
      it->second = static_cast<ThreadId>(threads.size());
      threads.push_back(Thread{str(name), os_tid, java_tid});
    }
    return it->second;
  }

  // One decoded sample waiting for its stack.
  struct PendingSample {
    uint32_t frames_begin, frames_end; // root first, in batch_frames_
    size_t values;                     // index of its first value in batch_values_
    ThreadId thread;
    uint32_t labels;
    StackId stack;
    size_t at; // byte offset, for errors
  };
  static constexpr size_t kBatch = 32;

  bool dangling_location(size_t si, uint64_t id) {
    return d_.fail(d_.samples[si].at, "sample " + std::to_string(si) + " refers to location id " +
                                          std::to_string(id) + ", which does not exist");
  }

  // Decodes sample si into batch_: its frames (root first), values, thread and label set.
  bool add_to_batch(size_t si) {
    loc_ids_.clear();
    labels_.clear();
    const size_t values_begin = batch_values_.size();
    if (!d_.decode_sample(si, &loc_ids_, &batch_values_, &labels_)) return false;

    // Frames, root first (locations are leaf first, each location's frames caller first).
    PendingSample ps;
    ps.frames_begin = static_cast<uint32_t>(batch_frames_.size());
    if (prune_.empty()) {
      // Fast path: location id -> its frame (one load) for the usual one-line locations.
      for (uint64_t id : loc_ids_)
        if (id < loc_cache_.size()) __builtin_prefetch(&loc_cache_[id]);
      for (size_t k = loc_ids_.size(); k-- > 0;) {
        uint64_t id = loc_ids_[k];
        uint32_t e = id < loc_cache_.size() ? loc_cache_[id] : kNone;
        if (e == kNone) {
          uint32_t li = d_.location_ids.find(id);
          if (li == kNone) return dangling_location(si, id);
          auto [fb, fe] = location_frames(li);
          e = fe - fb == 1 && frames_[fb] < kMulti ? frames_[fb] : kMulti | li;
          if (id < loc_cache_.size() && li < kMulti) loc_cache_[id] = e;
        }
        if (!(e & kMulti)) {
          batch_frames_.push_back(e);
        } else {
          auto [fb, fe] = location_frames(e & ~kMulti);
          for (uint32_t f = fb; f < fe; f++) batch_frames_.push_back(frames_[f]);
        }
      }
    } else {
      locs_.resize(loc_ids_.size());
      for (size_t k = 0; k < loc_ids_.size(); k++) {
        locs_[k] = d_.location_ids.find(loc_ids_[k]);
        if (locs_[k] == kNone) return dangling_location(si, loc_ids_[k]);
      }
      const size_t leaf = prune_sample(locs_);
      for (size_t k = locs_.size(); k-- > leaf;) {
        auto [fb, fe] = location_frames(locs_[k]);
        for (uint32_t f = fb; f < fe; f++) batch_frames_.push_back(frames_[f]);
      }
    }
    ps.frames_end = static_cast<uint32_t>(batch_frames_.size());
    ps.values = values_begin;
    ps.stack = kNoStack;
    ps.at = d_.samples[si].at;

    // Thread and labels.
    int64_t tname = 0, tid = -1, jtid = -1;
    label_set_.clear();
    for (const PprofLabel &l : labels_) {
      if (l.str == 0 && l.num == 0 && l.unit == 0) continue; // go tool pprof drops these
      switch (thread_key(l.key)) {
      case ThreadKey::name:
        if (l.str) {
          tname = l.str;
          continue;
        }
        break;
      case ThreadKey::os_tid:
      case ThreadKey::java_tid: {
        int64_t num = l.num;
        bool ok = l.str == 0;
        if (!ok) { // a tid written as a string
          std::string_view sv = d_.strings[l.str];
          auto [p, ec] = std::from_chars(sv.data(), sv.data() + sv.size(), num);
          ok = ec == std::errc() && p == sv.data() + sv.size();
        }
        if (ok && num >= 0) {
          (thread_key(l.key) == ThreadKey::os_tid ? tid : jtid) = num;
          continue;
        }
        break;
      }
      case ThreadKey::none:
        break;
      }
      label_set_.push_back(Label{str(l.key), str(l.str), l.str ? 0 : l.num, str(l.unit)});
    }
    ps.thread = thread_keys_.empty() ? 0 : sample_thread(tname, tid, jtid);
    ps.labels = label_set_.empty() ? 0 : b_.label_set(label_set_);
    batch_.push_back(ps);
    return true;
  }

  // Builds the stacks of batch_, one level at a time across the batch, prefetching each
  // level's table slots before looking them up.
  void build_batch_stacks() {
    active_.clear();
    for (uint32_t i = 0; i < batch_.size(); i++)
      if (batch_[i].frames_begin < batch_[i].frames_end) active_.push_back(i);
    for (uint32_t depth = 0; !active_.empty(); depth++) {
      for (uint32_t i : active_) {
        const PendingSample &ps = batch_[i];
        stacks_.prefetch(ps.stack + 1u, batch_frames_[ps.frames_begin + depth]);
      }
      size_t kept = 0;
      for (uint32_t i : active_) {
        PendingSample &ps = batch_[i];
        ps.stack = stack_node(ps.stack, batch_frames_[ps.frames_begin + depth]);
        if (ps.frames_begin + depth + 1 < ps.frames_end) active_[kept++] = i;
      }
      active_.resize(kept);
    }
  }

  struct EventPlan {
    EventId event;
    int count_type, value_type;
    uint64_t abs_count = 0, abs_value = 0; // overflow guards: sums of magnitudes
  };

  static bool add_magnitude(uint64_t *sum, int64_t v) {
    uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    *sum += m;
    return m <= static_cast<uint64_t>(INT64_MAX) && *sum <= static_cast<uint64_t>(INT64_MAX);
  }

  void reset() {
    b_ = ProfileBuilder();
    string_ids_.assign(d_.strings.size(), kNone);
    string_ids_[0] = 0;
    function_model_.assign(d_.functions.size(), kNone);
    location_frames_.assign(d_.locations.size(), {kNone, kNone});
    loc_cache_.assign(d_.location_ids.dense_size(), kNone);
    frames_.clear();
    stacks_ = PairMap();
    stacks_.reserve(d_.locations.size() * 2);
    frame_ids_ = PairMap();
    thread_cache_.clear();
    thread_keys_.clear();
    unnamed_thread_used_ = false;
    warned_line_ = false;
  }

  LoadResult build(const std::vector<std::string> &unpair, std::string *split) {
    reset();

    // Events.
    std::vector<std::string_view> type_names;
    for (const PprofValueType &t : d_.sample_types) type_names.push_back(d_.strings[t.type]);
    std::vector<PprofEventGroup> groups = group_pprof_sample_types(type_names, unpair);
    std::vector<EventPlan> plans;
    std::vector<int> event_of_type(d_.sample_types.size(), 0);
    for (const PprofEventGroup &g : groups) {
      // Names are unique already; ProfileBuilder::event() would scan every event per call.
      std::string_view unit = d_.strings[d_.sample_types[g.value_type].unit];
      EventId e = static_cast<EventId>(b_.profile().events.size());
      Event &ev = b_.profile().events.emplace_back();
      ev.name = b_.intern(g.name);
      ev.unit = b_.intern(unit.empty() ? "count" : unit);
      ev.value_label = str(d_.sample_types[g.value_type].type);
      if (g.count_type >= 0) {
        ev.count_label = str(d_.sample_types[g.count_type].type);
        ev.sources.push_back(ev.count_label);
        event_of_type[g.count_type] = static_cast<int>(e);
      }
      ev.sources.push_back(ev.value_label);
      event_of_type[g.value_type] = static_cast<int>(e);
      plans.push_back(EventPlan{e, g.count_type, g.value_type});
    }

    if (!prune_warning_.empty()) b_.warn(prune_warning_);
    prepare_threads();

    // Samples, in batches: decode, build the batch's stacks, then add to events.
    const size_t n = d_.samples.size();
    for (size_t si = 0; si < n;) {
      batch_.clear();
      batch_frames_.clear();
      batch_values_.clear();
      for (; si < n && batch_.size() < kBatch; si++) {
        if ((si & 0xffff) == 0xffff) {
          if (options_.cancelled()) return LoadResult::failure("cancelled");
          if (options_.progress) options_.progress(static_cast<double>(si) / n);
        }
        if (!add_to_batch(si)) return failure();
      }
      build_batch_stacks();
      if (b_.stack_count() >= kNone - 1) {
        d_.fail(d_.samples[si - 1].at, "too many distinct stacks");
        return failure();
      }
      for (const PendingSample &ps : batch_) {
        const int64_t *values = &batch_values_[ps.values];
        for (EventPlan &plan : plans) {
          int64_t value = values[plan.value_type];
          int64_t count = plan.count_type >= 0 ? values[plan.count_type] : 1;
          if (plan.count_type >= 0) {
            if (count == 0 && value == 0) continue;
            if (count < 1) {
              *split = std::string(type_names[plan.value_type]);
              return LoadResult::failure("split");
            }
          } else if (value == 0) {
            continue;
          }
          if (!add_magnitude(&plan.abs_count, count) || !add_magnitude(&plan.abs_value, value)) {
            d_.fail(ps.at, "sample values of type '" + std::string(type_names[plan.value_type]) +
                               "' add up beyond the 64-bit range");
            return failure();
          }
          b_.add_sample(plan.event, ps.stack, ps.thread, 0, count, value, ps.labels);
        }
      }
    }
    if (options_.cancelled()) return LoadResult::failure("cancelled");

    // Thread 0 was reserved for samples without thread labels; drop it when none had that.
    Profile &p = b_.profile();
    if (!thread_keys_.empty() && !unnamed_thread_used_ && p.threads.size() > 1) {
      p.threads.erase(p.threads.begin());
      for (Event &e : p.events) {
        const PackedInts &old = e.samples.thread;
        PackedInts shifted;
        for (size_t i = 0; i < old.size(); i++) shifted.push_back(old.at(i) - 1);
        e.samples.thread = std::move(shifted);
      }
    }

    set_metadata(unpair, event_of_type);
    if (options_.progress) options_.progress(1.0);
    return LoadResult::success(b_.finish());
  }

  void set_metadata(const std::vector<std::string> &unpair, const std::vector<int> &event_of_type) {
    Metadata &m = b_.metadata();
    m.format = "pprof";
    m.start_time_ns = d_.time_nanos;
    m.duration_ns = d_.duration_nanos;
    m.period = d_.period;
    if (d_.period_type.type || d_.period_type.unit)
      m.period_type = std::string(d_.strings[d_.period_type.type]) + "/" +
                      std::string(d_.strings[d_.period_type.unit]);
    for (int64_t c : d_.comments) m.comments.emplace_back(d_.strings[c]);
    for (const std::string &c : m.comments)
      if (c.rfind("Produced by ", 0) == 0) m.producer = c.substr(12);
    if (m.producer.empty())
      for (const PprofFunction &f : d_.functions) {
        std::string_view file = d_.strings[f.filename];
        if (file.size() > 3 && file.substr(file.size() - 3) == ".go") {
          m.producer = "go";
          break;
        }
      }
    for (const std::string &t : unpair)
      b_.warn("sample type '" + t + "' kept apart from its count type: that type has values < 1");
    if (!d_.sample_types.empty()) {
      int def = static_cast<int>(d_.sample_types.size()) - 1; // go tool pprof: the last type
      if (d_.default_sample_type != 0)
        for (size_t i = 0; i < d_.sample_types.size(); i++)
          if (d_.strings[d_.sample_types[i].type] == d_.strings[d_.default_sample_type]) {
            def = static_cast<int>(i);
            break;
          }
      m.default_event = event_of_type[def];
    }
  }

  PprofDecoder &d_;
  const LoadOptions &options_;
  static constexpr uint8_t kPruneLocation = 1, kPruneBeneath = 2;
  std::vector<uint8_t> prune_; // per location, empty when drop_frames is not applied
  std::string prune_warning_;

  ProfileBuilder b_;
  std::vector<uint32_t> string_ids_;                           // pprof string index -> StringId
  std::vector<uint32_t> function_model_;                       // pprof function -> FunctionId
  std::vector<std::pair<uint32_t, uint32_t>> location_frames_; // -> range in frames_
  std::vector<FrameId> frames_;
  // By location id (dense ids only): the location's single frame, kMulti | location index for
  // a multi-line location, kNone until first use.
  static constexpr uint32_t kMulti = 0x80000000u;
  std::vector<uint32_t> loc_cache_;
  PairMap stacks_;    // (parent + 1, frame) -> stack
  PairMap frame_ids_; // (function, line << 1 | inlined) -> frame

  std::vector<PendingSample> batch_;
  std::vector<FrameId> batch_frames_;
  std::vector<int64_t> batch_values_;
  std::vector<uint32_t> active_, locs_;
  std::vector<uint64_t> loc_ids_;
  std::vector<PprofLabel> labels_;
  LabelSet label_set_;

  std::vector<ThreadKey> thread_keys_; // per string index; empty when no thread labels
  struct ThreadCacheKey {
    int64_t name, os_tid, java_tid;
    bool operator==(const ThreadCacheKey &) const = default;
  };
  struct ThreadCacheHash {
    size_t operator()(const ThreadCacheKey &k) const {
      uint64_t h = static_cast<uint64_t>(k.name) * 1000003u ^
                   static_cast<uint64_t>(k.os_tid) * 31u ^ static_cast<uint64_t>(k.java_tid);
      return std::hash<uint64_t>()(h);
    }
  };
  std::unordered_map<ThreadCacheKey, ThreadId, ThreadCacheHash> thread_cache_;
  bool unnamed_thread_used_ = false;
  bool warned_line_ = false;
};

} // namespace

LoadResult read_pprof(std::string_view data, const LoadOptions &options) {
  PprofDecoder decoder;
  if (!decoder.decode(data)) return LoadResult::failure(decoder.error(), decoder.error_offset());
  return PprofModelBuilder(decoder, options).run();
}

} // namespace hotlines
