// The `hotlines` subcommands (everything but `serve`): one CliCommand per command, defined in
// the command's own file (cli/NAME.cc, or its mirror's) and listed once in cli_commands(),
// which `hotlines --help` prints and main.cc dispatches on. Exit codes: 0 ok, 1 assertion
// failed, 2 usage, 3 input error. Single-threaded (the CLI's main thread).
#pragma once

#include "server/cli/flags.h"

#include <span>
#include <string>
#include <vector>

namespace hotlines {

struct CliCommand {
  const char *name;
  const char *usage;               // what follows `hotlines`: arguments and main flags
  const char *summary;             // one line: what it does
  std::span<const FlagSpec> flags; // its own flags; the common view flags come on top
  size_t min_files, max_files;
  int (*run)(const CliFlags &flags); // after the flags parsed and the files counted
  bool own_flags_only = false;       // no common view flags (convert)
};

// Every command, in the order `hotlines --help` lists them.
std::span<const CliCommand *const> cli_commands();

// Parses `args` (what follows the command's name) for `command` and runs it: --help prints
// its usage, summary and flags; a bad flag or file count prints the usage and returns 2.
int run_cli_command(const CliCommand &command, const std::vector<std::string> &args);

enum CliExit { kExitOk = 0, kExitAssert = 1, kExitUsage = 2, kExitInput = 3 };

} // namespace hotlines
