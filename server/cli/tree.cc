// `hotlines tree FILE`: the call tree from the roots, or from a method (-m) or a line
// (--line SOURCE:LINE), down to its callees; `--depth` (default 10) and `--min-pct`
// (default 1) keep it readable.
// Threading: Runs on the CLI's main thread; tree emission uses both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/tree_print.h"
#include "server/engine/units.h"

#include <cstdio>

namespace hotlines {

namespace {
const FlagSpec kExtra[] = {
    {"line", 0, true, "start at the frames on SOURCE:LINE (e.g. org/acme/shop/Pricing.java:15)"},
    {"lines", 0, false, "split nodes by line (function:line)"},
};

int run(const CliFlags &f) {
  TreeOptions o;
  if (int rc = tree_options(f, TreeDirection::callees, &o)) return rc;
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v)) return rc;
  CallTree t = call_tree(*v, o);
  if (t.anchored && !t.anchor_found) {
    if (!o.method.empty()) return cli_no_match(*v, o.method, f.json);
    return cli_fail(kExitInput, "no frame on " + o.file + ":" + std::to_string(o.line), f.json);
  }
  if (f.json) {
    Json j;
    j["command"] = "tree";
    j["view"] = view_json(*v, in.path());
    j["anchor_total"] = t.top_total;
    j["nodes"] = tree_json(*v, t.nodes);
    print_json(j);
  } else {
    std::string text = view_header(*v, in.path());
    if (t.anchored)
      text += "callees of " +
              (o.method.empty() ? o.file + ":" + std::to_string(o.line) : "'" + o.method + "'") +
              ": " + format_weight(t.top_total, v->unit()) + " (" +
              format_pct(percent(t.top_total, v->total)) + ")\n";
    fputs((text + tree_text(*v, t.nodes, o.lines)).c_str(), stdout);
  }
  return kExitOk;
}

} // namespace

const CliCommand kTreeCommand{
    "tree",
    "tree FILE [-m PATTERN | --line SOURCE:LINE] [--depth N] [--min-pct PCT] [--lines]",
    "call tree from the roots, or the callees of a method or line",
    kExtra,
    1,
    1,
    run};

} // namespace hotlines
