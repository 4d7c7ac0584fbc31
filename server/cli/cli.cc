// The table of subcommands and running one (see cli.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli/cli.h"

#include "server/cli/commands.h"

#include <cstdio>

namespace hotlines {

namespace {
const CliCommand *const kCommands[] = {
    &kInfoCommand,   &kHotCommand,      &kLinesCommand,   &kTreeCommand,     &kCallersCommand,
    &kTraceCommand,  &kThreadsCommand,  &kEventsCommand,  &kTimelineCommand, &kDiffCommand,
    &kFilterCommand, &kCollapseCommand, &kConvertCommand, &kResolveCommand,  &kFlamegraphCommand,
};
} // namespace

std::span<const CliCommand *const> cli_commands() {
  return kCommands;
}

int run_cli_command(const CliCommand &c, const std::vector<std::string> &args) {
  CliFlags flags;
  std::string err;
  if (!flags.parse(args, c.flags, !c.own_flags_only, &err)) {
    fprintf(stderr, "hotlines %s: %s\nusage: hotlines %s (see hotlines %s --help)\n", c.name,
            err.c_str(), c.usage, c.name);
    return kExitUsage;
  }
  if (flags.help) {
    printf("usage: hotlines %s\n%s\n\nflags:\n%s", c.usage, c.summary,
           CliFlags::flag_help(c.flags, !c.own_flags_only).c_str());
    return kExitOk;
  }
  if (flags.files.size() < c.min_files || flags.files.size() > c.max_files) {
    std::string want = std::to_string(c.min_files);
    if (c.max_files != c.min_files) want += " or " + std::to_string(c.max_files);
    fprintf(stderr, "hotlines %s: expected %s file argument%s, got %zu\nusage: hotlines %s\n",
            c.name, want.c_str(), c.max_files == 1 ? "" : "s", flags.files.size(), c.usage);
    return kExitUsage;
  }
  return c.run(flags);
}

} // namespace hotlines
