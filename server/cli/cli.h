// Command-line subcommands of `hotlines` (everything but `serve`). Each command is one entry
// in the table returned by cli_commands(); main.cc dispatches on the first argument.
// Exit codes: 0 ok, 1 assertion failed, 2 usage, 3 input error.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace hotlines {

struct CliCommand {
  const char *name;
  const char *usage;                                // one line: arguments and main flags
  const char *summary;                              // one line: what it does
  int (*run)(const std::vector<std::string> &args); // args after the command name
};

std::span<const CliCommand> cli_commands();

enum CliExit { kExitOk = 0, kExitAssert = 1, kExitUsage = 2, kExitInput = 3 };

} // namespace hotlines
