// The shared CLI flag parser (see flags.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli/flags.h"

#include "server/engine/units.h"

#include <algorithm>

namespace hotlines {

namespace {

const FlagSpec kCommon[] = {
    {"event", 'e', true, "event to show: cpu, wall, alloc, lock, ... (default: the profile's)"},
    {"thread", 't', true,
     "only threads whose name contains TEXT (regex with operators), or with id N; repeatable"},
    {"from", 0, true, "window start: 2s, 500ms, 1m30s from the profile start, or epoch ms"},
    {"to", 0, true, "window end (exclusive), same forms as --from"},
    {"top", 'n', true, "at most N rows"},
    {"depth", 0, true, "at most N tree levels"},
    {"min-pct", 0, true, "drop rows/nodes below PCT percent of the view"},
    {"hide", 0, true, "remove frames matching PATTERN from stacks; repeatable"},
    {"include", 0, true, "keep samples with a frame matching PATTERN; repeatable"},
    {"exclude", 0, true, "drop samples with a frame matching PATTERN; repeatable"},
    {"fqn", 0, false, "group functions by name and descriptor (splits overloads)"},
    {"no-idle", 0, false, "drop samples whose leaf is a park/wait/sleep/poll/futex frame"},
    {"assert-below", 0, true, "exit 1 when the top self% is at or above PCT"},
    {"method", 'm', true, "method PATTERN (substring, or regex with operators)"},
    {"value", 0, false, "weigh samples by value: ns, bytes, ... (default)"},
    {"count", 0, false, "weigh samples by count"},
    {"json", 0, false, "print JSON (field names in README.md, \"Command line\")"},
    {"help", 'h', false, "print this help"},
};

// What a command without the common flags still takes.
const FlagSpec kHelpOnly[] = {{"help", 'h', false, "print this help"}};

std::span<const FlagSpec> common_flags(bool common) {
  return common ? std::span<const FlagSpec>(kCommon) : std::span<const FlagSpec>(kHelpOnly);
}

const FlagSpec *find_flag(std::string_view name, bool is_short, std::span<const FlagSpec> extra,
                          bool common) {
  for (std::span<const FlagSpec> table : {common_flags(common), extra})
    for (const FlagSpec &f : table)
      if (is_short ? (name.size() == 1 && f.short_name == name[0]) : name == f.name) return &f;
  return nullptr;
}

} // namespace

bool CliFlags::parse(const std::vector<std::string> &args, std::span<const FlagSpec> extra,
                     bool common, std::string *error) {
  for (size_t i = 0; i < args.size(); i++) {
    const std::string &a = args[i];
    if (a.size() < 2 || a[0] != '-' || a == "-") {
      files.push_back(a);
      continue;
    }
    if (a == "--") {
      files.insert(files.end(), args.begin() + i + 1, args.end());
      break;
    }
    bool is_short = a[1] != '-';
    std::string name = is_short ? a.substr(1) : a.substr(2);
    std::optional<std::string> inline_value;
    if (size_t eq = name.find('='); !is_short && eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    } else if (is_short && name.size() > 1) {
      inline_value = name.substr(1); // -m'Foo'
      name.resize(1);
    }
    const FlagSpec *spec = find_flag(name, is_short, extra, common);
    if (!spec) {
      *error = "unknown flag '" + a + "'";
      return false;
    }
    std::string value;
    if (spec->takes_value) {
      if (inline_value)
        value = *inline_value;
      else if (i + 1 < args.size())
        value = args[++i];
      else {
        *error = "flag --" + std::string(spec->name) + " needs a value";
        return false;
      }
    } else if (inline_value) {
      *error = "flag --" + std::string(spec->name) + " takes no value";
      return false;
    }
    std::string_view n = spec->name;
    if (std::any_of(extra.begin(), extra.end(), [&](const FlagSpec &e) { return &e == spec; })) {
      extra_[std::string(n)].push_back(value); // the command's own flag
      continue;
    }
    auto number = [&](double *out) {
      if (parse_number(value, out)) return true;
      *error = "flag --" + std::string(n) + ": '" + value + "' is not a number";
      return false;
    };
    auto count = [&](uint64_t *out) {
      if (parse_count(value, out)) return true;
      *error = "flag --" + std::string(n) + ": '" + value + "' is not a non-negative integer";
      return false;
    };
    double d;
    uint64_t c;
    if (n == "event")
      event = value;
    else if (n == "thread")
      threads.push_back(value);
    else if (n == "from")
      from = value;
    else if (n == "to")
      to = value;
    else if (n == "top") {
      if (!count(&c)) return false;
      top = c;
    } else if (n == "depth") {
      if (!count(&c)) return false;
      depth = static_cast<uint32_t>(c);
    } else if (n == "min-pct") {
      if (!number(&d)) return false;
      min_pct = d;
    } else if (n == "hide")
      hide.push_back(value);
    else if (n == "include")
      include.push_back(value);
    else if (n == "exclude")
      exclude.push_back(value);
    else if (n == "fqn")
      fqn = true;
    else if (n == "no-idle")
      no_idle = true;
    else if (n == "assert-below") {
      if (!number(&d)) return false;
      assert_below = d;
    } else if (n == "method")
      method = value;
    else if (n == "value")
      measure = Measure::value;
    else if (n == "count")
      measure = Measure::count;
    else if (n == "json")
      json = true;
    else if (n == "help")
      help = true;
  }
  return true;
}

std::string CliFlags::value(std::string_view name) const {
  auto it = extra_.find(std::string(name));
  return it == extra_.end() || it->second.empty() ? std::string() : it->second.back();
}

std::string CliFlags::flag_help(std::span<const FlagSpec> extra, bool common) {
  std::string out;
  auto add = [&](const FlagSpec &f) {
    std::string left = "  ";
    left += f.short_name ? std::string("-") + f.short_name + ", " : "    ";
    left += "--" + std::string(f.name) + (f.takes_value ? " X" : "");
    if (left.size() < 26)
      left.resize(26, ' ');
    else
      left += "  ";
    out += left + f.help + "\n";
  };
  for (const FlagSpec &f : extra) add(f);
  for (const FlagSpec &f : common_flags(common)) add(f);
  return out;
}

} // namespace hotlines
