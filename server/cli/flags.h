// CliFlags: the flag parser shared by every query command. Common flags follow ap-query's
// names (-e/--event, -t/--thread, --state, --from/--to, --top, --depth, --min-pct, --hide, --fqn,
// --no-idle, --assert-below, -m/--method, --include/--exclude) plus --json and
// --value/--count, and the load limits; each command adds its own flags. `--flag value` and
// `--flag=value` both work; everything not a flag is a file. Single-threaded (the CLI's main
// thread).
#pragma once

#include "formats/load_result.h"
#include "server/engine/view_spec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

// The default load limits, their errors naming the flags that raise them.
inline LoadLimits cli_load_limits() {
  LoadLimits l;
  l.bytes_hint = "--max-profile-mib";
  l.ratio_hint = "--max-inflate-ratio";
  return l;
}

struct FlagSpec {
  const char *name; // long name without dashes
  char short_name;  // 0 when none
  bool takes_value;
  const char *help; // one line, shown by `hotlines COMMAND --help`
};

// The parsed command line: the view flags (the ViewSpec it is) and the rest.
class CliFlags : public ViewSpec {
public:
  // Parses args against the command's own flags `extra` and, when `common`, the common ones
  // (--help always); on failure returns false with *error. `--help` sets help.
  bool parse(const std::vector<std::string> &args, std::span<const FlagSpec> extra, bool common,
             std::string *error);

  std::vector<std::string> files;
  bool help = false;
  bool json = false;
  std::optional<size_t> top;
  std::optional<uint32_t> depth;
  std::optional<double> min_pct;
  std::optional<double> assert_below;
  std::string method;
  // --max-profile-mib, --max-inflate-ratio (every command takes them).
  LoadLimits limits = cli_load_limits();

  // Command-specific flags.
  bool has(std::string_view name) const { return extra_.count(std::string(name)) > 0; }
  std::string value(std::string_view name) const;
  const std::map<std::string, std::vector<std::string>> &extra() const { return extra_; }

  // Usage text of the common flags plus the command's own.
  static std::string flag_help(std::span<const FlagSpec> extra, bool common = true);

private:
  std::map<std::string, std::vector<std::string>> extra_;
};

} // namespace hotlines
