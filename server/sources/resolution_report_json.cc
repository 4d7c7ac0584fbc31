// ResolutionReport -> JSON (see resolution_report_json.h). Pure; any thread.
#include "server/sources/resolution_report_json.h"

namespace hotlines {

namespace {

nlohmann::json share(int64_t weight, double pct, size_t functions) {
  return {{"weight", weight}, {"pct", pct}, {"functions", functions}};
}

} // namespace

nlohmann::json resolution_report_json(const ResolutionReport &r) {
  nlohmann::json j;
  j["event"] = r.event;
  j["unit"] = r.unit;
  j["measure"] = r.measure;
  j["total"] = r.total;
  j["resolved"] = share(r.resolved, r.resolved_pct, r.functions_resolved);
  j["unresolved"] = share(r.unresolved, r.unresolved_pct, r.functions_unresolved);
  j["external"] = share(r.external, r.external_pct, r.functions_external);
  j["roots"] = r.roots;
  j["workspaceFiles"] = r.workspace_files;
  nlohmann::json rules = nlohmann::json::array();
  for (const RuleCount &c : r.rules)
    rules.push_back({{"rule", c.rule}, {"status", c.status}, {"functions", c.functions}});
  j["rules"] = rules;
  nlohmann::json frames = nlohmann::json::array();
  for (const UnresolvedFrame &f : r.top_unresolved)
    frames.push_back({{"name", f.name},
                      {"recorded", f.recorded},
                      {"rule", f.rule},
                      {"reason", f.reason},
                      {"self", f.self},
                      {"total", f.total},
                      {"totalPct", percent(f.total, r.total)},
                      {"attributed", f.attributed}});
  j["topUnresolved"] = frames;
  nlohmann::json prefixes = nlohmann::json::array();
  for (const FailingPrefix &p : r.failing_prefixes) {
    nlohmann::json o = {{"prefix", p.prefix},
                        {"weight", p.weight},
                        {"pct", percent(p.weight, r.total)},
                        {"files", p.files},
                        {"examples", p.examples}};
    o["suggestedRemap"] = p.has_remap ? nlohmann::json{{"from", p.remap.from}, {"to", p.remap.to}}
                                      : nlohmann::json(nullptr);
    o["wouldResolve"] = p.would_resolve;
    prefixes.push_back(std::move(o));
  }
  j["failingPrefixes"] = prefixes;
  nlohmann::json ties = nlohmann::json::array();
  for (const ResolutionTie &t : r.ties)
    ties.push_back({{"recorded", t.recorded},
                    {"rule", t.rule},
                    {"candidates", t.candidates},
                    {"chosen", t.chosen},
                    {"functions", t.functions}});
  j["ties"] = ties;
  j["warning"] = r.warning;
  return j;
}

} // namespace hotlines
