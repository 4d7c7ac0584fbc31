// Line tables, recorded files and hot lines (see query_lines.h).
// Threading: Pure functions over immutable views; any thread.
#include "server/engine/query_lines.h"

#include "server/engine/function_keys.h"
#include "server/engine/function_line_keys.h"
#include "server/engine/line_keys.h"
#include "server/engine/profile_index.h"

#include <algorithm>

namespace hotlines {

namespace {

// A filtered view's sums (an unfiltered one keeps its own: table_lines, table_files).
KeySums line_sums(const ViewWeights &v) {
  return sum_keys(*v.tree, v.self(), v.cum(), v.lines().lines(), v.first_line());
}

KeySums file_sums(const ViewWeights &v) {
  return sum_keys(*v.tree, v.self(), v.cum(), v.lines().files(), v.first_file());
}

} // namespace

FileLines file_lines(const ViewWeights &v, std::string_view file) {
  FileLines out;
  out.view_total = v.total;
  const LineKeys &lk = v.lines();
  uint32_t f = lk.find_file(file);
  if (f == kNoKey) return out;
  out.found = true;
  out.file = lk.file_name(f);
  const KeySums *lines = v.table_lines();
  const KeySums *files = v.table_files();
  KeySums computed_lines, computed_files;
  if (!lines) {
    computed_lines = line_sums(v);
    computed_files = file_sums(v);
    lines = &computed_lines;
    files = &computed_files;
  }
  out.self = files->self[f];
  out.total = files->total[f];
  for (uint32_t k : lk.lines_of_file(f)) {
    if (lines->self[k] == 0 && lines->total[k] == 0) continue;
    out.lines.push_back(FileLine{lk.line_of(k), lines->self[k], lines->total[k]});
  }
  return out;
}

std::vector<RecordedFile> recorded_files(const ViewWeights &v) {
  const LineKeys &lk = v.lines();
  KeySums computed;
  const KeySums &sums = v.tables ? *v.table_files() : (computed = file_sums(v));
  std::vector<RecordedFile> out;
  for (uint32_t f = 0; f < lk.file_count(); f++)
    if (sums.total[f] != 0)
      out.push_back(RecordedFile{f, lk.file_name(f), sums.self[f], sums.total[f]});
  std::sort(out.begin(), out.end(), [](const RecordedFile &a, const RecordedFile &b) {
    if (a.total != b.total) return a.total > b.total;
    if (a.self != b.self) return a.self > b.self;
    return a.file < b.file;
  });
  return out;
}

HotLines hot_lines(const ViewWeights &v, const HotOptions &o, bool by_line) {
  HotLines out;
  out.view_total = v.total;
  const FunctionKeys &fk = v.functions();
  const LineKeys &lk = v.lines();
  std::vector<uint8_t> matches;
  if (!o.method.empty()) matches = fk.match(o.method);

  // Keys (function key, line key) for frames with a line, and their first-on-path flags: the
  // index's, built once. Restricting rows to matching functions keeps the other keys' ids in
  // the same order, and a key's flags and sums do not depend on the other keys.
  const FunctionLineKeys &keys = v.index->function_lines(v.view.grouping);
  const std::vector<uint32_t> &key_function = keys.function, &key_line = keys.line;
  const std::vector<FrameId> &key_frame = keys.frame;
  KeySums sums = sum_keys(*v.tree, v.self(), v.cum(), keys.map, v.first_function_line());

  const std::vector<int64_t> &primary = o.sort == SortBy::self ? sums.self : sums.total;
  const std::vector<int64_t> &secondary = o.sort == SortBy::self ? sums.total : sums.self;
  std::vector<uint32_t> order;
  for (uint32_t k = 0; k < keys.map.count; k++)
    if ((sums.self[k] != 0 || sums.total[k] != 0) && (matches.empty() || matches[key_function[k]]))
      order.push_back(k);
  out.matched = order.size();
  auto file_of = [&](uint32_t k) -> const std::string & {
    return lk.file_name(lk.file_of_line(key_line[k]));
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (by_line) {
      if (key_function[a] != key_function[b])
        return fk.label(key_function[a]) < fk.label(key_function[b]);
      if (file_of(a) != file_of(b)) return file_of(a) < file_of(b);
      if (lk.line_of(key_line[a]) != lk.line_of(key_line[b]))
        return lk.line_of(key_line[a]) < lk.line_of(key_line[b]);
      return fk.label(key_function[a]) < fk.label(key_function[b]);
    }
    if (primary[a] != primary[b]) return primary[a] > primary[b];
    if (secondary[a] != secondary[b]) return secondary[a] > secondary[b];
    if (fk.label(key_function[a]) != fk.label(key_function[b]))
      return fk.label(key_function[a]) < fk.label(key_function[b]);
    return lk.line_of(key_line[a]) < lk.line_of(key_line[b]);
  });
  for (uint32_t k : order) {
    if (o.min_pct > 0 && percent(primary[k], v.total) < o.min_pct) {
      if (by_line) continue;
      break;
    }
    if (o.top && out.rows.size() >= o.top) break;
    LineRow r;
    r.function_key = key_function[k];
    r.function = fk.label(key_function[k]);
    r.file = file_of(k);
    r.line = lk.line_of(key_line[k]);
    r.frame = key_frame[k];
    r.self = sums.self[k];
    r.total = sums.total[k];
    out.rows.push_back(r);
  }
  return out;
}

} // namespace hotlines
