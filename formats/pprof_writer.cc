// pprof writer (see pprof_writer.h): model -> perftools::profiles::Profile (generated from
// profile.proto) -> bytes -> gzip. Locations are built per stack node and memoized, so each
// prefix-tree node is turned into pprof locations once however many samples share it.
#include "formats/pprof_writer.h"

#include "formats/pprof_sample_types.h"
#include "formats/proto_output.h"
#include "formats/sample_key.h"
#include "formats/stack_locations.h"
#include "profile.pb.h"

#include <google/protobuf/arena.h>

#include <algorithm>
#include <map>
#include <unordered_map>

namespace hotlines {

namespace {

namespace pb = perftools::profiles;

constexpr uint64_t kUnset = 0;

class StringTable {
public:
  explicit StringTable(pb::Profile *out) : out_(out) { id(""); }
  int64_t id(std::string_view s) {
    auto it = ids_.find(s);
    if (it != ids_.end()) return it->second;
    int64_t n = out_->string_table_size();
    out_->add_string_table(std::string(s));
    ids_.emplace(out_->string_table(static_cast<int>(n)), n); // views into the message
    return n;
  }

private:
  pb::Profile *out_;
  std::unordered_map<std::string_view, int64_t> ids_;
};

class PprofEncoder {
public:
  PprofEncoder(const Profile &p, pb::Profile *out) : p_(p), out_(out), strings_(out) {}

  bool encode(const PprofWriteOptions &o, std::string *error) {
    std::vector<EventPick> events;
    if (!pick_events(p_, o.events, &events, error)) {
      *error = "pprof writer: " + *error;
      return false;
    }

    // Sample types, named consistently with find_pprof_sample_type() on the whole profile.
    std::vector<PprofSampleType> all = pprof_sample_types(p_);
    std::vector<int> count_col(p_.events.size(), -1), value_col(p_.events.size(), -1);
    int ntypes = 0;
    for (const EventPick &pick : events)
      for (const PprofSampleType &t : all) {
        const EventId e = pick.event;
        if (t.event != static_cast<int>(e)) continue;
        pb::ValueType *vt = out_->add_sample_type();
        vt->set_type(strings_.id(t.type));
        vt->set_unit(strings_.id(t.unit));
        (t.count ? count_col : value_col)[e] = ntypes++;
      }

    // Samples, merged by (stack, thread, labels) unless asked not to.
    std::unordered_map<SampleKey, uint32_t, SampleKeyHash> index;
    std::vector<SampleKey> keys;
    std::vector<uint64_t> values; // unsigned: sums wrap instead of overflowing
    for (const EventPick &pick : events) {
      const EventId e = pick.event;
      const SampleColumns &c = p_.events[e].samples;
      for (size_t i = 0; i < c.size(); i++) {
        if (!pick.takes(c, i)) continue;
        SampleKey k{c.stack_at(i), c.thread_at(i), c.labels_at(i)};
        uint32_t at;
        if (o.aggregate) {
          auto [it, inserted] = index.try_emplace(k, static_cast<uint32_t>(keys.size()));
          at = it->second;
          if (inserted) {
            keys.push_back(k);
            values.resize(values.size() + ntypes, 0);
          }
        } else {
          at = static_cast<uint32_t>(keys.size());
          keys.push_back(k);
          values.resize(values.size() + ntypes, 0);
        }
        uint64_t *row = &values[static_cast<size_t>(at) * ntypes];
        if (count_col[e] >= 0) row[count_col[e]] += static_cast<uint64_t>(c.count_at(i));
        row[value_col[e]] += static_cast<uint64_t>(c.value_at(i));
      }
    }

    node_location_.assign(p_.stack_count(), kUnset);
    node_next_.assign(p_.stack_count(), kNoStack);
    location_of_frame_.assign(p_.frames.size(), kUnset);
    function_id_.assign(p_.functions.size(), kUnset);
    std::vector<uint64_t> locs;
    for (size_t s = 0; s < keys.size(); s++) {
      pb::Sample *sample = out_->add_sample();
      locs.clear();
      for (StackId n = keys[s].stack; n != kNoStack; n = node_next_[n]) {
        if (node_location_[n] == kUnset) location_of_node(n);
        locs.push_back(node_location_[n]);
      }
      sample->mutable_location_id()->Add(locs.begin(), locs.end());
      for (int t = 0; t < ntypes; t++)
        sample->add_value(static_cast<int64_t>(values[s * ntypes + t]));
      add_labels(sample, keys[s]);
    }

    const Metadata &m = p_.metadata;
    out_->set_time_nanos(m.start_time_ns);
    out_->set_duration_nanos(m.duration_ns);
    out_->set_period(m.period);
    // period_type is "type/unit" (pprof input) or a bare unit (JFR: the sampling interval's
    // unit, then typed by the default event: cpu/nanoseconds).
    if (!m.period_type.empty()) {
      std::string_view pt = m.period_type;
      size_t slash = pt.rfind('/');
      pb::ValueType *vt = out_->mutable_period_type();
      if (slash != std::string_view::npos) {
        vt->set_type(strings_.id(pt.substr(0, slash)));
        vt->set_unit(strings_.id(pt.substr(slash + 1)));
      } else {
        if (m.default_event >= 0 && static_cast<size_t>(m.default_event) < p_.events.size())
          vt->set_type(strings_.id(p_.str(p_.events[m.default_event].name)));
        vt->set_unit(strings_.id(pt));
      }
    }
    for (const std::string &c : m.comments) out_->add_comment(strings_.id(c));
    if (m.default_event >= 0 && static_cast<size_t>(m.default_event) < value_col.size() &&
        value_col[m.default_event] >= 0)
      out_->set_default_sample_type(out_->sample_type(value_col[m.default_event]).type());
    return true;
  }

private:
  uint64_t function_id(FunctionId f) {
    if (function_id_[f] != kUnset) return function_id_[f];
    const Function &fn = p_.functions[f];
    pb::Function *out = out_->add_function();
    uint64_t id = static_cast<uint64_t>(out_->function_size());
    out->set_id(id);
    out->set_name(strings_.id(p_.str(fn.name)));
    out->set_system_name(strings_.id(p_.str(fn.system_name ? fn.system_name : fn.name)));
    out->set_filename(strings_.id(p_.str(fn.file)));
    out->set_start_line(fn.start_line);
    function_id_[f] = id;
    return id;
  }

  uint64_t mapping_id(StringId library) {
    auto it = mapping_ids_.find(library);
    if (it != mapping_ids_.end()) return it->second;
    pb::Mapping *m = out_->add_mapping();
    uint64_t id = static_cast<uint64_t>(out_->mapping_size());
    m->set_id(id);
    m->set_filename(strings_.id(p_.str(library)));
    // Claim symbolization is done: the model has no load addresses, so go tool pprof must
    // not try to symbolize addresses against a local binary.
    m->set_has_functions(true);
    m->set_has_filenames(true);
    m->set_has_line_numbers(true);
    m->set_has_inline_frames(true);
    mapping_ids_.emplace(library, id);
    return id;
  }

  // A location: frames innermost first, the last one the physical (non-inlined) caller.
  uint64_t add_location(const std::vector<FrameId> &run) {
    pb::Location *l = out_->add_location();
    uint64_t id = static_cast<uint64_t>(out_->location_size());
    l->set_id(id);
    const Function &caller = p_.functions[p_.frames[run.back()].function];
    uint64_t address = 0;
    if (run.size() == 1 && is_address_placeholder(p_, caller, &address)) {
      l->set_address(address);
      if (caller.library) l->set_mapping_id(mapping_id(caller.library));
      return id;
    }
    if (caller.library) l->set_mapping_id(mapping_id(caller.library));
    for (FrameId f : run) {
      pb::Line *line = l->add_line();
      line->set_function_id(function_id(p_.frames[f].function));
      line->set_line(p_.frames[f].line);
    }
    return id;
  }

  // The location of stack node n: its frame plus the frames it is inlined into, up to the
  // first frame that is not inlined. node_next_[n] is the node above that location.
  void location_of_node(StackId n) {
    std::vector<FrameId> run;
    node_next_[n] = location_run(p_, n, &run);
    uint64_t id;
    if (run.size() == 1) {
      uint64_t &slot = location_of_frame_[run[0]];
      if (slot == kUnset) slot = add_location(run);
      id = slot;
    } else {
      auto [it, inserted] = location_of_run_.try_emplace(run, kUnset);
      if (inserted) it->second = add_location(run);
      id = it->second;
    }
    node_location_[n] = id;
  }

  void add_labels(pb::Sample *sample, const SampleKey &k) {
    if (k.thread < p_.threads.size()) {
      const Thread &t = p_.threads[k.thread];
      if (t.name) {
        pb::Label *l = sample->add_label();
        l->set_key(strings_.id("thread"));
        l->set_str(strings_.id(p_.str(t.name)));
      }
      if (t.os_tid >= 0) {
        pb::Label *l = sample->add_label();
        l->set_key(strings_.id("thread_id"));
        l->set_num(t.os_tid);
      }
      if (t.java_tid >= 0) {
        pb::Label *l = sample->add_label();
        l->set_key(strings_.id("java_thread_id"));
        l->set_num(t.java_tid);
      }
    }
    if (k.labels < p_.label_sets.size())
      for (const Label &label : p_.label_sets[k.labels]) {
        pb::Label *l = sample->add_label();
        l->set_key(strings_.id(p_.str(label.key)));
        if (label.str) {
          l->set_str(strings_.id(p_.str(label.str)));
        } else {
          l->set_num(label.num);
          if (label.unit) l->set_num_unit(strings_.id(p_.str(label.unit)));
        }
      }
  }

  const Profile &p_;
  pb::Profile *out_;
  StringTable strings_;
  std::vector<uint64_t> node_location_; // stack node -> location id
  std::vector<StackId> node_next_;      // stack node -> node above its location
  std::vector<uint64_t> location_of_frame_;
  std::map<std::vector<FrameId>, uint64_t> location_of_run_;
  std::vector<uint64_t> function_id_;
  std::unordered_map<StringId, uint64_t> mapping_ids_;
};

} // namespace

std::string write_pprof(const Profile &profile, const PprofWriteOptions &options,
                        std::string *error) {
  std::string err;
  google::protobuf::Arena arena;
  auto *out = google::protobuf::Arena::CreateMessage<pb::Profile>(&arena);
  PprofEncoder encoder(profile, out);
  if (!encoder.encode(options, &err)) {
    if (error) *error = err;
    return {};
  }
  return proto_output(*out, options.gzip, options.gzip_level, "pprof writer", error);
}

} // namespace hotlines
