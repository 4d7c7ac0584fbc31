// OTLP writer (see otlp_writer.h): model -> hotlines::otlp::ProfilesData (generated from
// otlp_profiles.proto) -> bytes [-> gzip]. Each dictionary entry is made once: functions and
// mappings by model id, locations per stack node, stacks per leaf node, attribute sets per
// (thread, label set).
#include "formats/otlp_writer.h"

#include "formats/jfr_text.h"
#include "formats/proto_output.h"
#include "formats/sample_key.h"
#include "formats/stack_locations.h"
#include "otlp_profiles.pb.h"

#include <google/protobuf/arena.h>

#include <algorithm>
#include <map>
#include <unordered_map>

namespace hotlines {

namespace {

namespace pb = hotlines::otlp;

constexpr int32_t kUnset = -1;

// Observations of one merged sample: values, and times when the event has them.
struct Observations {
  std::vector<int64_t> values;
  std::vector<uint64_t> times;
};

class OtlpEncoder {
public:
  OtlpEncoder(const Profile &p, pb::ProfilesData *out)
      : p_(p), out_(out), dict_(out->mutable_dictionary()) {
    // Entry 0 of every table is its zero value.
    dict_->add_mapping_table();
    dict_->add_location_table();
    dict_->add_function_table();
    dict_->add_link_table();
    dict_->add_attribute_table();
    dict_->add_stack_table();
    string("");
  }

  bool encode(const OtlpWriteOptions &o, std::string *error) {
    std::vector<EventPick> events;
    if (!pick_events(p_, o.events, &events, error)) {
      *error = "otlp writer: " + *error;
      return false;
    }

    function_index_.assign(p_.functions.size(), kUnset);
    node_location_.assign(p_.stack_count(), kUnset);
    node_next_.assign(p_.stack_count(), kNoStack);
    stack_index_.assign(p_.stack_count(), kUnset);
    location_of_frame_.assign(p_.frames.size(), kUnset);

    pb::ScopeProfiles *scope = out_->add_resource_profiles()->add_scope_profiles();
    scope->mutable_scope()->set_name("hotlines");
    scope->mutable_scope()->set_version(o.version);
    for (const EventPick &pick : events) {
      const Event &ev = p_.events[pick.event];
      const SampleColumns &c = ev.samples;
      bool counting = true, unit_counts = true;
      for (size_t i = 0; i < c.size() && (counting || unit_counts); i++) {
        if (c.value_at(i) != c.count_at(i)) counting = false;
        if (c.count_at(i) != 1) unit_counts = false;
      }
      const std::string name(p_.str(ev.name));
      add_profile(scope, pick, name, counting ? "count" : std::string(p_.str(ev.unit)), !counting);
      if (!counting && !unit_counts) {
        std::string count_name =
            ev.count_label ? std::string(p_.str(ev.count_label)) : name + "_count";
        add_profile(scope, pick, count_name, "count", false);
      }
    }
    return true;
  }

private:
  // OTLP strings are protobuf `string`s, which must be UTF-8: invalid bytes become U+FFFD.
  static std::string utf8(std::string_view s) {
    if (is_valid_utf8(s)) return std::string(s);
    std::string out;
    append_sanitized_utf8(&out, s);
    return out;
  }

  int32_t string(std::string_view raw) {
    std::string fixed;
    std::string_view s = raw;
    if (!is_valid_utf8(raw)) s = fixed = utf8(raw);
    auto it = strings_.find(s);
    if (it != strings_.end()) return it->second;
    int32_t n = dict_->string_table_size();
    dict_->add_string_table(std::string(s));
    strings_.emplace(dict_->string_table(n), n); // views into the message
    return n;
  }

  void add_profile(pb::ScopeProfiles *scope, const EventPick &pick, const std::string &type,
                   const std::string &unit, bool use_value) {
    const Event &ev = p_.events[pick.event];
    const Metadata &m = p_.metadata;
    pb::Profile *out = scope->add_profiles();
    out->mutable_sample_type()->set_type_strindex(string(type));
    out->mutable_sample_type()->set_unit_strindex(string(unit));
    if (m.start_time_ns > 0) out->set_time_unix_nano(static_cast<uint64_t>(m.start_time_ns));
    if (m.duration_ns > 0) out->set_duration_nano(static_cast<uint64_t>(m.duration_ns));
    if (!m.period_type.empty()) {
      // "type/unit" (pprof, OTLP input) or a bare unit (JFR: the interval's; typed by event).
      std::string_view pt = m.period_type;
      size_t slash = pt.rfind('/');
      pb::ValueType *vt = out->mutable_period_type();
      vt->set_type_strindex(
          string(slash == std::string_view::npos ? type : std::string(pt.substr(0, slash))));
      vt->set_unit_strindex(string(slash == std::string_view::npos ? pt : pt.substr(slash + 1)));
    }
    out->set_period(m.period);

    const SampleColumns &c = ev.samples;
    const bool timed = c.has_time();
    // Counts add up; a value without time stays one observation, so that it counts 1.
    const bool sums = unit == "count";
    std::unordered_map<SampleKey, uint32_t, SampleKeyHash> index;
    std::vector<SampleKey> keys;
    std::vector<Observations> obs;
    for (size_t i = 0; i < c.size(); i++) {
      if (!pick.takes(c, i)) continue;
      SampleKey k{c.stack_at(i), c.thread_at(i), c.labels_at(i)};
      auto [it, inserted] = index.try_emplace(k, static_cast<uint32_t>(keys.size()));
      if (inserted) {
        keys.push_back(k);
        obs.emplace_back();
      }
      Observations &o = obs[it->second];
      const int64_t v = use_value ? c.value_at(i) : c.count_at(i);
      if (timed) {
        o.values.push_back(v);
        o.times.push_back(static_cast<uint64_t>(m.start_time_ns) +
                          static_cast<uint64_t>(c.time_at(i)));
      } else if (o.values.empty() || !sums) {
        o.values.push_back(v);
      } else { // unsigned: a sum wraps rather than overflowing
        o.values[0] =
            static_cast<int64_t>(static_cast<uint64_t>(o.values[0]) + static_cast<uint64_t>(v));
      }
    }
    for (size_t s = 0; s < keys.size(); s++) {
      pb::Sample *sample = out->add_samples();
      sample->set_stack_index(stack_index(keys[s].stack));
      for (int32_t a : attributes(keys[s].thread, keys[s].labels)) sample->add_attribute_indices(a);
      sample->mutable_values()->Add(obs[s].values.begin(), obs[s].values.end());
      sample->mutable_timestamps_unix_nano()->Add(obs[s].times.begin(), obs[s].times.end());
    }
  }

  int32_t stack_index(StackId leaf) {
    if (leaf == kNoStack) return 0; // the empty stack
    int32_t &slot = stack_index_[leaf];
    if (slot != kUnset) return slot;
    pb::Stack *st = dict_->add_stack_table();
    slot = dict_->stack_table_size() - 1;
    for (StackId n = leaf; n != kNoStack; n = node_next_[n])
      st->add_location_indices(location_of_node(n));
    return slot;
  }

  int32_t location_of_node(StackId n) {
    if (node_location_[n] != kUnset) return node_location_[n];
    node_next_[n] = location_run(p_, n, &run_);
    int32_t id;
    if (run_.size() == 1) { // the usual case: by frame, without a map
      int32_t &slot = location_of_frame_[run_[0]];
      if (slot == kUnset) slot = add_location(run_);
      id = slot;
    } else {
      auto [it, inserted] = location_of_run_.try_emplace(run_, kUnset);
      if (inserted) it->second = add_location(run_);
      id = it->second;
    }
    node_location_[n] = id;
    return id;
  }

  // A location: frames innermost first, the last one the physical caller.
  int32_t add_location(const std::vector<FrameId> &run) {
    pb::Location *l = dict_->add_location_table();
    const int32_t id = dict_->location_table_size() - 1;
    const Frame &caller = p_.frames[run.back()];
    const Function &fn = p_.functions[caller.function];
    if (fn.library) l->set_mapping_index(mapping(fn.library));
    if (caller.kind == FrameKind::kernel)
      l->add_attribute_indices(frame_type("kernel"));
    else if (caller.kind == FrameKind::native || caller.kind == FrameKind::cpp)
      l->add_attribute_indices(frame_type("native"));
    uint64_t address = 0;
    if (run.size() == 1 && is_address_placeholder(p_, fn, &address)) {
      l->set_address(address);
      return id;
    }
    for (FrameId f : run) {
      pb::Line *line = l->add_lines();
      line->set_function_index(function(p_.frames[f].function));
      line->set_line(p_.frames[f].line);
    }
    return id;
  }

  int32_t function(FunctionId f) {
    if (function_index_[f] != kUnset) return function_index_[f];
    const Function &fn = p_.functions[f];
    pb::Function *out = dict_->add_function_table();
    if (fn.class_name && fn.method)
      out->set_name_strindex(
          string(std::string(p_.str(fn.class_name)) + "." + std::string(p_.str(fn.method))));
    else
      out->set_name_strindex(string(p_.str(fn.name)));
    out->set_system_name_strindex(string(p_.str(fn.system_name)));
    out->set_filename_strindex(string(p_.str(fn.file)));
    out->set_start_line(fn.start_line);
    function_index_[f] = dict_->function_table_size() - 1;
    return function_index_[f];
  }

  int32_t mapping(StringId library) {
    auto [it, inserted] = mapping_index_.try_emplace(library, kUnset);
    if (inserted) {
      dict_->add_mapping_table()->set_filename_strindex(string(p_.str(library)));
      it->second = dict_->mapping_table_size() - 1;
    }
    return it->second;
  }

  int32_t attribute(std::string_view key, std::string_view str, int64_t num, bool is_str,
                    std::string_view unit = {}) {
    std::string k = std::string(key) + '\0' + std::string(unit) + '\0' +
                    (is_str ? "s" + std::string(str) : "i" + std::to_string(num));
    auto [it, inserted] = attribute_index_.try_emplace(k, kUnset);
    if (inserted) {
      pb::KeyValueAndUnit *a = dict_->add_attribute_table();
      a->set_key_strindex(string(key));
      if (!unit.empty()) a->set_unit_strindex(string(unit));
      if (is_str)
        a->mutable_value()->set_string_value(utf8(str));
      else
        a->mutable_value()->set_int_value(num);
      it->second = dict_->attribute_table_size() - 1;
    }
    return it->second;
  }

  int32_t frame_type(std::string_view type) {
    return attribute("profile.frame.type", type, 0, true);
  }

  const std::vector<int32_t> &attributes(ThreadId thread, uint32_t labels) {
    auto [it, inserted] = attribute_sets_.try_emplace(static_cast<uint64_t>(thread) << 32 | labels);
    if (!inserted) return it->second;
    std::vector<int32_t> &out = it->second;
    if (thread < p_.threads.size()) {
      const Thread &t = p_.threads[thread];
      if (t.name) out.push_back(attribute("thread.name", p_.str(t.name), 0, true));
      if (t.os_tid >= 0) out.push_back(attribute("thread.id", {}, t.os_tid, false));
      if (t.java_tid >= 0) out.push_back(attribute("java_thread_id", {}, t.java_tid, false));
    }
    if (labels < p_.label_sets.size())
      for (const Label &l : p_.label_sets[labels])
        out.push_back(attribute(p_.str(l.key), p_.str(l.str), l.num, l.str != 0, p_.str(l.unit)));
    return out;
  }

  const Profile &p_;
  pb::ProfilesData *out_;
  pb::ProfilesDictionary *dict_;
  std::unordered_map<std::string_view, int32_t> strings_;
  std::vector<int32_t> function_index_, node_location_, stack_index_, location_of_frame_;
  std::vector<StackId> node_next_;
  std::vector<FrameId> run_;
  std::map<std::vector<FrameId>, int32_t> location_of_run_;
  std::unordered_map<StringId, int32_t> mapping_index_;
  std::unordered_map<std::string, int32_t> attribute_index_;
  std::unordered_map<uint64_t, std::vector<int32_t>> attribute_sets_;
};

} // namespace

std::string write_otlp(const Profile &profile, const OtlpWriteOptions &options,
                       std::string *error) {
  std::string err;
  google::protobuf::Arena arena;
  auto *out = google::protobuf::Arena::CreateMessage<pb::ProfilesData>(&arena);
  OtlpEncoder encoder(profile, out);
  if (!encoder.encode(options, &err)) {
    if (error) *error = err;
    return {};
  }
  return proto_output(*out, options.gzip, options.gzip_level, "otlp writer", error);
}

} // namespace hotlines
