// `hotlines diff BEFORE AFTER` or `hotlines diff FILE --before 0s..2s --after 2s..4s`: per
// function self% (or total% with --total) before and after, the delta in points, and new /
// gone functions; --file SOURCE diffs the lines of one recorded file instead.
// Threading: Runs on the CLI's main thread; the views it computes use both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/text_table.h"
#include "server/engine/file_keys.h"
#include "server/engine/query_diff.h"
#include "server/engine/units.h"

#include <cstdio>
#include <set>

namespace hotlines {

namespace {
const FlagSpec kExtra[] = {
    {"before", 0, true, "window of the first view: FROM..TO (either side may be empty)"},
    {"after", 0, true, "window of the second view: FROM..TO"},
    {"file", 0, true, "diff the lines of this recorded source file"},
    {"min-delta", 0, true, "drop rows whose delta is below PCT points"},
    {"total", 0, false, "compare total% instead of self%"},
};

bool split_window(const std::string &w, std::string *from, std::string *to) {
  size_t dots = w.find("..");
  if (dots == std::string::npos) return false;
  *from = w.substr(0, dots);
  *to = w.substr(dots + 2);
  return true;
}

std::string signed_pct(double d) {
  char buf[32];
  snprintf(buf, sizeof buf, "%+.2f", d);
  return buf;
}

int run(const CliFlags &f) {
  DiffOptions o;
  o.measure = f.has("total") ? SortBy::total : SortBy::self;
  o.top = f.top.value_or(0);
  if (f.has("min-delta")) {
    char *end = nullptr;
    std::string s = f.value("min-delta");
    o.min_delta = strtod(s.c_str(), &end);
    if (*end || s.empty())
      return cli_fail(kExitUsage, "--min-delta wants a number, got '" + s + "'", f.json);
  }
  const bool windows = f.files.size() == 1;
  std::string bf, bt, af, at;
  if (windows) {
    if (!f.has("before") || !f.has("after"))
      return cli_fail(kExitUsage, "one file needs --before FROM..TO and --after FROM..TO", f.json);
    if (!split_window(f.value("before"), &bf, &bt) || !split_window(f.value("after"), &af, &at))
      return cli_fail(kExitUsage, "--before/--after want FROM..TO, e.g. 0s..2s", f.json);
  } else if (f.has("before") || f.has("after")) {
    return cli_fail(kExitUsage,
                    "--before/--after compare windows of one file; with two files use --from/--to",
                    f.json);
  }
  CliInput a, b;
  if (!a.load(f.files[0], f)) return kExitInput;
  if (!windows && !b.load(f.files[1], f)) return kExitInput;
  const CliInput &second = windows ? a : b;
  std::shared_ptr<const ViewWeights> before, after;
  if (int rc = windows ? a.view(f, &before, &bf, &bt) : a.view(f, &before)) return rc;
  if (int rc = windows ? a.view(f, &after, &af, &at) : second.view(f, &after)) return rc;
  const bool lines = f.has("file");
  std::string file;
  if (lines) { // the key itself, else the one key of either profile its path components name
    std::set<std::string> keys;
    for (const ViewWeights *v : {before.get(), after.get()})
      for (const std::string &k : recorded_keys_named(v->lines(), f.value("file"))) keys.insert(k);
    if (keys.size() != 1) {
      std::string msg =
          keys.empty()
              ? "no recorded file '" + f.value("file") + "' in either profile"
              : "'" + f.value("file") + "' names several recorded files; give more of the path:";
      for (const std::string &k : keys) msg += "\n  " + k;
      return cli_fail(kExitInput, msg, f.json);
    }
    file = *keys.begin();
  }
  Diff d = lines ? diff_lines(*before, *after, file, o) : diff_functions(*before, *after, o);
  if (f.json) {
    Json j;
    j["command"] = "diff";
    j["before"] = view_json(*before, a.path());
    j["after"] = view_json(*after, second.path());
    j["measure"] = o.measure == SortBy::self ? "self" : "total";
    if (lines) j["file"] = file;
    Json rows = Json::array();
    for (const DiffRow &r : d.rows) {
      Json jr;
      if (lines) jr["line"] = r.line;
      jr["name"] = r.name;
      jr["before"] = r.before;
      jr["after"] = r.after;
      jr["before_pct"] = r.before_pct;
      jr["after_pct"] = r.after_pct;
      jr["delta_pct"] = r.delta_pct;
      jr["status"] = diff_status_name(r.status);
      rows.push_back(jr);
    }
    j["rows"] = rows;
    print_json(j);
    return kExitOk;
  }
  std::string m = o.measure == SortBy::self ? "self" : "total";
  std::vector<std::pair<std::string, TextTable::Align>> columns = {
      {"before " + m + "%", TextTable::right},
      {"after " + m + "%", TextTable::right},
      {"delta", TextTable::right},
      {"status", TextTable::left}};
  if (lines) columns.push_back({"line", TextTable::left});
  columns.push_back({"function", TextTable::left});
  TextTable t(columns);
  for (const DiffRow &r : d.rows) {
    std::vector<std::string> cells = {format_pct(r.before_pct), format_pct(r.after_pct),
                                      signed_pct(r.delta_pct),
                                      std::string(diff_status_name(r.status))};
    if (lines) cells.push_back(file + ":" + std::to_string(r.line));
    cells.push_back(r.name);
    t.add(cells);
  }
  std::string text = "before: " + view_header(*before, a.path()) +
                     "after:  " + view_header(*after, second.path()) + t.render();
  fputs(text.c_str(), stdout);
  return kExitOk;
}

} // namespace

const CliCommand kDiffCommand{"diff",
                              "diff BEFORE AFTER | diff FILE --before FROM..TO --after FROM..TO "
                              "[--file SOURCE] [--min-delta PCT]",
                              "what changed between two profiles or two windows of one",
                              kExtra,
                              1,
                              2,
                              run};

} // namespace hotlines
