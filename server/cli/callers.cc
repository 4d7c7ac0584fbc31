// `hotlines callers FILE -m PATTERN` (or --line SOURCE:LINE): who calls a method or a line —
// the inverted tree from it up to the thread roots; `--depth` (default 10), `--min-pct`
// (default 1).
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/tree_print.h"
#include "server/engine/units.h"

#include <cstdio>

namespace hotlines {

namespace {
const FlagSpec kExtra[] = {
    {"line", 0, true, "callers of the frames on SOURCE:LINE (e.g. org/acme/shop/Pricing.java:15)"},
    {"lines", 0, false, "split nodes by line (function:line)"},
};

int run(const CliFlags &f) {
  TreeOptions o;
  if (int rc = tree_options(f, TreeDirection::callers, &o)) return rc;
  if (o.method.empty() && o.file.empty())
    return cli_fail(kExitUsage, "callers needs -m PATTERN or --line SOURCE:LINE", f.json);
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v)) return rc;
  CallTree t = call_tree(*v, o);
  if (!t.anchor_found) {
    if (!o.method.empty()) return cli_no_match(*v, o.method, f.json);
    return cli_fail(kExitInput, "no frame on " + o.file + ":" + std::to_string(o.line), f.json);
  }
  if (f.json) {
    Json j;
    j["command"] = "callers";
    j["view"] = view_json(*v, in.path());
    j["anchor_total"] = t.top_total;
    j["nodes"] = tree_json(*v, t.nodes);
    print_json(j);
  } else {
    std::string text = view_header(*v, in.path());
    text += "callers of " +
            (o.method.empty() ? o.file + ":" + std::to_string(o.line) : "'" + o.method + "'") +
            ": " + format_weight(t.top_total, v->unit()) + " (" +
            format_pct(percent(t.top_total, v->total)) + ")\n";
    fputs((text + tree_text(*v, t.nodes, o.lines)).c_str(), stdout);
  }
  return kExitOk;
}

} // namespace

const CliCommand kCallersCommand{
    "callers",
    "callers FILE (-m PATTERN | --line SOURCE:LINE) [--depth N] [--min-pct PCT]",
    "the callers of a method or line (inverted tree)",
    kExtra,
    1,
    1,
    run};

} // namespace hotlines
