// JSON rows shared by the CLI's commands (see row_json.h).
// Threading: Pure functions; the CLI's main thread.
#include "server/cli/row_json.h"

namespace hotlines {

void add_weight_json(Json &row, const ViewWeights &view, int64_t self, int64_t total) {
  row["self"] = self;
  row["self_pct"] = percent(self, view.total);
  if (view.profile().metadata.self_only) { // unknown, not zero
    row["total"] = nullptr;
    row["total_pct"] = nullptr;
  } else {
    row["total"] = total;
    row["total_pct"] = percent(total, view.total);
  }
}

Json event_json(const EventRow &e) {
  Json sources = Json::array();
  for (std::string_view s : e.sources) sources.push_back(s);
  Json j = {{"name", e.name},         {"unit", e.unit},          {"count", e.count},
            {"value", e.value},       {"samples", e.samples},    {"stackless", e.stackless},
            {"has_time", e.has_time}, {"default", e.is_default}, {"sources", sources}};
  if (!e.rule.empty()) j["rule"] = e.rule;
  if (!e.states.empty()) j["states"] = states_json(e.states);
  return j;
}

Json states_json(const std::vector<StateRow> &states) {
  Json out = Json::array();
  for (const StateRow &s : states)
    out.push_back(
        {{"name", s.name}, {"samples", s.samples}, {"count", s.count}, {"value", s.value}});
  return out;
}

Json thread_group_json(const ThreadRow &row, int64_t view_total) {
  return {{"name", row.name},
          {"threads", row.members.size()},
          {"weight", row.weight},
          {"pct", percent(row.weight, view_total)}};
}

} // namespace hotlines
