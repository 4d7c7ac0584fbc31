// `hotlines trace FILE [-m PATTERN]`: the hottest path — from the heaviest root (or from a
// method) follow the heaviest callee down to a leaf.
// Threading: Runs on the CLI's main thread.

#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/cli/tree_print.h"

#include <cstdio>

namespace hotlines {

namespace {
const FlagSpec kExtra[] = {kSplitLinesFlag};

int run(const CliFlags &f) {
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v)) return rc;
  if (int rc = cli_need_totals(*v, f.json)) return rc;
  TreeOptions o;
  o.method = f.method;
  o.lines = f.has("lines");
  std::vector<TreeNode> path = hottest_path(*v, o);
  if (path.empty() && !o.method.empty()) return cli_no_match(*v, o.method, f.json);
  if (f.json) {
    Json j;
    j["command"] = "trace";
    j["view"] = view_json(*v, in.path());
    j["path"] = tree_json(*v, path);
    print_json(j);
  } else {
    fputs((view_header(*v, in.path()) + tree_text(*v, path, o.lines)).c_str(), stdout);
  }
  return kExitOk;
}

} // namespace

const CliCommand kTraceCommand{"trace",
                               "trace FILE [-m PATTERN] [--lines]",
                               "the hottest path from the roots (or a method) to a leaf",
                               kExtra,
                               1,
                               1,
                               run};

} // namespace hotlines
