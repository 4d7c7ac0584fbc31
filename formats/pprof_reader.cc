// pprof reader (see pprof_reader.h). Decodes profile.proto straight from the wire format with
// WireReader (no message objects: a 1-million-sample profile loads in a fraction of the time
// libprotobuf needs to build its messages), validates every id and string index, and builds
// the model. The mapping decisions (documented in pprof_reader.h):
//  - sample types -> events through group_pprof_sample_types();
//  - a sample is stored in an event only when the event's values for it are not all zero;
//  - locations expand to one frame per line, inlined callees marked FrameKind::inlined;
//  - unsymbolized locations become functions named 0x<address> in their mapping's library;
//  - thread labels become threads, other labels label sets; drop_frames is applied.
#include "formats/pprof_reader.h"

#include "formats/pprof_prune.h"
#include "formats/pprof_sample_types.h"
#include "formats/pprof_wire.h"
#include "formats/profile_builder.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <sys/mman.h>
#include <unordered_map>
#include <vector>

namespace hotlines {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Maps pprof ids (uint64, usually dense from 1) to table indices.
class IdIndex {
public:
  // Returns false and sets *dup to the first repeated id (id 0 is reserved and reported too).
  bool build(const std::vector<uint64_t> &ids, uint64_t *bad) {
    uint64_t max_id = 0;
    for (uint64_t id : ids) max_id = std::max(max_id, id);
    dense_.clear();
    sparse_.clear();
    use_dense_ = max_id <= 4 * ids.size() + 64;
    if (use_dense_) dense_.assign(max_id + 1, kNone);
    for (size_t i = 0; i < ids.size(); i++) {
      uint64_t id = ids[i];
      *bad = id;
      if (id == 0) return false;
      if (use_dense_) {
        if (dense_[id] != kNone) return false;
        dense_[id] = static_cast<uint32_t>(i);
      } else if (!sparse_.try_emplace(id, static_cast<uint32_t>(i)).second) {
        return false;
      }
    }
    return true;
  }
  // Size of the id-indexed table when ids are dense, else 0.
  size_t dense_size() const { return use_dense_ ? dense_.size() : 0; }
  uint32_t find(uint64_t id) const {
    if (use_dense_) return id < dense_.size() ? dense_[id] : kNone;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? kNone : it->second;
  }

private:
  bool use_dense_ = true;
  std::vector<uint32_t> dense_;
  std::unordered_map<uint64_t, uint32_t> sparse_;
};

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
    table_.reserve(n);
    if (n * sizeof(Entry) >= (size_t(8) << 20)) { // a hint; errors are harmless
      uintptr_t begin = reinterpret_cast<uintptr_t>(table_.data()) & ~uintptr_t(4095);
      uintptr_t end = reinterpret_cast<uintptr_t>(table_.data() + n);
      madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
    }
    table_.resize(n);
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

struct RawFunction {
  uint64_t id = 0;
  int64_t name = 0, system_name = 0, filename = 0, start_line = 0;
  size_t at = 0;
};
struct RawMapping {
  uint64_t id = 0;
  int64_t filename = 0;
  size_t at = 0;
};
struct RawLine {
  uint64_t function_id = 0; // resolved to a function index after parsing
  int64_t line = 0;
};
struct RawLocation {
  uint64_t id = 0, mapping_id = 0, address = 0;
  uint32_t line_begin = 0, line_end = 0; // into lines_
  uint32_t mapping = kNone;              // resolved mapping index
  size_t at = 0;
};
struct RawLabel {
  int64_t key = 0, str = 0, num = 0, unit = 0;
};
struct View {
  std::string_view bytes;
  size_t at = 0;
};

// Label keys that name threads.
enum class ThreadKey : uint8_t { none, name, os_tid, java_tid };

class PprofParser {
public:
  PprofParser(std::string_view data, const LoadOptions &options) : data_(data), options_(options) {}

  LoadResult run() {
    if (!scan_top() || !parse_tables()) return failure();
    prepare_pruning();
    // A pair whose count column holds values < 1 is split, and the profile read again.
    std::vector<std::string> unpair;
    for (;;) {
      std::string split;
      LoadResult r = build(unpair, &split);
      if (split.empty()) return r;
      unpair.push_back(split);
    }
  }

private:
  // ---- errors ----
  bool fail(size_t at, std::string message) {
    if (error_.empty()) {
      error_ = "pprof: " + std::move(message);
      error_at_ = static_cast<int64_t>(at);
    }
    return false;
  }
  bool fail_wire(const WireReader &r, const std::string &where) {
    return fail(r.error_offset(), where + ": " + r.error());
  }
  LoadResult failure() const { return LoadResult::failure(error_, error_at_); }

  bool valid_string(int64_t index) const {
    return index >= 0 && static_cast<uint64_t>(index) < strings_.size();
  }
  bool check_string(int64_t index, size_t at, const std::string &what) {
    if (valid_string(index)) return true;
    return fail(at, what + ": string index " + std::to_string(index) +
                        " out of range (the string table has " + std::to_string(strings_.size()) +
                        " entries)");
  }

  static bool expect_wire(WireReader &r, uint32_t got, uint32_t want, const char *field) {
    if (got == want) return true;
    return r.fail(std::string("field ") + field + " has wire type " + std::to_string(got) +
                  ", expected " + std::to_string(want));
  }

  // Reads a repeated varint field, packed (wire type 2) or not.
  template <typename T>
  static bool repeated(WireReader &r, uint32_t wire, std::vector<T> *out, const char *field) {
    uint64_t v;
    if (wire == WireReader::kVarint) {
      if (!r.varint(&v)) return false;
      out->push_back(static_cast<T>(v));
      return true;
    }
    if (wire != WireReader::kLen) return expect_wire(r, wire, WireReader::kLen, field);
    std::string_view packed;
    size_t at;
    if (!r.bytes(&packed, &at)) return false;
    WireReader p(packed, at);
    while (!p.done()) {
      if (!p.varint(&v)) return r.fail_at(p.error_offset(), std::string(field) + ": " + p.error());
      out->push_back(static_cast<T>(v));
    }
    return true;
  }

  static bool scalar(WireReader &r, uint32_t wire, int64_t *out, const char *field) {
    return expect_wire(r, wire, WireReader::kVarint, field) && r.int64(out);
  }
  static bool scalar_u(WireReader &r, uint32_t wire, uint64_t *out, const char *field) {
    return expect_wire(r, wire, WireReader::kVarint, field) && r.varint(out);
  }
  static bool message(WireReader &r, uint32_t wire, View *out, const char *field) {
    return expect_wire(r, wire, WireReader::kLen, field) && r.bytes(&out->bytes, &out->at);
  }

  // ---- pass 1: top-level fields ----
  bool scan_top() {
    WireReader r(data_, 0);
    View v;
    while (!r.done()) {
      uint32_t field, wire;
      if (!r.tag(&field, &wire)) break;
      switch (field) {
      case 1:
        if (message(r, wire, &v, "Profile.sample_type")) sample_type_views_.push_back(v);
        break;
      case 2:
        if (message(r, wire, &v, "Profile.sample")) sample_views_.push_back(v);
        break;
      case 3:
        if (message(r, wire, &v, "Profile.mapping")) mapping_views_.push_back(v);
        break;
      case 4:
        if (message(r, wire, &v, "Profile.location")) location_views_.push_back(v);
        break;
      case 5:
        if (message(r, wire, &v, "Profile.function")) function_views_.push_back(v);
        break;
      case 6:
        if (message(r, wire, &v, "Profile.string_table")) strings_.push_back(v.bytes);
        break;
      case 7:
        scalar(r, wire, &drop_frames_, "Profile.drop_frames");
        break;
      case 8:
        scalar(r, wire, &keep_frames_, "Profile.keep_frames");
        break;
      case 9:
        scalar(r, wire, &time_nanos_, "Profile.time_nanos");
        break;
      case 10:
        scalar(r, wire, &duration_nanos_, "Profile.duration_nanos");
        break;
      case 11:
        if (message(r, wire, &v, "Profile.period_type")) {
          period_type_view_ = v;
          has_period_type_ = true;
        }
        break;
      case 12:
        scalar(r, wire, &period_, "Profile.period");
        break;
      case 13:
        repeated(r, wire, &comments_, "Profile.comment");
        break;
      case 14:
        scalar(r, wire, &default_sample_type_, "Profile.default_sample_type");
        break;
      default:
        r.skip(wire);
      }
    }
    if (r.failed()) return fail_wire(r, "corrupt or truncated protobuf");
    if (strings_.empty() || !strings_[0].empty())
      return fail(0, strings_.empty() ? "the string table is missing (not a pprof profile?)"
                                      : "the string table must start with an empty string");
    return true;
  }

  // ---- pass 2: sample types, functions, mappings, locations ----
  bool parse_value_type(const View &v, const char *what, int64_t *type, int64_t *unit) {
    WireReader r(v.bytes, v.at);
    while (!r.done()) {
      uint32_t field, wire;
      if (!r.tag(&field, &wire)) break;
      if (field == 1)
        scalar(r, wire, type, "ValueType.type");
      else if (field == 2)
        scalar(r, wire, unit, "ValueType.unit");
      else
        r.skip(wire);
    }
    if (r.failed()) return fail_wire(r, what);
    return check_string(*type, v.at, std::string(what) + " type") &&
           check_string(*unit, v.at, std::string(what) + " unit");
  }

  bool parse_tables() {
    for (size_t i = 0; i < sample_type_views_.size(); i++) {
      int64_t type = 0, unit = 0;
      if (!parse_value_type(sample_type_views_[i], "sample type", &type, &unit)) return false;
      sample_types_.push_back({type, unit});
    }
    if (has_period_type_ && !parse_value_type(period_type_view_, "period type", &period_type_.first,
                                              &period_type_.second))
      return false;
    for (int64_t c : comments_)
      if (!check_string(c, 0, "comment")) return false;
    if (!check_string(drop_frames_, 0, "drop_frames") ||
        !check_string(keep_frames_, 0, "keep_frames") ||
        !check_string(default_sample_type_, 0, "default_sample_type"))
      return false;
    if (sample_types_.empty() && !sample_views_.empty())
      return fail(sample_views_[0].at, "the profile has samples but no sample types");

    // Functions.
    functions_.reserve(function_views_.size());
    for (const View &v : function_views_) {
      RawFunction f;
      f.at = v.at;
      WireReader r(v.bytes, v.at);
      while (!r.done()) {
        uint32_t field, wire;
        if (!r.tag(&field, &wire)) break;
        switch (field) {
        case 1:
          scalar_u(r, wire, &f.id, "Function.id");
          break;
        case 2:
          scalar(r, wire, &f.name, "Function.name");
          break;
        case 3:
          scalar(r, wire, &f.system_name, "Function.system_name");
          break;
        case 4:
          scalar(r, wire, &f.filename, "Function.filename");
          break;
        case 5:
          scalar(r, wire, &f.start_line, "Function.start_line");
          break;
        default:
          r.skip(wire);
        }
      }
      if (r.failed()) return fail_wire(r, "function " + std::to_string(functions_.size()));
      std::string what = "function id " + std::to_string(f.id);
      if (!check_string(f.name, v.at, what + " name") ||
          !check_string(f.system_name, v.at, what + " system name") ||
          !check_string(f.filename, v.at, what + " file name"))
        return false;
      functions_.push_back(f);
    }
    // Mappings.
    for (const View &v : mapping_views_) {
      RawMapping m;
      m.at = v.at;
      WireReader r(v.bytes, v.at);
      while (!r.done()) {
        uint32_t field, wire;
        if (!r.tag(&field, &wire)) break;
        if (field == 1)
          scalar_u(r, wire, &m.id, "Mapping.id");
        else if (field == 5)
          scalar(r, wire, &m.filename, "Mapping.filename");
        else if (field == 6) {
          int64_t build_id = 0;
          if (scalar(r, wire, &build_id, "Mapping.build_id") &&
              !check_string(build_id, v.at, "mapping build id"))
            return false;
        } else
          r.skip(wire);
      }
      if (r.failed()) return fail_wire(r, "mapping " + std::to_string(mappings_.size()));
      if (!check_string(m.filename, v.at, "mapping id " + std::to_string(m.id) + " file name"))
        return false;
      mappings_.push_back(m);
    }
    // Locations and their lines.
    locations_.reserve(location_views_.size());
    for (const View &v : location_views_) {
      RawLocation l;
      l.at = v.at;
      l.line_begin = static_cast<uint32_t>(lines_.size());
      WireReader r(v.bytes, v.at);
      while (!r.done()) {
        uint32_t field, wire;
        if (!r.tag(&field, &wire)) break;
        switch (field) {
        case 1:
          scalar_u(r, wire, &l.id, "Location.id");
          break;
        case 2:
          scalar_u(r, wire, &l.mapping_id, "Location.mapping_id");
          break;
        case 3:
          scalar_u(r, wire, &l.address, "Location.address");
          break;
        case 4: {
          View lv;
          if (!message(r, wire, &lv, "Location.line")) break;
          RawLine line;
          WireReader lr(lv.bytes, lv.at);
          while (!lr.done()) {
            uint32_t f2, w2;
            if (!lr.tag(&f2, &w2)) break;
            if (f2 == 1)
              scalar_u(lr, w2, &line.function_id, "Line.function_id");
            else if (f2 == 2)
              scalar(lr, w2, &line.line, "Line.line");
            else
              lr.skip(w2);
          }
          if (lr.failed()) return fail_wire(lr, "location id " + std::to_string(l.id) + " line");
          lines_.push_back(line);
          break;
        }
        default:
          r.skip(wire);
        }
      }
      if (r.failed()) return fail_wire(r, "location " + std::to_string(locations_.size()));
      if (lines_.size() >= kNone) return fail(v.at, "too many location lines");
      l.line_end = static_cast<uint32_t>(lines_.size());
      locations_.push_back(l);
    }
    if (locations_.size() >= kNone || functions_.size() >= kNone || mappings_.size() >= kNone)
      return fail(0, "too many locations, functions or mappings");

    // Resolve ids.
    uint64_t bad = 0;
    std::vector<uint64_t> ids;
    ids.reserve(std::max({functions_.size(), mappings_.size(), locations_.size()}));
    for (const RawFunction &f : functions_) ids.push_back(f.id);
    if (!function_ids_.build(ids, &bad))
      return fail(0, bad ? "two functions have id " + std::to_string(bad)
                         : "a function has the reserved id 0");
    ids.clear();
    for (const RawMapping &m : mappings_) ids.push_back(m.id);
    if (!mapping_ids_.build(ids, &bad))
      return fail(0, bad ? "two mappings have id " + std::to_string(bad)
                         : "a mapping has the reserved id 0");
    ids.clear();
    for (const RawLocation &l : locations_) ids.push_back(l.id);
    if (!location_ids_.build(ids, &bad))
      return fail(0, bad ? "two locations have id " + std::to_string(bad)
                         : "a location has the reserved id 0");
    for (RawLocation &l : locations_) {
      if (l.mapping_id != 0) {
        l.mapping = mapping_ids_.find(l.mapping_id);
        if (l.mapping == kNone)
          return fail(l.at, "location id " + std::to_string(l.id) + " refers to mapping id " +
                                std::to_string(l.mapping_id) + ", which does not exist");
      }
      for (uint32_t i = l.line_begin; i < l.line_end; i++) {
        uint32_t fi = function_ids_.find(lines_[i].function_id);
        if (fi == kNone)
          return fail(l.at, "location id " + std::to_string(l.id) + " has a line in function id " +
                                std::to_string(lines_[i].function_id) + ", which does not exist");
        lines_[i].function_id = fi;
      }
    }
    return true;
  }

  // ---- model construction ----
  StringId str(int64_t index) {
    uint32_t &id = string_ids_[static_cast<size_t>(index)];
    if (id == kNone) id = b_.intern(strings_[static_cast<size_t>(index)]);
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
    const RawFunction &rf = functions_[fi];
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

  // Frames of a location, caller first (the order stacks are built in).
  std::pair<uint32_t, uint32_t> location_frames(uint32_t li) {
    std::pair<uint32_t, uint32_t> &range = location_frames_[li];
    if (range.first != kNone) return range;
    const RawLocation &l = locations_[li];
    range.first = static_cast<uint32_t>(frames_.size());
    if (l.line_begin == l.line_end) {
      char name[32];
      snprintf(name, sizeof name, "0x%llx", static_cast<unsigned long long>(l.address));
      Function f;
      f.name = b_.intern(name);
      if (l.mapping != kNone) f.library = str(mappings_[l.mapping].filename);
      frames_.push_back(frame(b_.function(f), 0, FrameKind::unknown));
    } else {
      for (uint32_t i = l.line_end; i-- > l.line_begin;) {
        const RawLine &line = lines_[i];
        FrameKind kind = i + 1 == l.line_end ? FrameKind::unknown : FrameKind::inlined;
        frames_.push_back(frame(model_function(static_cast<uint32_t>(line.function_id)),
                                clamp_line(line.line), kind));
      }
    }
    range.second = static_cast<uint32_t>(frames_.size());
    return range;
  }

  // The stack (parent, frame), deduplicated here rather than in ProfileBuilder: the reader is
  // the only one building stacks, and a flat table is several times faster on large profiles.
  StackId stack_node(StackId parent, FrameId frame) {
    Profile &p = b_.profile();
    bool inserted;
    StackId s = stacks_.find_or_insert(parent + 1u, frame,
                                       static_cast<StackId>(p.stack_frame.size()), &inserted);
    if (inserted) {
      p.stack_parent.push_back(parent);
      p.stack_frame.push_back(frame);
      p.stack_depth.push_back(parent == kNoStack ? 1 : p.stack_depth[parent] + 1);
    }
    return s;
  }

  // drop_frames: go tool pprof's Profile.Prune, on location lines (here, once) and then on
  // every sample (prune_sample).
  void prepare_pruning() {
    if (drop_frames_ == 0 || strings_[drop_frames_].empty()) return;
    PprofPruner pruner;
    std::string err;
    std::string_view drop = strings_[drop_frames_], keep = strings_[keep_frames_];
    if (!pruner.init(drop, keep, &err)) {
      prune_warning_ = "drop_frames '" + std::string(drop) + "' not applied: " + err;
      return;
    }
    prune_.assign(locations_.size(), 0);
    for (size_t li = 0; li < locations_.size(); li++) {
      RawLocation &l = locations_[li];
      // The outermost line (from the caller side) whose function is dropped.
      uint32_t match = kNone;
      for (uint32_t i = l.line_end; i > l.line_begin; i--) {
        const RawFunction &f = functions_[lines_[i - 1].function_id];
        if (f.name && pruner.drops(strings_[f.name])) {
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
    if (prune_.empty()) return 0;
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
    std::vector<ThreadKey> keys(strings_.size(), ThreadKey::none);
    for (size_t i = 0; i < strings_.size(); i++) {
      std::string_view s = strings_[i];
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
    b_.thread(""); // thread 0: samples without thread labels
  }

  ThreadId sample_thread(int64_t name, int64_t os_tid, int64_t java_tid) {
    if (name == 0 && os_tid < 0 && java_tid < 0) {
      unnamed_thread_used_ = true;
      return 0;
    }
    ThreadCacheKey key{name, os_tid, java_tid};
    auto it = thread_cache_.find(key);
    if (it != thread_cache_.end()) return it->second;
    ThreadId t = b_.thread(strings_[name], os_tid, java_tid);
    if (t == 0) unnamed_thread_used_ = true;
    thread_cache_.emplace(key, t);
    return t;
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
    return fail(sample_views_[si].at, "sample " + std::to_string(si) + " refers to location id " +
                                          std::to_string(id) + ", which does not exist");
  }

  // Decodes and validates sample si into batch_ (its frames, values, thread, label set).
  bool decode_sample(size_t si) {
    const View &v = sample_views_[si];
    loc_ids_.clear();
    labels_.clear();
    const size_t values_begin = batch_values_.size();
    WireReader r(v.bytes, v.at);
    while (!r.done()) {
      uint32_t field, wire;
      if (!r.tag(&field, &wire)) break;
      if (field == 1) {
        repeated(r, wire, &loc_ids_, "Sample.location_id");
      } else if (field == 2) {
        repeated(r, wire, &batch_values_, "Sample.value");
      } else if (field == 3) {
        View lv;
        if (!message(r, wire, &lv, "Sample.label")) break;
        RawLabel l;
        WireReader lr(lv.bytes, lv.at);
        while (!lr.done()) {
          uint32_t f2, w2;
          if (!lr.tag(&f2, &w2)) break;
          switch (f2) {
          case 1:
            scalar(lr, w2, &l.key, "Label.key");
            break;
          case 2:
            scalar(lr, w2, &l.str, "Label.str");
            break;
          case 3:
            scalar(lr, w2, &l.num, "Label.num");
            break;
          case 4:
            scalar(lr, w2, &l.unit, "Label.num_unit");
            break;
          default:
            lr.skip(w2);
          }
        }
        if (lr.failed()) return fail_wire(lr, "sample " + std::to_string(si) + " label");
        if (!valid_string(l.key) || !valid_string(l.str) || !valid_string(l.unit)) {
          std::string what = "sample " + std::to_string(si) + " label";
          return check_string(l.key, lv.at, what + " key") &&
                 check_string(l.str, lv.at, what + " value") &&
                 check_string(l.unit, lv.at, what + " unit");
        }
        labels_.push_back(l);
      } else {
        r.skip(wire);
      }
    }
    if (r.failed()) return fail_wire(r, "sample " + std::to_string(si));
    const size_t nvalues = batch_values_.size() - values_begin;
    if (nvalues != sample_types_.size())
      return fail(v.at, "sample " + std::to_string(si) + " has " + std::to_string(nvalues) +
                            " values but the profile has " + std::to_string(sample_types_.size()) +
                            " sample types");
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
          uint32_t li = location_ids_.find(id);
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
        locs_[k] = location_ids_.find(loc_ids_[k]);
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
    ps.at = v.at;

    // Thread and labels.
    int64_t tname = 0, tid = -1, jtid = -1;
    label_set_.clear();
    for (const RawLabel &l : labels_) {
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
          std::string_view sv = strings_[l.str];
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

  LoadResult build(const std::vector<std::string> &unpair, std::string *split) {
    b_ = ProfileBuilder();
    string_ids_.assign(strings_.size(), kNone);
    string_ids_[0] = 0;
    function_model_.assign(functions_.size(), kNone);
    location_frames_.assign(locations_.size(), {kNone, kNone});
    loc_cache_.assign(location_ids_.dense_size(), kNone);
    frames_.clear();
    stacks_ = PairMap();
    stacks_.reserve(locations_.size() * 2);
    frame_ids_ = PairMap();
    thread_cache_.clear();
    thread_keys_.clear();
    unnamed_thread_used_ = false;
    warned_line_ = false;

    // Events.
    std::vector<std::string_view> type_names;
    for (auto [type, unit] : sample_types_) type_names.push_back(strings_[type]);
    std::vector<PprofEventGroup> groups = group_pprof_sample_types(type_names, unpair);
    std::vector<EventPlan> plans;
    std::vector<int> event_of_type(sample_types_.size(), 0);
    for (const PprofEventGroup &g : groups) {
      // Names are unique already; ProfileBuilder::event() would scan every event per call.
      std::string_view unit = strings_[sample_types_[g.value_type].second];
      EventId e = static_cast<EventId>(b_.profile().events.size());
      b_.profile().events.emplace_back();
      Event &ev = b_.event_at(e);
      ev.name = b_.intern(g.name);
      ev.unit = b_.intern(unit.empty() ? "count" : unit);
      ev.value_label = str(sample_types_[g.value_type].first);
      if (g.count_type >= 0) {
        ev.count_label = str(sample_types_[g.count_type].first);
        ev.sources.push_back(ev.count_label);
        event_of_type[g.count_type] = static_cast<int>(e);
      }
      ev.sources.push_back(ev.value_label);
      event_of_type[g.value_type] = static_cast<int>(e);
      plans.push_back(EventPlan{e, g.count_type, g.value_type});
    }

    if (!prune_warning_.empty()) b_.warn(prune_warning_);
    prepare_threads();

    // Samples, in batches: decode, then build the batch's stacks level by level so the
    // stack-table lookups of different samples overlap (prefetched), then add to events.
    const size_t n = sample_views_.size();
    for (size_t si = 0; si < n;) {
      batch_.clear();
      batch_frames_.clear();
      batch_values_.clear();
      for (; si < n && batch_.size() < kBatch; si++) {
        if ((si & 0xffff) == 0xffff) {
          if (options_.cancelled()) return LoadResult::failure("cancelled");
          if (options_.progress) options_.progress(static_cast<double>(si) / n);
        }
        if (!decode_sample(si)) return failure();
      }
      build_batch_stacks();
      if (b_.profile().stack_frame.size() >= kNone - 1) {
        fail(sample_views_[si - 1].at, "too many distinct stacks");
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
            fail(ps.at, "sample values of type '" + std::string(type_names[plan.value_type]) +
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
      for (Event &e : p.events)
        for (ThreadId &t : e.samples.thread) t--;
    }

    // Metadata.
    Metadata &m = b_.metadata();
    m.format = "pprof";
    m.start_time_ns = time_nanos_;
    m.duration_ns = duration_nanos_;
    m.period = period_;
    if (period_type_.first || period_type_.second)
      m.period_type = std::string(strings_[period_type_.first]) + "/" +
                      std::string(strings_[period_type_.second]);
    for (int64_t c : comments_) m.comments.emplace_back(strings_[c]);
    for (const std::string &c : m.comments)
      if (c.rfind("Produced by ", 0) == 0) m.producer = c.substr(12);
    if (m.producer.empty())
      for (const RawFunction &f : functions_) {
        std::string_view file = strings_[f.filename];
        if (file.size() > 3 && file.substr(file.size() - 3) == ".go") {
          m.producer = "go";
          break;
        }
      }
    for (const std::string &t : unpair)
      b_.warn("sample type '" + t + "' kept apart from its count type: that type has values < 1");
    if (!sample_types_.empty()) {
      int def = static_cast<int>(sample_types_.size()) - 1; // go tool pprof: the last type
      if (default_sample_type_ != 0)
        for (size_t i = 0; i < sample_types_.size(); i++)
          if (sample_types_[i].first == default_sample_type_ ||
              strings_[sample_types_[i].first] == strings_[default_sample_type_]) {
            def = static_cast<int>(i);
            break;
          }
      m.default_event = event_of_type[def];
    }
    if (options_.progress) options_.progress(1.0);
    return LoadResult::success(b_.finish());
  }

  std::string_view data_;
  const LoadOptions &options_;
  std::string error_;
  int64_t error_at_ = -1;

  // Wire views and scalars from pass 1.
  std::vector<View> sample_type_views_, sample_views_, mapping_views_, location_views_,
      function_views_;
  View period_type_view_;
  bool has_period_type_ = false;
  std::vector<std::string_view> strings_;
  std::vector<int64_t> comments_;
  int64_t drop_frames_ = 0, keep_frames_ = 0, time_nanos_ = 0, duration_nanos_ = 0, period_ = 0,
          default_sample_type_ = 0;

  // Tables from pass 2.
  std::vector<std::pair<int64_t, int64_t>> sample_types_; // (type, unit) string indices
  std::pair<int64_t, int64_t> period_type_{0, 0};
  std::vector<RawFunction> functions_;
  std::vector<RawMapping> mappings_;
  std::vector<RawLocation> locations_;
  std::vector<RawLine> lines_;
  IdIndex function_ids_, mapping_ids_, location_ids_;
  static constexpr uint8_t kPruneLocation = 1, kPruneBeneath = 2;
  std::vector<uint8_t> prune_; // per location, empty when drop_frames is not applied
  std::string prune_warning_;

  // Model construction state.
  ProfileBuilder b_;
  std::vector<uint32_t> string_ids_;                           // pprof string index -> StringId
  std::vector<uint32_t> function_model_;                       // pprof function index -> FunctionId
  std::vector<std::pair<uint32_t, uint32_t>> location_frames_; // -> range in frames_
  std::vector<FrameId> frames_;
  // By location id (dense ids only): the location's single frame, kMulti | location index for
  // a multi-line location, kNone until first use.
  static constexpr uint32_t kMulti = 0x80000000u;
  std::vector<uint32_t> loc_cache_;
  std::vector<PendingSample> batch_;
  std::vector<FrameId> batch_frames_;
  std::vector<int64_t> batch_values_;
  std::vector<uint32_t> active_, locs_;
  std::vector<uint64_t> loc_ids_;
  std::vector<RawLabel> labels_;
  LabelSet label_set_;
  PairMap stacks_;                     // (parent + 1, frame) -> stack
  PairMap frame_ids_;                  // (function, line << 1 | inlined) -> frame
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
  PprofParser parser(data, options);
  return parser.run();
}

} // namespace hotlines
