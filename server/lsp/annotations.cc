// Hot methods and file annotations over the query engine (see annotations.h).
#include "server/lsp/annotations.h"

#include "server/engine/function_keys.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/view_weights.h"

#include <algorithm>
#include <map>

namespace hotlines {

namespace {

struct Views {
  std::shared_ptr<const ViewWeights> value, count;
  std::string error;
};

Views views(const ProfileIndex &index, const std::string &event, const std::atomic<bool> *cancel) {
  Views v;
  for (Measure m : {Measure::value, Measure::count}) {
    View view;
    view.event = event;
    view.measure = m;
    ViewResult r = compute_view(index, view, cancel);
    if (!r.ok()) {
      v.error = r.cancelled ? "cancelled" : r.error;
      return v;
    }
    (m == Measure::value ? v.value : v.count) = r.weights;
  }
  return v;
}

Weight both(int64_t count, int64_t value) {
  return {count, value};
}

} // namespace

Answer<HotMethodsResult> hot_methods(const ProfileIndex &index, const HotMethodsParams &p,
                                     const std::atomic<bool> *cancel) {
  Answer<HotMethodsResult> a;
  Views v = views(index, p.event, cancel);
  if (!v.error.empty()) return a.error = v.error, a;
  HotOptions options;
  options.top = static_cast<size_t>(p.limit);
  options.method = p.query;
  HotFunctions hot = hot_functions(*v.value, options, cancel);
  if (cancel && cancel->load()) return a.error = "cancelled", a;
  KeySums counts = function_sums(*v.count);
  const Event &ev = index.profile().events[v.value->event];
  a.result.event = std::string(v.value->event_name());
  a.result.unit = std::string(index.profile().str(ev.unit));
  a.result.total = both(v.count->total, v.value->total);
  for (const FunctionRow &row : hot.rows)
    a.result.methods.push_back({std::string(row.name), both(counts.self[row.key], row.self),
                                both(counts.total[row.key], row.total)});
  return a;
}

FileAnnotationsResult annotations_result(const FileHeat &heat, const TextDocument *doc,
                                         bool by_value) {
  FileAnnotationsResult r;
  r.event = heat.event;
  r.unit = heat.unit;
  r.total = heat.view_total;
  if (!heat.file_keys.empty()) r.file = heat.file_keys[0];
  // Lines of the profile, and with a baseline also the lines only the baseline has.
  std::map<int32_t, std::pair<const HeatLine *, const HeatLine *>> rows;
  for (const HeatLine &l : heat.lines) rows[l.line].first = &l;
  if (heat.baseline)
    for (const HeatLine &l : heat.baseline->lines) rows[l.line].second = &l;
  auto share = [by_value](Weight w, Weight whole) {
    int64_t part = by_value ? w.value : w.count, all = by_value ? whole.value : whole.count;
    return all == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(all);
  };
  for (const auto &[line, pair] : rows) {
    int32_t cur = doc ? doc->current_line(line - 1) : line - 1;
    if (cur < 0) continue;
    LineAnnotation a;
    a.line = cur + 1;
    a.profiled_line = line;
    a.stale = doc && doc->origin(cur).stale;
    if (const HeatLine *l = pair.first) {
      a.self = l->self;
      a.total = l->total;
      a.heat = heat.max_self > 0 ? std::min(1.0, static_cast<double>(l->self.value) /
                                                     static_cast<double>(heat.max_self))
                                 : 0.0;
    }
    if (heat.baseline) {
      a.has_baseline = true;
      if (pair.second) a.baseline_self = pair.second->self, a.baseline_total = pair.second->total;
      a.delta = share(a.self, heat.view_total) - share(a.baseline_self, heat.baseline->view_total);
    }
    r.lines.push_back(a);
  }
  std::sort(r.lines.begin(), r.lines.end(),
            [](const LineAnnotation &a, const LineAnnotation &b) { return a.line < b.line; });
  for (const HeatFunction &f : heat.functions) {
    int32_t cur = f.first_line > 0 && doc ? doc->current_line(f.first_line - 1) + 1 : f.first_line;
    r.functions.push_back({f.name, cur, f.self, f.total});
  }
  return r;
}

} // namespace hotlines
