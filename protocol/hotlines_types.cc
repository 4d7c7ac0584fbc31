// hotlines/* types and their JSON (see hotlines_types.h and protocol/README.md).
#include "protocol/hotlines_types.h"

#include "protocol/json_fields.h"

namespace hotlines {

json to_json(const Measure &m) {
  return {{"count", m.count}, {"value", m.value}};
}

std::string parse_load_profile_params(const json &params, LoadProfileParams *out) {
  FieldReader r(params);
  r.required("path", &out->path);
  r.optional("workDoneToken", &out->work_done_token);
  if (r.ok() && out->path.empty()) return "params.path must not be empty";
  return r.error();
}

json to_json(const ProfileSummary &s) {
  json events = json::array();
  for (const EventSummary &e : s.events)
    events.push_back({{"name", e.name}, {"unit", e.unit}, {"count", e.count}, {"value", e.value}});
  json warnings = json::array();
  for (const LoadWarningInfo &w : s.warnings) {
    json jw = {{"message", w.message}};
    if (w.offset >= 0) jw["offset"] = w.offset;
    if (w.line >= 0) jw["line"] = w.line;
    warnings.push_back(jw);
  }
  return {{"profileId", s.profile_id}, {"path", s.path},       {"format", s.format},
          {"producer", s.producer},    {"events", events},     {"defaultEvent", s.default_event},
          {"threads", s.threads},      {"samples", s.samples}, {"durationNs", s.duration_ns},
          {"warnings", warnings}};
}

std::string parse_hot_methods_params(const json &params, HotMethodsParams *out) {
  FieldReader r(params);
  r.optional("profileId", &out->profile_id);
  r.optional("event", &out->event);
  r.optional("limit", &out->limit, 1, 1000000);
  r.optional("query", &out->query);
  return r.error();
}

json to_json(const HotMethodsResult &r) {
  json methods = json::array();
  for (const HotMethod &m : r.methods)
    methods.push_back({{"name", m.name}, {"self", to_json(m.self)}, {"total", to_json(m.total)}});
  return {{"profileId", r.profile_id},
          {"event", r.event},
          {"unit", r.unit},
          {"total", to_json(r.total)},
          {"methods", methods}};
}

} // namespace hotlines
