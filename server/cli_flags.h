// CliFlags: the flag parser shared by every query command. Common flags follow ap-query's
// names (-e/--event, -t/--thread, --from/--to, --top, --depth, --min-pct, --hide, --fqn,
// --no-idle, --assert-below, -m/--method, --include/--exclude) plus --json and
// --value/--count; each command adds its own flags. `--flag value` and `--flag=value` both
// work; everything not a flag is a file. Single-threaded (the CLI's main thread).
#pragma once

#include "server/profile_index.h"
#include "server/view.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

struct FlagSpec {
  const char *name; // long name without dashes
  char short_name;  // 0 when none
  bool takes_value;
  const char *help; // one line, shown by `hotlines COMMAND --help`
};

class CliFlags {
public:
  // Parses args; on failure returns false with *error. `--help` sets help.
  bool parse(const std::vector<std::string> &args, std::span<const FlagSpec> extra,
             std::string *error);

  std::vector<std::string> files;
  bool help = false;
  bool json = false;
  std::string event;
  std::vector<std::string> threads;
  std::string from, to;
  std::optional<size_t> top;
  std::optional<uint32_t> depth;
  std::optional<double> min_pct;
  std::vector<std::string> hide, include, exclude;
  bool fqn = false;
  bool no_idle = false;
  std::optional<double> assert_below;
  std::string method;
  std::optional<Measure> measure;

  // Command-specific flags.
  bool has(std::string_view name) const { return extra_.count(std::string(name)) > 0; }
  std::string value(std::string_view name) const;
  const std::map<std::string, std::vector<std::string>> &extra() const { return extra_; }

  // The View these flags describe for a loaded profile (times resolved against its start).
  // `from`/`to` override the --from/--to flags when given (diff windows).
  bool make_view(const ProfileIndex &index, View *out, std::string *error,
                 const std::string *from = nullptr, const std::string *to = nullptr) const;

  // Usage text of the common flags plus the command's own.
  static std::string flag_help(std::span<const FlagSpec> extra);

private:
  std::map<std::string, std::vector<std::string>> extra_;
};

// Parses a duration: `2s`, `500ms`, `1m30s`, `1.5s`, `250us`, `10ns`, `1h`. False when
// the text is not a duration with units.
bool parse_duration_ns(std::string_view text, int64_t *ns);

// Parses a --from/--to time: a duration is relative to the profile start; a bare number is
// absolute wall-clock milliseconds since the epoch, turned relative with the profile's
// start time.
bool parse_time_ns(std::string_view text, int64_t profile_start_ns, int64_t *relative_ns,
                   std::string *error);

} // namespace hotlines
