// `hotlines resolve PROFILE --root DIR`: how the profile's frames map to the source files
// under the given roots — resolved/unresolved/external weight, the rules used, the top
// unresolved frames, failing path prefixes with a suggested --remap, and ties. --all lists
// every function with weight and where it resolved.
// Threading: Runs on the CLI's main thread (the workspace walk and resolution included).
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/text_table.h"
#include "server/engine/query_hot.h"
#include "server/engine/units.h"
#include "server/sources/profile_resolution.h"
#include "server/sources/resolution_report.h"
#include "server/sources/resolution_report_json.h"

#include <cstdio>

namespace hotlines {

namespace {

const FlagSpec kExtra[] = {
    {"root", 0, true, "a source root (repeatable; default: the current directory)"},
    kRemapFlag,
    {"skip", 0, true, "a folder name not to index (repeatable; replaces the defaults)"},
    {"all", 0, false, "list every function with weight: status, rule, file:line"},
};

std::string location(const Resolution &r) {
  if (r.path.empty()) return std::string(r.recorded);
  std::string s(r.path);
  if (r.line > 0) s += ":" + std::to_string(r.line);
  return s;
}

// What resolve found, for its JSON and its text.
struct Findings {
  const WorkspaceIndex &workspace;
  const ViewWeights &view;
  const std::string &path;
  const ProfileResolution &resolution;
  const ResolutionReport &report;
  const HotFunctions &functions; // with weight in the view, by total (--all)
  bool all;
};

Json findings_json(const Findings &x) {
  Json j;
  j["command"] = "resolve";
  j["view"] = view_json(x.view, x.path);
  j["index_seconds"] = x.workspace.build_seconds();
  j["report"] = Json::parse(resolution_report_json(x.report).dump());
  if (x.all) {
    Json rows = Json::array();
    for (const FunctionRow &row : x.functions.rows) {
      const Resolution &r = x.resolution.of(row.function);
      rows.push_back({{"name", row.name},
                      {"status", status_name(r.status)},
                      {"rule", r.rule},
                      {"path", r.path},
                      {"line", r.line},
                      {"line_from", r.line_from},
                      {"recorded", r.recorded},
                      {"reason", r.reason},
                      {"self", row.self},
                      {"total", row.total}});
    }
    j["functions"] = rows;
  }
  return j;
}

std::string findings_text(const Findings &x) {
  const std::string unit(x.view.unit());
  std::string text = view_header(x.view, x.path);
  text += "workspace: " + std::to_string(x.workspace.size()) + " files under";
  for (const std::string &root : x.workspace.roots()) text += " " + root;
  char buf[64];
  snprintf(buf, sizeof buf, " (indexed in %.2f s)\n", x.workspace.build_seconds());
  text += buf;
  TextTable summary({{"status", TextTable::left},
                     {"weight", TextTable::right},
                     {"weight%", TextTable::right},
                     {"functions", TextTable::right}});
  summary.add({"resolved", format_weight(x.report.resolved, unit),
               format_pct(x.report.resolved_pct), std::to_string(x.report.functions_resolved)});
  summary.add({"unresolved", format_weight(x.report.unresolved, unit),
               format_pct(x.report.unresolved_pct), std::to_string(x.report.functions_unresolved)});
  summary.add({"external", format_weight(x.report.external, unit),
               format_pct(x.report.external_pct), std::to_string(x.report.functions_external)});
  text += summary.render();
  text += "(weight: each sample counts for its leaf-most frame that is not external)\n";
  std::string rules;
  for (const RuleCount &c : x.report.rules)
    rules += (rules.empty() ? "rules: " : "; ") + c.rule + " " + std::to_string(c.functions) +
             (c.status == "resolved" ? "" : " (" + c.status + ")");
  if (!rules.empty()) text += rules + "\n";
  if (!x.report.top_unresolved.empty()) {
    text += "\nunresolved frames, by total:\n";
    TextTable t({{"total", TextTable::right},
                 {"total%", TextTable::right},
                 {"function", TextTable::left},
                 {"reason", TextTable::left}});
    for (const UnresolvedFrame &r : x.report.top_unresolved)
      t.add({format_weight(r.total, unit), format_pct(percent(r.total, x.report.total)), r.name,
             r.reason});
    text += t.render();
  }
  if (!x.report.failing_prefixes.empty()) {
    text += "\nfailing path prefixes:\n";
    TextTable t({{"weight%", TextTable::right},
                 {"files", TextTable::right},
                 {"prefix", TextTable::left},
                 {"suggestion", TextTable::left}});
    for (const FailingPrefix &g : x.report.failing_prefixes) {
      std::string s;
      if (g.has_remap) {
        s = "--remap " + g.remap.from + "=" + g.remap.to;
        s += g.would_resolve ? " (resolves " + std::to_string(g.would_resolve) + ")"
                             : " (unverified: no such files under it; point it at their checkout)";
      }
      t.add({format_pct(percent(g.weight, x.report.total)), std::to_string(g.files), g.prefix, s});
    }
    text += t.render();
  }
  if (!x.report.ties.empty()) {
    text += "\nties (picked the candidate sharing most folders with other resolved files):\n";
    for (const ResolutionTie &t : x.report.ties) {
      text += "  " + t.recorded + " -> " + t.chosen + "\n";
      for (const std::string &c : t.candidates)
        if (c != t.chosen) text += "      also " + c + "\n";
    }
  }
  if (x.all) {
    text += "\nfunctions, by total:\n";
    TextTable t({{"total", TextTable::right},
                 {"status", TextTable::left},
                 {"rule", TextTable::left},
                 {"location", TextTable::left},
                 {"function", TextTable::left}});
    for (const FunctionRow &row : x.functions.rows) {
      const Resolution &r = x.resolution.of(row.function);
      t.add({format_weight(row.total, unit), std::string(status_name(r.status)),
             std::string(r.rule), location(r), std::string(row.name)});
    }
    text += t.render();
  }
  if (!x.report.warning.empty()) text += "\nwarning: " + x.report.warning + "\n";
  return text;
}

int run(const CliFlags &f) {
  std::shared_ptr<WorkspaceIndex> ws;
  ResolverOptions ro;
  if (int rc = cli_workspace(f, &ws, &ro)) return rc;
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v)) return rc;
  ws->build();
  SourceResolver resolver(ws, ro);
  std::shared_ptr<const ProfileResolution> res =
      ProfileResolution::build(in.index().shared_profile(), resolver);
  ResolutionReport rep = build_resolution_report(*res, *v, f.top.value_or(20));
  HotOptions all;
  all.sort = SortBy::total;
  HotFunctions fns = hot_functions(*v, all);
  Findings x{*ws, *v, in.path(), *res, rep, fns, f.has("all")};
  if (f.json)
    print_json(findings_json(x));
  else
    fputs(findings_text(x).c_str(), stdout);
  return kExitOk;
}

} // namespace

const CliCommand kResolveCommand{
    "resolve",
    "resolve PROFILE --root DIR [--root DIR ...] [--remap FROM=TO ...] "
    "[--skip NAME ...] [-e EVENT] [--top N] [--all]",
    "map the profile's frames to source files and report what does not "
    "resolve",
    kExtra,
    1,
    1,
    run};

} // namespace hotlines
