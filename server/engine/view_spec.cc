// Resolving a ViewSpec against a profile (see view_spec.h).
#include "server/engine/view_spec.h"

#include "server/engine/units.h"
#include "server/engine/view_filter.h"

namespace hotlines {

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

bool make_view(const ViewSpec &spec, const ProfileIndex &index, View *v, std::string *error,
               const std::string *from_override, const std::string *to_override) {
  const Profile &p = index.profile();
  v->event = spec.event;
  v->measure = spec.measure.value_or(Measure::value);
  for (const std::string &t : spec.threads) {
    uint64_t id;
    if (parse_count(t, &id))
      v->threads.ids.push_back(static_cast<int64_t>(id));
    else
      v->threads.patterns.push_back(t);
  }
  v->states = spec.states;
  const std::string &f = from_override ? *from_override : spec.from;
  const std::string &t = to_override ? *to_override : spec.to;
  int64_t ns;
  if (!f.empty()) {
    if (!parse_time_ns(f, p.metadata.start_time_ns, &ns, error)) return false;
    v->from_ns = ns;
  }
  if (!t.empty()) {
    if (!parse_time_ns(t, p.metadata.start_time_ns, &ns, error)) return false;
    v->to_ns = ns;
  }
  v->include = spec.include;
  v->exclude = spec.exclude;
  v->hide = spec.hide;
  v->no_idle = spec.no_idle;
  v->grouping = spec.fqn ? FunctionGrouping::fqn : FunctionGrouping::name;
  return check_view_patterns(*v, error);
}

} // namespace hotlines
