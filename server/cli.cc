// The table of CLI subcommands (see cli.h). Commands live in cli_<name>.cc files.
#include "server/cli.h"

namespace hotlines {

int cli_info(const std::vector<std::string> &args);
int cli_convert(const std::vector<std::string> &args);

namespace {
const CliCommand kCommands[] = {
    {"info", "info FILE", "load a profile and print its format, events, threads and warnings",
     cli_info},
    {"convert", "convert IN OUT [--event NAME]", "write a profile as pprof (.pb.gz, .pprof, .pb)",
     cli_convert},
};
} // namespace

std::span<const CliCommand> cli_commands() {
  return kCommands;
}

} // namespace hotlines
