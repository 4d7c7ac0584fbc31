// hotlines/* types and their JSON (see hotlines_types.h and protocol/README.md).
#include "protocol/hotlines_types.h"

#include "protocol/json_fields.h"

namespace hotlines {

json to_json(const Weight &m) {
  return {{"count", m.count}, {"value", m.value}};
}

std::string parse_params(const json &params, LoadProfileParams *out) {
  FieldReader r(params);
  r.required("path", &out->path);
  r.optional("workDoneToken", &out->work_done_token);
  if (r.ok() && out->path.empty()) return "params.path must not be empty";
  return r.error();
}

json to_json(const ProfileSummary &s) {
  json events = json::array();
  for (const EventSummary &e : s.events)
    events.push_back({{"name", e.name},
                      {"unit", e.unit},
                      {"count", e.count},
                      {"value", e.value},
                      {"states", e.states}});
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

std::string parse_params(const json &params, HotMethodsParams *out) {
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

std::string parse_params(const json &params, FileAnnotationsParams *out) {
  FieldReader r(params);
  const json &doc = r.object("textDocument");
  r.optional("profileId", &out->profile_id);
  r.optional("event", &out->event);
  if (!r.ok()) return r.error();
  FieldReader d(doc, "params.textDocument");
  d.required("uri", &out->uri);
  return d.error();
}

json to_json(const FileAnnotationsResult &r) {
  json lines = json::array(), functions = json::array();
  for (const LineAnnotation &l : r.lines) {
    json j = {{"line", l.line},          {"profiledLine", l.profiled_line}, {"stale", l.stale},
              {"self", to_json(l.self)}, {"total", to_json(l.total)},       {"heat", l.heat}};
    if (l.has_baseline) {
      j["baseline"] = {{"self", to_json(l.baseline_self)}, {"total", to_json(l.baseline_total)}};
      j["delta"] = l.delta;
    }
    lines.push_back(std::move(j));
  }
  for (const FunctionAnnotation &f : r.functions)
    functions.push_back({{"name", f.name},
                         {"line", f.line},
                         {"self", to_json(f.self)},
                         {"total", to_json(f.total)}});
  return {
      {"uri", r.uri},   {"profileId", r.profile_id}, {"event", r.event}, {"unit", r.unit},
      {"file", r.file}, {"total", to_json(r.total)}, {"lines", lines},   {"functions", functions}};
}

} // namespace hotlines
