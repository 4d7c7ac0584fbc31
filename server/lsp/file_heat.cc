// FileHeat and FileFunctions (see file_heat.h).
#include "server/lsp/file_heat.h"

#include "server/engine/function_keys.h"
#include "server/engine/line_keys.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"

#include <algorithm>
#include <map>

namespace hotlines {

FileFunctions::FileFunctions(const ProfileIndex &index) {
  const Profile &p = index.profile();
  const LineKeys &lk = index.lines();
  const FunctionKeys &fk = index.functions(FunctionGrouping::name);
  by_file_.resize(lk.file_count());
  // (file, function key) -> entry index
  std::vector<std::map<uint32_t, size_t>> slot(lk.file_count());
  auto entry = [&](uint32_t file, uint32_t key) -> Entry & {
    auto [it, added] = slot[file].try_emplace(key, by_file_[file].size());
    if (added) by_file_[file].push_back({key, 0, 0});
    return by_file_[file][it->second];
  };
  for (FunctionId f = 0; f < p.functions.size(); f++) {
    uint32_t file = lk.file_of_function(f);
    if (file != kNoKey) entry(file, fk.key_of_function(f));
  }
  for (const Frame &fr : p.frames) {
    uint32_t file = lk.file_of_function(fr.function);
    if (file == kNoKey || fr.line < 1) continue;
    Entry &e = entry(file, fk.key_of_function(fr.function));
    e.first_line = e.first_line == 0 ? fr.line : std::min(e.first_line, fr.line);
    e.last_line = std::max(e.last_line, fr.line);
  }
  for (auto &v : by_file_)
    std::sort(v.begin(), v.end(), [](const Entry &a, const Entry &b) {
      return a.first_line != b.first_line ? a.first_line < b.first_line
                                          : a.function_key < b.function_key;
    });
}

std::span<const FileFunctions::Entry> FileFunctions::of_file(uint32_t file_key) const {
  if (file_key >= by_file_.size()) return {};
  return by_file_[file_key];
}

const HeatLine *FileHeat::find(int32_t line) const {
  auto it = std::lower_bound(lines.begin(), lines.end(), line,
                             [](const HeatLine &l, int32_t n) { return l.line < n; });
  return it != lines.end() && it->line == line ? &*it : nullptr;
}

namespace {

int64_t max_line_self(const ViewWeights &v) {
  if (v.tables) {
    int64_t m = 0;
    for (int64_t s : v.table_lines()->self) m = std::max(m, s);
    return m;
  }
  HotOptions top1;
  top1.top = 1;
  HotLines h = hot_lines(v, top1);
  return h.rows.empty() ? 0 : h.rows[0].self;
}

} // namespace

FileHeat compute_file_heat(const ViewWeights &value, const ViewWeights &count,
                           const FileFunctions &functions, std::span<const std::string> file_keys) {
  FileHeat h;
  const Profile &p = value.profile();
  h.event = std::string(value.event_name());
  h.unit = std::string(p.str(p.events[value.event].unit));
  h.self_only = p.metadata.self_only;
  h.view_total = {count.total, value.total};
  h.max_self = max_line_self(value);
  std::map<int32_t, HeatLine> lines;
  for (const std::string &key : file_keys) {
    FileLines vl = file_lines(value, key), cl = file_lines(count, key);
    if (!vl.found) continue;
    h.file_keys.push_back(key);
    for (const FileLine &l : vl.lines) {
      HeatLine &hl = lines[l.line];
      hl.line = l.line;
      hl.self.value += l.self;
      hl.total.value += l.total;
    }
    for (const FileLine &l : cl.lines) {
      HeatLine &hl = lines[l.line];
      hl.line = l.line;
      hl.self.count += l.self;
      hl.total.count += l.total;
    }
  }
  for (auto &[n, l] : lines) h.lines.push_back(l);

  KeySums vcomputed, ccomputed;
  const KeySums &vs = value.tables ? value.tables->functions : (vcomputed = function_sums(value));
  const KeySums &cs = count.tables ? count.tables->functions : (ccomputed = function_sums(count));
  const FunctionKeys &fk = value.functions();
  const LineKeys &lk = value.lines();
  for (const std::string &key : h.file_keys) {
    for (const FileFunctions::Entry &e : functions.of_file(lk.find_file(key))) {
      if (vs.total[e.function_key] == 0 && cs.total[e.function_key] == 0) continue;
      h.functions.push_back({e.function_key,
                             fk.label(e.function_key),
                             e.first_line,
                             e.last_line,
                             {cs.self[e.function_key], vs.self[e.function_key]},
                             {cs.total[e.function_key], vs.total[e.function_key]}});
    }
  }
  std::sort(h.functions.begin(), h.functions.end(),
            [](const HeatFunction &a, const HeatFunction &b) {
              return a.first_line != b.first_line ? a.first_line < b.first_line : a.name < b.name;
            });
  return h;
}

} // namespace hotlines
