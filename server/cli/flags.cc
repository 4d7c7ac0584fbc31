// The shared CLI flag parser (see flags.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli/flags.h"

#include "server/engine/units.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace hotlines {

namespace {

// A common flag's value as given: the flag's name, its text and where an error goes.
struct FlagValue {
  const std::string &name;
  const std::string &text;
  std::string *error;
};

// What a common flag's value does to the parsed flags: false (with *error) when malformed.
using Setter = std::function<bool(CliFlags &f, const FlagValue &v)>;

Setter store(std::string CliFlags::*field) {
  return [field](CliFlags &f, const FlagValue &v) {
    f.*field = v.text;
    return true;
  };
}

Setter append(std::vector<std::string> CliFlags::*field) {
  return [field](CliFlags &f, const FlagValue &v) {
    (f.*field).push_back(v.text);
    return true;
  };
}

// Each comma-separated item of the value (`--state RUNNABLE,SLEEPING`).
Setter append_items(std::vector<std::string> CliFlags::*field) {
  return [field](CliFlags &f, const FlagValue &v) {
    for (size_t start = 0; start <= v.text.size();) {
      size_t comma = std::min(v.text.find(',', start), v.text.size());
      if (comma > start) (f.*field).push_back(v.text.substr(start, comma - start));
      start = comma + 1;
    }
    return true;
  };
}

Setter store_true(bool CliFlags::*field) {
  return [field](CliFlags &f, const FlagValue &) {
    f.*field = true;
    return true;
  };
}

Setter store_measure(Measure m) {
  return [m](CliFlags &f, const FlagValue &) {
    f.measure = m;
    return true;
  };
}

template <class T> Setter store_count(std::optional<T> CliFlags::*field) {
  return [field](CliFlags &f, const FlagValue &v) {
    uint64_t c;
    if (!parse_count(v.text, &c)) {
      *v.error = "flag --" + v.name + ": '" + v.text + "' is not a non-negative integer";
      return false;
    }
    f.*field = static_cast<T>(c);
    return true;
  };
}

Setter store_number(std::optional<double> CliFlags::*field) {
  return [field](CliFlags &f, const FlagValue &v) {
    double d;
    if (!parse_number(v.text, &d)) {
      *v.error = "flag --" + v.name + ": '" + v.text + "' is not a number";
      return false;
    }
    f.*field = d;
    return true;
  };
}

// A load limit: a number of at least 1, in units of `scale`.
template <class T> Setter store_limit(T LoadLimits::*field, double scale) {
  return [field, scale](CliFlags &f, const FlagValue &v) {
    double d;
    if (!parse_number(v.text, &d) || d < 1) {
      *v.error = "flag --" + v.name + ": '" + v.text + "' is not a number of at least 1";
      return false;
    }
    const double max = static_cast<double>(std::numeric_limits<T>::max());
    f.limits.*field = d * scale >= max ? std::numeric_limits<T>::max() : static_cast<T>(d * scale);
    return true;
  };
}

// A flag every query command takes: how it is written and what its value sets.
struct CommonFlag {
  FlagSpec spec;
  Setter set;
};

const CommonFlag kCommon[] = {
    {{"event", 'e', true, "event to show: cpu, wall, alloc, lock, ... (default: the profile's)"},
     store(&CliFlags::event)},
    {{"thread", 't', true,
      "only threads whose name contains TEXT (RE2 regex with operators), or with id N; repeatable"},
     append(&CliFlags::threads)},
    {{"state", 0, true,
      "only samples in these thread states (RUNNABLE, SLEEPING, ...: `threads` lists them); "
      "comma-separated, repeatable"},
     append_items(&CliFlags::states)},
    {{"from", 0, true, "window start: 2s, 500ms, 1m30s from the profile start, or epoch ms"},
     store(&CliFlags::from)},
    {{"to", 0, true, "window end (exclusive), same forms as --from"}, store(&CliFlags::to)},
    {{"top", 'n', true, "at most N rows"}, store_count(&CliFlags::top)},
    {{"depth", 0, true, "at most N tree levels"}, store_count(&CliFlags::depth)},
    {{"min-pct", 0, true, "drop rows/nodes below PCT percent of the view"},
     store_number(&CliFlags::min_pct)},
    {{"hide", 0, true, "remove frames matching PATTERN from stacks; repeatable"},
     append(&CliFlags::hide)},
    {{"include", 0, true, "keep samples with a frame matching PATTERN; repeatable"},
     append(&CliFlags::include)},
    {{"exclude", 0, true, "drop samples with a frame matching PATTERN; repeatable"},
     append(&CliFlags::exclude)},
    {{"fqn", 0, false, "group functions by name and descriptor (splits overloads)"},
     store_true(&CliFlags::fqn)},
    {{"no-idle", 0, false, "drop samples whose leaf is a park/wait/sleep/poll/futex frame"},
     store_true(&CliFlags::no_idle)},
    {{"assert-below", 0, true, "exit 1 when the top self% is at or above PCT"},
     store_number(&CliFlags::assert_below)},
    {{"method", 'm', true, "method PATTERN (substring, or RE2 regex with operators)"},
     store(&CliFlags::method)},
    {{"value", 0, false, "weigh samples by value: ns, bytes, ... (default)"},
     store_measure(Measure::value)},
    {{"count", 0, false, "weigh samples by count"}, store_measure(Measure::count)},
    {{"json", 0, false, "print JSON (field names in README.md, \"Command line\")"},
     store_true(&CliFlags::json)},
    // Last: a command without the common flags still takes these.
    {{"max-profile-mib", 0, true, "read and inflate at most N MiB of profile data (default 4096)"},
     store_limit(&LoadLimits::max_bytes, 1024 * 1024)},
    {{"max-inflate-ratio", 0, true,
      "refuse gzip inflating past N times its size, once past 64 MiB (default 100)"},
     store_limit(&LoadLimits::max_inflate_ratio, 1)},
    {{"help", 'h', false, "print this help"}, store_true(&CliFlags::help)},
};

std::span<const CommonFlag> common_flags(bool common) {
  return common ? std::span<const CommonFlag>(kCommon)
                : std::span<const CommonFlag>(kCommon).last(3);
}

bool is_named(const FlagSpec &f, std::string_view name, bool is_short) {
  return is_short ? (name.size() == 1 && f.short_name == name[0]) : name == f.name;
}

} // namespace

bool CliFlags::parse(const std::vector<std::string> &args, std::span<const FlagSpec> extra,
                     bool common, std::string *error) {
  const std::span<const CommonFlag> commons = common_flags(common);
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
    // A common flag, else one of the command's own.
    auto c = std::find_if(commons.begin(), commons.end(),
                          [&](const CommonFlag &f) { return is_named(f.spec, name, is_short); });
    auto own = std::find_if(extra.begin(), extra.end(),
                            [&](const FlagSpec &f) { return is_named(f, name, is_short); });
    const FlagSpec *spec = c != commons.end() ? &c->spec : own != extra.end() ? &*own : nullptr;
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
    if (c == commons.end())
      extra_[spec->name].push_back(value);
    else if (!c->set(*this, {spec->name, value, error}))
      return false;
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
  for (const CommonFlag &c : common_flags(common)) add(c.spec);
  return out;
}

} // namespace hotlines
