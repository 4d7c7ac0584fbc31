// The CliCommand of each subcommand, each defined in its own file (cli/NAME.cc; a command and
// its mirror share one: callers in tree.cc, filter in collapse.cc) and listed in cli.cc's table.
#pragma once

#include "server/cli/cli.h"

namespace hotlines {

extern const CliCommand kInfoCommand, kHotCommand, kLinesCommand, kTreeCommand, kCallersCommand,
    kTraceCommand, kThreadsCommand, kEventsCommand, kTimelineCommand, kDiffCommand, kFilterCommand,
    kCollapseCommand, kConvertCommand, kResolveCommand, kFlamegraphCommand;

} // namespace hotlines
