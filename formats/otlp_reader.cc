// OTLP reader (see otlp_reader.h): OtlpDecoder's validated tables into the model through
// ProfileBuilder. Functions, location frames, stacks and attribute sets are converted once
// each and memoized by their table index.
#include "formats/otlp_reader.h"

#include "formats/frame_text.h"
#include "formats/otlp_decoder.h"
#include "formats/pprof_wire.h"
#include "formats/profile_builder.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <unordered_map>

namespace hotlines {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// The product event of an OTLP sample type (otlp_reader.h).
std::string_view event_of_type(std::string_view type) {
  static const std::pair<std::string_view, std::string_view> kTypes[] = {
      {"cpu", "cpu"},
      {"perf_events", "cpu"},
      {"itimer", "cpu"},
      {"ctimer", "cpu"},
      {"cpu-clock", "cpu"},
      {"wall", "wall"},
      {"allocations", "alloc"},
      {"alloc_tracer", "alloc"},
      {"object_sampler", "alloc"},
      {"locks", "lock"},
      {"lock_tracer", "lock"},
      {"malloc", "nativemem"},
      {"malloc_tracer", "nativemem"},
      {"native_lock_tracer", "nativelock"},
  };
  for (auto [t, e] : kTypes)
    if (type == t) return e;
  return type;
}

// Whether a function name may be a JVM frame (`pkg/Class.method`): not when its file is
// another language's, nor when a dot comes before the last slash (a Go import path,
// `example.com/shop.Discount`; JVM packages are slash-separated).
bool may_be_jvm(std::string_view name, std::string_view file) {
  if (!file.empty() && !file.ends_with(".java") && !file.ends_with(".kt") &&
      !file.ends_with(".scala") && !file.ends_with(".groovy"))
    return false;
  size_t slash = name.rfind('/');
  return slash == std::string_view::npos ||
         name.substr(0, slash).find('.') == std::string_view::npos ||
         name.find('$') != std::string_view::npos;
}

bool counts_samples(std::string_view unit) {
  return unit.empty() || unit == "count" || unit == "samples";
}

class OtlpModelBuilder {
public:
  OtlpModelBuilder(const OtlpDecoder &d, const LoadOptions &options) : d_(d), options_(options) {}

  LoadResult run() {
    function_ids_.assign(d_.functions.size() * 2, kNone);
    location_frames_.assign(d_.locations.size(), {kNone, kNone});
    stack_ids_.assign(d_.stacks.size(), kUnbuilt);
    std::vector<EventPlan> plans = plan_events();
    const int64_t start = start_time();
    for (size_t pi = 0; pi < d_.profiles.size(); pi++) {
      const OtlpProfile &p = d_.profiles[pi];
      EventPlan &plan = plans[pi];
      for (uint32_t si = p.samples.begin; si < p.samples.end; si++) {
        if ((si & 0xffff) == 0xffff) {
          if (options_.cancelled()) return LoadResult::failure("cancelled");
          if (options_.progress) options_.progress(static_cast<double>(si) / d_.samples.size());
        }
        if (!add_sample(d_.samples[si], plan, start)) return std::move(failure_);
      }
    }
    set_metadata(plans, start);
    if (options_.progress) options_.progress(1.0);
    return LoadResult::success(b_.finish());
  }

private:
  struct EventPlan {
    EventId event;
    bool counting;       // the values are counts
    uint64_t *magnitude; // sum of |value| of the event, against overflow
  };

  std::string_view str(int32_t i) const {
    return static_cast<size_t>(i) < d_.strings.size() ? d_.strings[i] : std::string_view();
  }

  std::vector<EventPlan> plan_events() {
    struct Key {
      std::string_view type, unit;
    };
    std::vector<Key> keys;
    std::vector<EventPlan> plans;
    magnitudes_.reserve(d_.profiles.size());
    for (const OtlpProfile &p : d_.profiles) {
      std::string_view type = str(p.sample_type.type), unit = str(p.sample_type.unit);
      size_t k = 0;
      while (k < keys.size() && !(keys[k].type == type && keys[k].unit == unit)) k++;
      if (k < keys.size()) {
        plans.push_back(plans[first_plan_[k]]);
        continue;
      }
      keys.push_back({type, unit});
      first_plan_.push_back(plans.size());
      std::string name(event_of_type(type));
      if (type == "samples" || type.empty()) {
        std::string_view period = event_of_type(str(p.period_type.type));
        name = period.empty() ? "samples" : std::string(period);
      }
      if (b_.profile().find_event(name) >= 0) name += "_" + std::string(unit);
      while (b_.profile().find_event(name) >= 0) name += "'";
      const bool counting = counts_samples(unit);
      std::string model_unit = counting       ? "samples"
                               : unit == "ns" ? "nanoseconds"
                                              : std::string(unit);
      EventId e = b_.event(name, model_unit);
      Event &ev = b_.event_at(e);
      ev.value_label = b_.intern(type);
      ev.sources.push_back(ev.value_label);
      magnitudes_.push_back(0);
      plans.push_back(EventPlan{e, counting, &magnitudes_.back()});
    }
    return plans;
  }

  int64_t start_time() {
    uint64_t start = std::numeric_limits<uint64_t>::max(), end = 0;
    for (const OtlpProfile &p : d_.profiles)
      if (p.time_unix_nano) {
        start = std::min(start, p.time_unix_nano);
        end = std::max(end, p.time_unix_nano + p.duration_nano);
      }
    for (uint64_t t : d_.times) {
      start = std::min(start, t);
      end = std::max(end, t);
    }
    if (start == std::numeric_limits<uint64_t>::max() || start > INT64_MAX) return 0;
    end_ = std::min<uint64_t>(end, INT64_MAX);
    return static_cast<int64_t>(start);
  }

  FunctionId function(uint32_t fi, FrameKind kind, FrameText *text) {
    const OtlpFunction &f = d_.functions[fi];
    std::string_view name = str(f.name);
    if (name.empty()) name = str(f.system_name);
    *text = parse_frame_text(name.empty() ? std::string_view("<unknown>") : name);
    if (text->kind == FrameKind::unknown) text->kind = kind;
    // Memoized by (function, whether it is read as a JVM frame).
    const bool native = text->kind == FrameKind::kernel || text->kind == FrameKind::native ||
                        text->kind == FrameKind::cpp || !may_be_jvm(text->name, str(f.filename));
    uint32_t &id = function_ids_[fi * 2 + (native ? 1 : 0)];
    if (id != kNone) return id;
    Function fn = frame_text_function(b_, text->name, native ? FrameKind::native : text->kind);
    if (f.system_name) fn.system_name = b_.intern(str(f.system_name));
    if (f.filename) fn.file = b_.intern(str(f.filename));
    if (f.start_line > 0 && f.start_line <= INT32_MAX)
      fn.start_line = static_cast<int32_t>(f.start_line);
    id = b_.function(fn);
    return id;
  }

  // The location attribute profile.frame.type, as a kind.
  FrameKind location_kind(const OtlpLocation &l) const {
    for (uint32_t k = l.attributes.begin; k < l.attributes.end; k++) {
      if (d_.attribute_refs[k] >= d_.attributes.size()) continue; // 0 of an empty table
      const OtlpAttribute &a = d_.attributes[d_.attribute_refs[k]];
      if (str(a.key) != "profile.frame.type" || a.kind != OtlpAttribute::string) continue;
      if (a.str == "kernel") return FrameKind::kernel;
      if (a.str == "native") return FrameKind::native;
    }
    return FrameKind::unknown;
  }

  // The frames of location li, leaf first, as a range of frames_.
  std::pair<uint32_t, uint32_t> location_frames(uint32_t li) {
    std::pair<uint32_t, uint32_t> &range = location_frames_[li];
    if (range.first != kNone) return range;
    const OtlpLocation &l = d_.locations[li];
    range.first = static_cast<uint32_t>(frames_.size());
    StringId library = 0;
    if (l.mapping < d_.mapping_files.size() && d_.mapping_files[l.mapping])
      library = b_.intern(str(d_.mapping_files[l.mapping]));
    if (l.lines.begin == l.lines.end) {
      char name[32];
      snprintf(name, sizeof name, "0x%llx", static_cast<unsigned long long>(l.address));
      Function f;
      f.name = b_.intern(name);
      f.library = library;
      frames_.push_back(b_.frame(Frame{b_.function(f), 0, -1, location_kind(l)}));
    } else {
      const FrameKind kind = location_kind(l);
      for (uint32_t i = l.lines.begin; i < l.lines.end; i++) {
        const OtlpLine &line = d_.lines[i];
        FrameText text;
        Frame fr;
        fr.function = function(line.function, kind, &text);
        if (library && !b_.profile().functions[fr.function].library) {
          Function withlib = b_.profile().functions[fr.function];
          withlib.library = library;
          fr.function = b_.function(withlib);
        }
        fr.line =
            line.line > 0 && line.line <= INT32_MAX ? static_cast<int32_t>(line.line) : text.line;
        fr.kind = i + 1 < l.lines.end ? FrameKind::inlined : text.kind;
        frames_.push_back(b_.frame(fr));
      }
    }
    range.second = static_cast<uint32_t>(frames_.size());
    return range;
  }

  StackId stack(uint32_t si) {
    if (si >= stack_ids_.size()) return kNoStack; // index 0 of an empty stack table
    StackId &id = stack_ids_[si];
    if (id != kUnbuilt) return id;
    leaf_first_.clear();
    if (si < d_.stacks.size())
      for (uint32_t k = d_.stacks[si].begin; k < d_.stacks[si].end; k++) {
        auto [b, e] = location_frames(d_.stack_locations[k]);
        leaf_first_.insert(leaf_first_.end(), frames_.begin() + b, frames_.begin() + e);
      }
    id = leaf_first_.empty() ? kNoStack : b_.stack_from_leaf(leaf_first_);
    return id;
  }

  // The thread and label set of a sample's attributes, memoized by the attribute list.
  std::pair<ThreadId, uint32_t> thread_and_labels(const OtlpSample &s) {
    attr_key_.assign(d_.attribute_refs.begin() + s.attributes.begin,
                     d_.attribute_refs.begin() + s.attributes.end);
    auto it = attr_sets_.find(attr_key_);
    if (it != attr_sets_.end()) return it->second;
    std::string_view name;
    int64_t tid = -1, jtid = -1;
    LabelSet labels;
    for (uint32_t a : attr_key_) {
      if (a >= d_.attributes.size()) continue; // 0 of an empty table
      const OtlpAttribute &at = d_.attributes[a];
      std::string_view key = str(at.key);
      if (key == "thread.name" && at.kind == OtlpAttribute::string) {
        name = at.str;
        if (name.size() >= 2 && name.front() == '[' && name.back() == ']' &&
            !is_pseudo_frame(name)) { // async-profiler: [name tid=N]; [tid=N] stays a name
          std::string_view n;
          int64_t t;
          split_thread_text(name.substr(1, name.size() - 2), &n, &t);
          if (t >= 0) tid = t;
          if (!n.empty()) name = n;
        }
        continue;
      }
      if (key == "thread.id" || key == "java_thread_id") {
        int64_t n = -1;
        if (at.kind == OtlpAttribute::integer) {
          n = at.num;
        } else if (at.kind == OtlpAttribute::string) {
          auto [p, ec] = std::from_chars(at.str.data(), at.str.data() + at.str.size(), n);
          if (ec != std::errc() || p != at.str.data() + at.str.size()) n = -1;
        }
        if (n >= 0) {
          (key == "thread.id" ? tid : jtid) = n;
          continue;
        }
      }
      Label l;
      l.key = b_.intern(key);
      l.unit = b_.intern(str(at.unit));
      switch (at.kind) {
      case OtlpAttribute::string:
        l.str = b_.intern(at.str);
        break;
      case OtlpAttribute::integer:
      case OtlpAttribute::boolean:
        l.num = at.num;
        break;
      case OtlpAttribute::floating: {
        char buf[32];
        snprintf(buf, sizeof buf, "%g", at.dbl);
        l.str = b_.intern(buf);
        break;
      }
      default:
        continue;
      }
      labels.push_back(l);
    }
    std::pair<ThreadId, uint32_t> out{b_.thread(name, tid, jtid),
                                      labels.empty() ? 0 : b_.label_set(labels)};
    attr_sets_.emplace(attr_key_, out);
    return out;
  }

  bool add_sample(const OtlpSample &s, EventPlan &plan, int64_t start) {
    const StackId st = stack(s.stack);
    const auto [thread, labels] = thread_and_labels(s);
    const uint32_t nv = s.values.end - s.values.begin, nt = s.times.end - s.times.begin;
    const uint32_t n = std::max(nv, nt);
    for (uint32_t i = 0; i < n; i++) {
      const int64_t v = nv ? d_.values[s.values.begin + i] : 1;
      if (v == 0) continue;
      if (plan.counting && v < 0) {
        failure_ = LoadResult::failure("otlp: negative count " + std::to_string(v) +
                                           " in a sample of a count profile",
                                       static_cast<int64_t>(s.at));
        return false;
      }
      const uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
      *plan.magnitude += m;
      if (m > static_cast<uint64_t>(INT64_MAX) ||
          *plan.magnitude > static_cast<uint64_t>(INT64_MAX)) {
        failure_ = LoadResult::failure("otlp: sample values add up beyond the 64-bit range",
                                       static_cast<int64_t>(s.at));
        return false;
      }
      int64_t time = 0;
      if (nt) {
        const uint64_t t = d_.times[s.times.begin + i];
        const uint64_t since = t > static_cast<uint64_t>(start) ? t - start : 0;
        time = static_cast<int64_t>(std::min<uint64_t>(since, INT64_MAX));
      }
      b_.add_sample(plan.event, st, thread, time, plan.counting ? v : 1, v, labels);
    }
    return true;
  }

  void set_metadata(const std::vector<EventPlan> &plans, int64_t start) {
    Metadata &m = b_.metadata();
    m.format = "otlp";
    m.producer = std::string(kOtlpVersion);
    for (const OtlpScope &s : d_.scopes)
      if (!s.name.empty()) {
        m.producer = std::string(s.name) + (s.version.empty() ? "" : " ") + std::string(s.version) +
                     ", " + m.producer;
        break;
      }
    m.start_time_ns = start;
    if (start > 0 && end_ > static_cast<uint64_t>(start))
      m.duration_ns = static_cast<int64_t>(end_ - static_cast<uint64_t>(start));
    if (!d_.profiles.empty()) {
      const OtlpProfile &p = d_.profiles[0];
      m.period = p.period;
      if (p.period_type.type || p.period_type.unit)
        m.period_type =
            std::string(str(p.period_type.type)) + "/" + std::string(str(p.period_type.unit));
      m.default_event = static_cast<int>(plans[0].event);
    }
  }

  static constexpr StackId kUnbuilt = kNoStack - 1;
  const OtlpDecoder &d_;
  const LoadOptions &options_;
  ProfileBuilder b_;
  LoadResult failure_;
  uint64_t end_ = 0;
  std::vector<size_t> first_plan_;
  std::vector<uint64_t> magnitudes_;
  std::vector<FunctionId> function_ids_; // (function, native?) -> model function
  std::vector<std::pair<uint32_t, uint32_t>> location_frames_;
  std::vector<FrameId> frames_, leaf_first_;
  std::vector<StackId> stack_ids_;
  std::vector<uint32_t> attr_key_;
  struct VectorHash {
    size_t operator()(const std::vector<uint32_t> &v) const {
      uint64_t h = v.size();
      for (uint32_t x : v) h = (h ^ x) * 0x9E3779B97F4A7C15ull;
      return static_cast<size_t>(h ^ (h >> 29));
    }
  };
  std::unordered_map<std::vector<uint32_t>, std::pair<ThreadId, uint32_t>, VectorHash> attr_sets_;
};

} // namespace

LoadResult read_otlp(std::string_view data, const LoadOptions &options) {
  OtlpDecoder decoder;
  if (!decoder.decode(data)) return LoadResult::failure(decoder.error(), decoder.error_offset());
  if (decoder.profiles.empty()) return LoadResult::failure("otlp: no profiles", 0);
  return OtlpModelBuilder(decoder, options).run();
}

bool looks_like_otlp(std::string_view data) {
  WireReader top(data, 0);
  uint32_t field, wire;
  while (!top.done()) {
    if (!top.tag(&field, &wire)) return false;
    if (field != 1) {
      if (!top.skip(wire)) return false;
      continue;
    }
    // The first field 1; a truncated file still shows the start of it.
    uint64_t n;
    if (wire != WireReader::kLen || !top.varint(&n) || n == 0) return false;
    const size_t at = top.offset();
    WireReader inner(data.substr(at, std::min<uint64_t>(n, data.size() - at)), at);
    int fields = 0;
    while (!inner.done()) {
      if (!inner.tag(&field, &wire)) return fields > 0 && inner.offset() == data.size();
      if (field > 3 || wire != WireReader::kLen) return false;
      fields++;
      if (!inner.skip(wire)) return n > data.size() - at; // cut short by the end of the file
    }
    return fields > 0;
  }
  return false;
}

} // namespace hotlines
