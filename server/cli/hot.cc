// `hotlines hot FILE`: the hottest functions (self and total), or hot lines with --lines;
// --assert-below PCT turns it into a CI gate (exit 1 when the top self% >= PCT).
// Threading: Runs on the CLI's main thread; filtered views use both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/row_json.h"
#include "server/cli/weight_table.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/units.h"

#include <cstdio>

namespace hotlines {

namespace {

const FlagSpec kExtra[] = {
    {"total", 0, false, "sort by total instead of self"},
    {"lines", 0, false, "hot lines (function, file, line) instead of functions"},
};

int run(const CliFlags &f) {
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v)) return rc;
  if (f.has("total"))
    if (int rc = cli_need_totals(*v, f.json)) return rc;
  HotOptions o;
  o.sort = f.has("total") ? SortBy::total : SortBy::self;
  o.top = f.top.value_or(20);
  o.min_pct = f.min_pct.value_or(0);
  o.method = f.method;

  // The gate looks at the top self% of the whole view, whatever the rows shown.
  double top_self_pct = 0;
  std::string top_name;
  if (f.assert_below) {
    HotOptions one;
    one.top = 1;
    HotFunctions t = hot_functions(*v, one);
    if (!t.rows.empty()) {
      top_self_pct = percent(t.rows[0].self, v->total);
      top_name = std::string(t.rows[0].name);
    }
  }
  const bool failed = f.assert_below && top_self_pct >= *f.assert_below;

  Json j;
  j["command"] = "hot";
  j["view"] = view_json(*v, in.path());
  j["sort"] = o.sort == SortBy::self ? "self" : "total";
  std::string text = view_header(*v, in.path());
  if (f.has("lines")) {
    HotLines h = hot_lines(*v, o);
    if (!f.method.empty() && h.matched == 0) return cli_no_match(*v, f.method, f.json);
    j["matched"] = h.matched;
    Json rows = Json::array();
    WeightTable t(*v, WeightTable::self_first, {},
                  {{"line", TextTable::left}, {"function", TextTable::left}});
    for (const LineRow &r : h.rows) {
      Json row = {{"function", r.function}, {"file", r.file}, {"line", r.line}};
      add_weight_json(row, *v, r.self, r.total);
      rows.push_back(row);
      t.add({}, r.self, r.total,
            {std::string(r.file) + ":" + std::to_string(r.line), std::string(r.function)});
    }
    j["lines"] = rows;
    text += t.render();
  } else {
    HotFunctions h = hot_functions(*v, o);
    if (!f.method.empty() && h.matched == 0) return cli_no_match(*v, f.method, f.json);
    j["matched"] = h.matched;
    Json rows = Json::array();
    WeightTable t(*v, WeightTable::self_first, {}, {{"function", TextTable::left}});
    for (const FunctionRow &r : h.rows) {
      Json row = {{"name", r.name}, {"file", r.file}};
      add_weight_json(row, *v, r.self, r.total);
      rows.push_back(row);
      t.add({}, r.self, r.total, {std::string(r.name)});
    }
    j["functions"] = rows;
    text += t.render();
    if (h.matched > h.rows.size())
      text += "(" + std::to_string(h.matched - h.rows.size()) + " more; --top N shows more)\n";
  }
  if (f.assert_below)
    j["assert"] = {{"below_pct", *f.assert_below},
                   {"top_self_pct", top_self_pct},
                   {"top", top_name},
                   {"passed", !failed}};
  print_output(f.json, j, text);
  if (failed) {
    fprintf(stderr, "ASSERT FAILED: %s self=%s >= %s\n", top_name.c_str(),
            format_pct(top_self_pct).c_str(), format_pct(*f.assert_below).c_str());
    return kExitAssert;
  }
  return kExitOk;
}

} // namespace

const CliCommand kHotCommand{"hot",
                             "hot FILE [-e EVENT] [-t THREAD] [--top N] [--total] [--lines] [-m "
                             "PATTERN] [--assert-below PCT]",
                             "hottest functions by self (or total) weight; hot lines with --lines",
                             kExtra,
                             1,
                             1,
                             run};

} // namespace hotlines
