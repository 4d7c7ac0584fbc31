// Hot functions and name suggestions (see query_hot.h).
// Threading: Pure functions over immutable views; any thread.
#include "server/engine/query_hot.h"

#include "server/engine/function_keys.h"
#include "server/engine/line_keys.h"
#include "server/engine/profile_index.h"

#include <algorithm>
#include <cctype>

namespace hotlines {

KeySums function_sums(const ViewWeights &v) {
  if (v.tables && v.view.grouping == FunctionGrouping::name) return v.tables->functions;
  KeySums s = sum_keys(*v.tree, v.self(), v.cum(), v.functions().map(), v.first_function());
  return s;
}

HotFunctions hot_functions(const ViewWeights &v, const HotOptions &o,
                           const std::atomic<bool> *cancel) {
  HotFunctions out;
  out.view_total = v.total;
  const FunctionKeys &keys = v.functions();
  const bool precomputed = v.tables && v.view.grouping == FunctionGrouping::name;
  KeySums computed;
  if (!precomputed) computed = function_sums(v);
  const KeySums &sums = precomputed ? v.tables->functions : computed;
  const std::vector<int64_t> &primary = o.sort == SortBy::self ? sums.self : sums.total;
  const std::vector<int64_t> &secondary = o.sort == SortBy::self ? sums.total : sums.self;

  std::vector<uint8_t> matches;
  if (!o.method.empty()) matches = keys.match(o.method, cancel);
  auto wanted = [&](uint32_t k) {
    return (sums.self[k] != 0 || sums.total[k] != 0) && (matches.empty() || matches[k]);
  };
  auto before = [&](uint32_t a, uint32_t b) {
    if (primary[a] != primary[b]) return primary[a] > primary[b];
    if (secondary[a] != secondary[b]) return secondary[a] > secondary[b];
    return keys.label(a) < keys.label(b);
  };

  std::vector<uint32_t> order;
  if (precomputed) {
    const std::vector<uint32_t> &sorted =
        o.sort == SortBy::self ? v.tables->by_self : v.tables->by_total;
    if (matches.empty()) {
      out.matched = sorted.size();
      size_t n = o.top ? std::min(o.top, sorted.size()) : sorted.size();
      order.assign(sorted.begin(), sorted.begin() + n);
    } else {
      for (uint32_t k : sorted)
        if (matches[k]) order.push_back(k);
      out.matched = order.size();
    }
  } else {
    for (uint32_t k = 0; k < keys.size(); k++)
      if (wanted(k)) order.push_back(k);
    out.matched = order.size();
    if (o.top && o.top < order.size()) {
      std::partial_sort(order.begin(), order.begin() + o.top, order.end(), before);
      order.resize(o.top);
    } else {
      std::sort(order.begin(), order.end(), before);
    }
  }
  if (o.top && order.size() > o.top) order.resize(o.top);

  const LineKeys &lines = v.lines();
  out.rows.reserve(order.size());
  for (uint32_t k : order) {
    if (o.min_pct > 0 && percent(primary[k], v.total) < o.min_pct) break;
    FunctionRow r;
    r.key = k;
    r.name = keys.label(k);
    r.function = keys.function(k);
    uint32_t file = lines.file_of_function(r.function);
    r.file = file == kNoKey ? std::string_view() : std::string_view(lines.file_name(file));
    r.self = sums.self[k];
    r.total = sums.total[k];
    out.rows.push_back(r);
  }
  return out;
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); j++) prev[j] = j;
  for (size_t i = 1; i <= a.size(); i++) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); j++)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

} // namespace

std::vector<std::string> closest_function_names(const ViewWeights &v, std::string_view pattern,
                                                size_t n) {
  const FunctionKeys &keys = v.functions();
  KeySums sums = function_sums(v);
  const std::string pat = lower(pattern);
  struct Cand {
    size_t score;
    int64_t weight;
    uint32_t key;
  };
  std::vector<Cand> cands;
  for (uint32_t k = 0; k < keys.size(); k++) {
    if (sums.total[k] == 0) continue;
    std::string label = lower(keys.label(k));
    size_t score;
    if (label.find(pat) != std::string::npos) {
      score = 0;
    } else {
      // The distance to the whole label and to each suffix that starts after a '.' or '/'.
      score = edit_distance(pat, label);
      for (size_t i = 0; i < label.size(); i++)
        if (label[i] == '.' || label[i] == '/' || label[i] == ':')
          score = std::min(score, edit_distance(pat, std::string_view(label).substr(i + 1)));
    }
    cands.push_back({score, sums.total[k], k});
  }
  std::sort(cands.begin(), cands.end(), [&](const Cand &a, const Cand &b) {
    if (a.score != b.score) return a.score < b.score;
    if (a.weight != b.weight) return a.weight > b.weight;
    return keys.label(a.key) < keys.label(b.key);
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < cands.size() && out.size() < n; i++) {
    // Suggestions far from the pattern help nobody.
    if (cands[i].score > std::max<size_t>(3, pat.size() / 2) && !out.empty()) break;
    out.push_back(keys.label(cands[i].key));
  }
  return out;
}

} // namespace hotlines
