// Function and line diffs (see query_diff.h).
// Threading: Pure functions over immutable views; any thread.
#include "server/engine/query_diff.h"

#include "server/engine/function_keys.h"
#include "server/engine/line_keys.h"
#include "server/engine/query_lines.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace hotlines {

std::string_view diff_status_name(DiffStatus s) {
  switch (s) {
  case DiffStatus::changed:
    return "changed";
  case DiffStatus::same:
    return "same";
  case DiffStatus::added:
    return "new";
  case DiffStatus::removed:
    return "gone";
  }
  return "changed";
}

namespace {

Diff finish(std::map<std::pair<std::string, int32_t>, std::pair<int64_t, int64_t>> &rows,
            int64_t before_total, int64_t after_total, const DiffOptions &o) {
  Diff d;
  d.before_total = before_total;
  d.after_total = after_total;
  for (auto &[key, w] : rows) {
    DiffRow r;
    r.name = key.first;
    r.line = key.second;
    r.before = w.first;
    r.after = w.second;
    r.before_pct = percent(r.before, before_total);
    r.after_pct = percent(r.after, after_total);
    r.delta_pct = r.after_pct - r.before_pct;
    r.status = r.before == 0      ? DiffStatus::added
               : r.after == 0     ? DiffStatus::removed
               : r.delta_pct == 0 ? DiffStatus::same
                                  : DiffStatus::changed;
    if (std::fabs(r.delta_pct) < o.min_delta) continue;
    d.rows.push_back(std::move(r));
  }
  std::sort(d.rows.begin(), d.rows.end(), [](const DiffRow &a, const DiffRow &b) {
    double da = std::fabs(a.delta_pct), db = std::fabs(b.delta_pct);
    if (da != db) return da > db;
    if (a.name != b.name) return a.name < b.name;
    return a.line < b.line;
  });
  if (o.top && d.rows.size() > o.top) d.rows.resize(o.top);
  return d;
}

} // namespace

Diff diff_functions(const ViewWeights &before, const ViewWeights &after, const DiffOptions &o) {
  std::map<std::pair<std::string, int32_t>, std::pair<int64_t, int64_t>> rows;
  auto add = [&](const ViewWeights &v, bool is_after) {
    KeySums s = function_sums(v);
    const FunctionKeys &fk = v.functions();
    const std::vector<int64_t> &w = o.measure == SortBy::self ? s.self : s.total;
    for (uint32_t k = 0; k < fk.size(); k++) {
      if (w[k] == 0) continue;
      auto &cell = rows[{fk.label(k), 0}];
      (is_after ? cell.second : cell.first) += w[k];
    }
  };
  add(before, false);
  add(after, true);
  return finish(rows, before.total, after.total, o);
}

Diff diff_lines(const ViewWeights &before, const ViewWeights &after, std::string_view file,
                const DiffOptions &o) {
  std::map<std::pair<std::string, int32_t>, std::pair<int64_t, int64_t>> rows;
  std::map<int32_t, std::set<std::string>> functions; // the functions with frames at a line
  auto add = [&](const ViewWeights &v, bool is_after) {
    FileLines fl = file_lines(v, file);
    for (const FileLine &l : fl.lines) {
      int64_t w = o.measure == SortBy::self ? l.self : l.total;
      if (w == 0) continue;
      auto &cell = rows[{std::string(), l.line}];
      (is_after ? cell.second : cell.first) += w;
    }
    const LineKeys &lk = v.lines();
    uint32_t f = lk.find_file(file);
    if (f == kNoKey) return;
    const FunctionKeys &fk = v.functions();
    for (size_t i = 0; i < v.profile().frames.size(); i++) {
      uint32_t line = lk.lines().of_frame[i];
      if (line != kNoKey && lk.file_of_line(line) == f)
        functions[lk.line_of(line)].insert(fk.label(fk.map().of_frame[i]));
    }
  };
  add(before, false);
  add(after, true);
  Diff d = finish(rows, before.total, after.total, o);
  for (DiffRow &r : d.rows) {
    for (const std::string &name : functions[r.line]) r.name += (r.name.empty() ? "" : ", ") + name;
  }
  return d;
}

} // namespace hotlines
