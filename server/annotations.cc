// Hot methods and file annotations over the query engine (see annotations.h).
#include "server/annotations.h"

#include "server/line_keys.h"
#include "server/query_hot.h"
#include "server/query_lines.h"
#include "server/view_weights.h"

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

size_t common_trailing_components(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (!a.empty() && !b.empty()) {
    size_t sa = a.find_last_of("/\\"), sb = b.find_last_of("/\\");
    std::string_view ca = sa == std::string_view::npos ? a : a.substr(sa + 1);
    std::string_view cb = sb == std::string_view::npos ? b : b.substr(sb + 1);
    if (ca != cb || ca.empty()) break;
    n++;
    a = sa == std::string_view::npos ? std::string_view() : a.substr(0, sa);
    b = sb == std::string_view::npos ? std::string_view() : b.substr(0, sb);
  }
  return n;
}

Answer<HotMethodsResult> hot_methods(const ProfileIndex &index, const HotMethodsParams &p,
                                     const std::atomic<bool> *cancel) {
  Answer<HotMethodsResult> a;
  Views v = views(index, p.event, cancel);
  if (!v.error.empty()) return a.error = v.error, a;
  HotOptions options;
  options.top = static_cast<size_t>(p.limit);
  options.method = p.query;
  HotFunctions hot = hot_functions(*v.value, options);
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

Answer<FileAnnotationsResult> file_annotations(const ProfileIndex &index,
                                               const FileAnnotationsParams &p,
                                               const std::string &path,
                                               const std::atomic<bool> *cancel) {
  Answer<FileAnnotationsResult> a;
  Views v = views(index, p.event, cancel);
  if (!v.error.empty()) return a.error = v.error, a;
  FileAnnotationsResult &r = a.result;
  const Profile &prof = index.profile();
  r.uri = p.uri;
  r.event = std::string(v.value->event_name());
  r.unit = std::string(prof.str(prof.events[v.value->event].unit));
  r.total = both(v.count->total, v.value->total);
  // The recorded file sharing the most trailing components with the path: the whole key for
  // JVM keys (`org/acme/shop/Pricing.java`), at least the basename and its folder otherwise.
  const LineKeys &keys = index.lines();
  size_t best = 0;
  for (uint32_t f = 0; f < keys.file_count(); f++) {
    const std::string &key = keys.file_name(f);
    size_t n = common_trailing_components(path, key);
    size_t key_parts =
        std::count_if(key.begin(), key.end(), [](char c) { return c == '/' || c == '\\'; }) +
        (key.empty() || key[0] == '/' ? 0 : 1);
    if (n == 0 || (n < key_parts && n < 2)) continue;
    if (n > best) best = n, r.file = key;
  }
  if (r.file.empty()) return a;
  FileLines value_lines = file_lines(*v.value, r.file), count_lines = file_lines(*v.count, r.file);
  std::map<int32_t, FileLine> counts;
  for (const FileLine &l : count_lines.lines) counts[l.line] = l;
  HotOptions top1;
  top1.top = 1;
  HotLines hottest = hot_lines(*v.value, top1);
  int64_t max_self = hottest.rows.empty() ? 0 : hottest.rows[0].self;
  for (const FileLine &l : value_lines.lines) {
    const FileLine &c = counts[l.line];
    double heat = max_self > 0 ? std::min(1.0, static_cast<double>(l.self) / max_self) : 0.0;
    r.lines.push_back({l.line, both(c.self, l.self), both(c.total, l.total), heat});
  }
  // Functions of this file: hot function rows whose recorded file is it, at their first line.
  HotOptions all;
  all.sort = SortBy::total;
  HotFunctions fns = hot_functions(*v.value, all);
  KeySums fcounts = function_sums(*v.count);
  // The first profiled line of each function of this file, in one pass over the line rows.
  const HotLines lines = hot_lines(*v.value, HotOptions{}, true);
  std::map<std::string_view, int32_t> first_line;
  for (const LineRow &lr : lines.rows) {
    if (lr.file != r.file) continue;
    auto [it, added] = first_line.try_emplace(lr.function, lr.line);
    if (!added) it->second = std::min(it->second, lr.line);
  }
  for (const FunctionRow &row : fns.rows) {
    if (row.file != r.file) continue;
    auto it = first_line.find(row.name);
    const int32_t first = it == first_line.end() ? 0 : it->second;
    r.functions.push_back({std::string(row.name), first, both(fcounts.self[row.key], row.self),
                           both(fcounts.total[row.key], row.total)});
  }
  return a;
}

} // namespace hotlines
