// The shared CLI flag parser (see cli_flags.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli_flags.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

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

bool parse_number(std::string_view s, double *out) {
  if (s.empty()) return false;
  std::string tmp(s);
  char *end = nullptr;
  double v = std::strtod(tmp.c_str(), &end);
  if (end != tmp.c_str() + tmp.size() || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool parse_count(std::string_view s, uint64_t *out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

const FlagSpec *find_flag(std::string_view name, bool is_short, std::span<const FlagSpec> extra) {
  for (std::span<const FlagSpec> table : {std::span<const FlagSpec>(kCommon), extra})
    for (const FlagSpec &f : table)
      if (is_short ? (name.size() == 1 && f.short_name == name[0]) : name == f.name) return &f;
  return nullptr;
}

} // namespace

bool parse_duration_ns(std::string_view text, int64_t *ns) {
  if (text.empty()) return false;
  double total = 0;
  size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) i++;
    if (i == start) return false;
    double num;
    if (!parse_number(text.substr(start, i - start), &num)) return false;
    size_t ustart = i;
    while (i < text.size() && text[i] >= 'a' && text[i] <= 'z') i++;
    std::string_view unit = text.substr(ustart, i - ustart);
    double mult;
    if (unit == "ns")
      mult = 1;
    else if (unit == "us")
      mult = 1e3;
    else if (unit == "ms")
      mult = 1e6;
    else if (unit == "s")
      mult = 1e9;
    else if (unit == "m")
      mult = 60e9;
    else if (unit == "h")
      mult = 3600e9;
    else
      return false;
    total += num * mult;
    any = true;
  }
  if (!any) return false;
  *ns = static_cast<int64_t>(std::llround(total));
  return true;
}

bool parse_time_ns(std::string_view text, int64_t start_ns, int64_t *rel, std::string *error) {
  if (parse_duration_ns(text, rel)) return true;
  // Epoch milliseconds, in integers: a double cannot hold epoch nanoseconds exactly.
  std::string_view whole = text.substr(0, text.find('.'));
  std::string_view frac =
      whole.size() < text.size() ? text.substr(whole.size() + 1) : std::string_view();
  uint64_t ms = 0, sub = 0;
  bool ok = parse_count(whole, &ms) &&
            (frac.empty() || (frac.size() <= 6 && parse_count(frac, &sub))) &&
            ms < static_cast<uint64_t>(INT64_MAX / 1000000);
  if (!ok) {
    *error = "bad time '" + std::string(text) +
             "': use a duration like 2s, 500ms, 1m30s, or epoch milliseconds";
    return false;
  }
  if (start_ns <= 0) {
    *error =
        "time '" + std::string(text) +
        "' is absolute (epoch ms) but the profile records no start time; use a duration like 2s";
    return false;
  }
  for (size_t i = frac.size(); i < 6; i++) sub *= 10;
  int64_t abs_ns = static_cast<int64_t>(ms) * 1000000 + static_cast<int64_t>(sub);
  if (abs_ns < start_ns) {
    *error = "absolute time " + std::string(text) + " ms is before the profile start (" +
             std::to_string(start_ns / 1000000) +
             " ms); for a time relative to the start add a unit, like " + std::string(text) + "ms";
    return false;
  }
  *rel = abs_ns - start_ns;
  return true;
}

bool CliFlags::parse(const std::vector<std::string> &args, std::span<const FlagSpec> extra,
                     std::string *error) {
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
    const FlagSpec *spec = find_flag(name, is_short, extra);
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
    else
      extra_[std::string(n)].push_back(value);
  }
  return true;
}

std::string CliFlags::value(std::string_view name) const {
  auto it = extra_.find(std::string(name));
  return it == extra_.end() || it->second.empty() ? std::string() : it->second.back();
}

bool CliFlags::make_view(const ProfileIndex &index, View *v, std::string *error,
                         const std::string *from_override, const std::string *to_override) const {
  const Profile &p = index.profile();
  v->event = event;
  v->measure = measure.value_or(Measure::value);
  for (const std::string &t : threads) {
    uint64_t id;
    if (parse_count(t, &id))
      v->threads.ids.push_back(static_cast<int64_t>(id));
    else
      v->threads.patterns.push_back(t);
  }
  const std::string &f = from_override ? *from_override : from;
  const std::string &t = to_override ? *to_override : to;
  int64_t ns;
  if (!f.empty()) {
    if (!parse_time_ns(f, p.metadata.start_time_ns, &ns, error)) return false;
    v->from_ns = ns;
  }
  if (!t.empty()) {
    if (!parse_time_ns(t, p.metadata.start_time_ns, &ns, error)) return false;
    v->to_ns = ns;
  }
  v->include = include;
  v->exclude = exclude;
  v->hide = hide;
  v->no_idle = no_idle;
  v->grouping = fqn ? FunctionGrouping::fqn : FunctionGrouping::name;
  return true;
}

std::string CliFlags::flag_help(std::span<const FlagSpec> extra) {
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
  for (const FlagSpec &f : kCommon) add(f);
  return out;
}

} // namespace hotlines
