// The table of CLI subcommands (see cli.h). Commands live in cli_<name>.cc files.
// Threading: Read-only table; main.cc dispatches on the main thread.
#include "server/cli/cli.h"

namespace hotlines {

int cli_info(const std::vector<std::string> &args);
int cli_hot(const std::vector<std::string> &args);
int cli_lines(const std::vector<std::string> &args);
int cli_tree(const std::vector<std::string> &args);
int cli_callers(const std::vector<std::string> &args);
int cli_trace(const std::vector<std::string> &args);
int cli_threads(const std::vector<std::string> &args);
int cli_events(const std::vector<std::string> &args);
int cli_timeline(const std::vector<std::string> &args);
int cli_diff(const std::vector<std::string> &args);
int cli_filter(const std::vector<std::string> &args);
int cli_collapse(const std::vector<std::string> &args);
int cli_convert(const std::vector<std::string> &args);
int cli_resolve(const std::vector<std::string> &args);
int cli_flamegraph(const std::vector<std::string> &args);

namespace {
const CliCommand kCommands[] = {
    {"info", "info FILE", "format, events, threads, hot functions and warnings of a profile",
     cli_info},
    {"hot", "hot FILE [--top N] [--total] [--lines]", "hottest functions (self, total) or lines",
     cli_hot},
    {"lines", "lines FILE [-m PATTERN | --file SOURCE]",
     "per-line self/total of a method or source file", cli_lines},
    {"tree", "tree FILE [-m PATTERN] [--depth N]", "call tree from the roots or a method",
     cli_tree},
    {"callers", "callers FILE -m PATTERN", "who calls a method or line (inverted tree)",
     cli_callers},
    {"trace", "trace FILE [-m PATTERN]", "the hottest path to a leaf", cli_trace},
    {"threads", "threads FILE [--no-group]", "threads by weight, numbered names grouped",
     cli_threads},
    {"events", "events FILE", "the profile's events with totals and units", cli_events},
    {"timeline", "timeline FILE [--compare EVENT]",
     "samples over time, hottest function per bucket", cli_timeline},
    {"diff", "diff BEFORE AFTER | FILE --before W --after W",
     "what changed between profiles or windows", cli_diff},
    {"filter", "filter FILE -m PATTERN", "collapsed stacks through a method", cli_filter},
    {"collapse", "collapse FILE [--threads] [--lines]", "the view as collapsed stacks",
     cli_collapse},
    {"convert", "convert IN OUT [--event NAME]",
     "write a profile as pprof (.pb.gz, .pprof, .pb) or speedscope (.speedscope.json)",
     cli_convert},
    {"resolve", "resolve FILE --root DIR [--remap FROM=TO]",
     "map frames to source files; report what does not resolve", cli_resolve},
    {"flamegraph",
     "flamegraph FILE -o OUT.html [--event NAME] [--threads T,...] [--link vscode|file]",
     "a self-contained HTML flame graph, sandwich and timeline", cli_flamegraph},
};
} // namespace

std::span<const CliCommand> cli_commands() {
  return kCommands;
}

} // namespace hotlines
