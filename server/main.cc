// hotlines entry point: `serve` speaks LSP over stdio; other subcommands come from cli.h;
// `__run-watchdog` is the helper `serve` starts for its runs (server/runs/run_watchdog.h).
#include "formats/malloc_policy.h"
#include "server/cli/cli.h"
#include "server/lsp/serve.h"
#include "server/runs/run_watchdog.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

void print_help() {
  printf("hotlines %s — a profile language server\n\n"
         "usage: hotlines COMMAND [ARGS]   (hotlines COMMAND --help: its arguments and flags)\n\n"
         "  %-11s %s\n",
         HOTLINES_VERSION, "serve",
         "speak the Language Server Protocol over stdio (editors run this); "
         "[--max-message-bytes N]");
  for (const hotlines::CliCommand *c : hotlines::cli_commands())
    printf("  %-11s %s\n", c->name, c->summary);
  printf(
      "\n  %-11s %s\n  %-11s %s\n\nFormats: JFR (.jfr, .jfr.gz), pprof (.pb.gz, .pprof), collapsed "
      "stacks; detected by content. FILE '-' reads stdin.\n",
      "--version", "print the version", "--help", "print this help");
}

} // namespace

int main(int argc, char **argv) {
  hotlines::set_malloc_policy();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_help();
    return args.empty() ? hotlines::kExitUsage : hotlines::kExitOk;
  }
  if (args[0] == "--version" || args[0] == "version") {
    printf("hotlines %s\n", HOTLINES_VERSION);
    return 0;
  }
  if (args[0] == "__run-watchdog") // internal: started by `serve` (server/runs/run_watchdog.h)
    return hotlines::run_watchdog_main();
  if (args[0] == "serve")
    return hotlines::serve_main(std::vector<std::string>(args.begin() + 1, args.end()));
  for (const hotlines::CliCommand *c : hotlines::cli_commands())
    if (args[0] == c->name)
      return hotlines::run_cli_command(*c, std::vector<std::string>(args.begin() + 1, args.end()));
  fprintf(stderr, "hotlines: unknown command '%s' (see hotlines --help)\n", args[0].c_str());
  return hotlines::kExitUsage;
}
