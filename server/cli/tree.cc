// `hotlines tree FILE` and `hotlines callers FILE -m PATTERN` (or --line SOURCE:LINE): the
// call tree from the roots, or from a method or a line down to its callees; and the inverted
// tree from a method or a line up to the thread roots, who calls it. `--depth` (default 10)
// and `--min-pct` (default 1) keep them readable.
// Threading: Runs on the CLI's main thread; tree emission uses both cores.
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/tree_print.h"
#include "server/engine/units.h"

#include <charconv>
#include <cstdio>

namespace hotlines {

namespace {
const FlagSpec kTreeFlags[] = {
    {"line", 0, true, "start at the frames on SOURCE:LINE (e.g. org/acme/shop/Pricing.java:15)"},
    kSplitLinesFlag,
};
const FlagSpec kCallersFlags[] = {
    {"line", 0, true, "callers of the frames on SOURCE:LINE (e.g. org/acme/shop/Pricing.java:15)"},
    kSplitLinesFlag,
};

// Parses "--line SOURCE:LINE" into options.file/line; false when malformed.
bool parse_line_anchor(const std::string &text, TreeOptions *o) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  int32_t line = 0;
  const char *b = text.data() + colon + 1, *e = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(b, e, line);
  if (ec != std::errc() || ptr != e || line < 1) return false;
  o->file = text.substr(0, colon);
  o->line = line;
  return true;
}

// The tree (callees) or the inverted tree (callers): the same flags, anchors and output.
int run_tree(const CliFlags &f, TreeDirection direction) {
  const bool callers = direction == TreeDirection::callers;
  TreeOptions o;
  o.direction = direction;
  o.method = f.method;
  o.lines = f.has("lines");
  o.max_depth = f.depth.value_or(10);
  o.min_pct = f.min_pct.value_or(1);
  if (f.has("line") && !parse_line_anchor(f.value("line"), &o))
    return cli_fail(kExitUsage, "--line wants SOURCE:LINE, got '" + f.value("line") + "'", f.json);
  if (callers && o.method.empty() && o.file.empty())
    return cli_fail(kExitUsage, "callers needs -m PATTERN or --line SOURCE:LINE", f.json);
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v)) return rc;
  if (int rc = cli_need_totals(*v, f.json)) return rc;
  CallTree t = call_tree(*v, o);
  const bool anchored = callers || t.anchored; // callers always names its anchor
  if (anchored && !t.anchor_found) {
    if (!o.method.empty()) return cli_no_match(*v, o.method, f.json);
    return cli_fail(kExitInput, "no frame on " + o.file + ":" + std::to_string(o.line), f.json);
  }
  if (f.json) {
    Json j;
    j["command"] = callers ? "callers" : "tree";
    j["view"] = view_json(*v, in.path());
    j["anchor_total"] = t.top_total;
    j["nodes"] = tree_json(*v, t.nodes);
    print_json(j);
  } else {
    std::string text = view_header(*v, in.path());
    if (anchored)
      text += (callers ? "callers of " : "callees of ") +
              (o.method.empty() ? o.file + ":" + std::to_string(o.line) : "'" + o.method + "'") +
              ": " + format_weight(t.top_total, v->unit()) + " (" +
              format_pct(percent(t.top_total, v->total)) + ")\n";
    fputs((text + tree_text(*v, t.nodes, o.lines)).c_str(), stdout);
  }
  return kExitOk;
}

int tree(const CliFlags &f) {
  return run_tree(f, TreeDirection::callees);
}
int callers(const CliFlags &f) {
  return run_tree(f, TreeDirection::callers);
}

} // namespace

const CliCommand kTreeCommand{
    "tree",
    "tree FILE [-m PATTERN | --line SOURCE:LINE] [--depth N] [--min-pct PCT] [--lines]",
    "call tree from the roots, or the callees of a method or line",
    kTreeFlags,
    1,
    1,
    tree};
const CliCommand kCallersCommand{
    "callers",
    "callers FILE (-m PATTERN | --line SOURCE:LINE) [--depth N] [--min-pct PCT]",
    "the callers of a method or line (inverted tree)",
    kCallersFlags,
    1,
    1,
    callers};

} // namespace hotlines
