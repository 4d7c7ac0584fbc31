// `hotlines collapse FILE` and `hotlines filter FILE -m PATTERN`: the view as collapsed
// stacks (`frame;frame;… weight`), optionally with threads, lines and frame kinds, to stdout
// or -o OUT. `filter` keeps only the samples through the method (like --include).
// Threading: Runs on the CLI's main thread; filtered views use both cores.
#include "formats/collapsed_writer.h"
#include "server/cli/commands.h"
#include "server/cli/input.h"
#include "server/engine/materialize_view.h"

#include <cstdio>

namespace hotlines {

namespace {
const FlagSpec kExtra[] = {
    {"threads", 0, false, "first frame [thread tid=N]"},
    {"lines", 0, false, "frames carry :LINE"},
    {"kinds", 0, false, "frames carry _[j] _[i] _[0] _[1] _[k] kind suffixes"},
    {"output", 'o', true, "write to this file instead of stdout"},
};

int write_view(const CliFlags &f, bool filter) {
  if (filter && f.method.empty() && f.include.empty())
    return cli_fail(kExitUsage, "filter needs -m PATTERN (or --include PATTERN)", f.json);
  CliInput in;
  std::shared_ptr<const ViewWeights> v;
  if (int rc = in.open(f, &v, CliReads{.threads = f.has("threads")})) return rc;
  View view = v->view;
  if (filter && !f.method.empty()) {
    if (!any_function_matches(*v, f.method)) return cli_no_match(*v, f.method, f.json);
    view.include.push_back(f.method);
  }
  std::string err;
  std::unique_ptr<Profile> p = materialize_view(in.index().profile(), view, &err);
  if (!p) return cli_fail(kExitInput, err, f.json);
  CollapsedOptions o;
  o.event = 0;
  o.use_value = view.measure == Measure::value;
  o.threads = f.has("threads");
  o.lines = f.has("lines");
  o.kinds = f.has("kinds");
  std::string text = write_collapsed(*p, o);
  if (f.json) {
    Json j;
    j["command"] = filter ? "filter" : "collapse";
    j["view"] = view_json(*v, in.path());
    Json stacks = Json::array();
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      std::string line = text.substr(pos, nl - pos);
      pos = nl + 1;
      size_t sp = line.rfind(' ');
      stacks.push_back(
          {{"stack", line.substr(0, sp)}, {"weight", std::stoll(line.substr(sp + 1))}});
    }
    j["stacks"] = stacks;
    text = j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  }
  std::string error;
  if (!write_output(f.has("output") ? f.value("output") : "-", text, &error))
    return cli_fail(kExitInput, error, false);
  return kExitOk;
}
int collapse(const CliFlags &f) {
  return write_view(f, false);
}
int filter(const CliFlags &f) {
  return write_view(f, true);
}
} // namespace

const CliCommand kCollapseCommand{
    "collapse",
    "collapse FILE [-e EVENT] [--threads] [--lines] [--kinds] [-o OUT]",
    "the view as collapsed stacks (FlameGraph, speedscope input)",
    kExtra,
    1,
    1,
    collapse};
const CliCommand kFilterCommand{"filter",
                                "filter FILE -m PATTERN [--threads] [--lines] [-o OUT]",
                                "collapsed stacks of the samples through a method",
                                kExtra,
                                1,
                                1,
                                filter};

} // namespace hotlines
