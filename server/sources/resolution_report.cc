// The resolution report (see resolution_report.h): one pass over the view's stack tree for
// the attributed weights, one for the failing prefixes' weights. Pure; any thread.
#include "server/sources/resolution_report.h"

#include "server/engine/function_keys.h"
#include "server/engine/query_hot.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace hotlines {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

std::string drop_last(std::string_view path, size_t n) {
  size_t total = path_components(path).size();
  return leading_path(path, total > n ? total - n : 0);
}

// The longest common folder prefix of paths (component-wise).
std::string common_dir(const std::vector<std::string_view> &paths) {
  if (paths.empty()) return {};
  std::vector<std::string_view> common = path_components(path_dirname(paths[0]));
  for (std::string_view p : paths) {
    std::vector<std::string_view> c = path_components(path_dirname(p));
    size_t n = 0;
    while (n < common.size() && n < c.size() && common[n] == c[n]) n++;
    common.resize(n);
  }
  std::string s(!paths[0].empty() && paths[0][0] == '/' ? 1 : 0, '/');
  for (size_t i = 0; i < common.size(); i++) {
    if (i) s += '/';
    s += common[i];
  }
  return s;
}

std::string pct_text(double pct) {
  char buf[32];
  snprintf(buf, sizeof buf, "%.0f%%", pct);
  return buf;
}

struct Failing {
  std::string recorded;
  CleanPath clean;
  std::string from, to; // weak match (basename or short suffix): a remap candidate
  uint32_t group = kNone;
};

// The file `remap` gives for a failing path, when it is a workspace file.
bool remap_resolves(const WorkspaceIndex &ws, const Failing &f, const PathRemap &remap) {
  std::string out;
  return apply_remap(f.clean, remap, &out) && ws.find(out);
}

// Each sample's weight on its leaf-most frame that is not external: per function (returned),
// or added to *external when the sample has no such frame.
std::vector<int64_t> attributed_weights(const ProfileResolution &res, const ViewWeights &v,
                                        int64_t *external) {
  const Profile &p = res.profile();
  const StackTree &tree = *v.tree;
  SparseWeights::Scan self(v.self());
  std::vector<uint32_t> attr(tree.size());
  std::vector<int64_t> fn_attr(p.functions.size(), 0);
  for (uint32_t n = 0; n < tree.size(); n++) {
    FunctionId fn = p.frames[tree.frame(n)].function;
    uint32_t parent = tree.parent(n);
    uint32_t a = res.of(fn).status != ResolutionStatus::external ? fn
                 : parent == kNoNode                             ? kNone
                                                                 : attr[parent];
    attr[n] = a;
    const int64_t w = self(n);
    if (w == 0) continue;
    if (a == kNone)
      *external = saturating_add(*external, w);
    else
      fn_attr[a] = saturating_add(fn_attr[a], w);
  }
  return fn_attr;
}

// Rules used, by function count.
std::vector<RuleCount> rule_counts(const ProfileResolution &res) {
  const Profile &p = res.profile();
  std::vector<RuleCount> rules;
  std::map<std::pair<std::string_view, ResolutionStatus>, size_t> counts;
  for (size_t f = 0; f < p.functions.size(); f++) {
    const Resolution &r = res.of(static_cast<FunctionId>(f));
    counts[{r.rule, r.status}]++;
  }
  for (const auto &[k, n] : counts)
    rules.push_back({std::string(k.first), std::string(status_name(k.second)), n});
  std::stable_sort(rules.begin(), rules.end(), [](const RuleCount &a, const RuleCount &b) {
    return a.functions > b.functions;
  });
  return rules;
}

// Unresolved frames by function key (display name), with weight in this view; the `top`
// heaviest (all when 0).
std::vector<UnresolvedFrame> top_unresolved(const ProfileResolution &res, const ViewWeights &v,
                                            const std::vector<int64_t> &fn_attr, size_t top) {
  const Profile &p = res.profile();
  const FunctionKeys &keys = v.functions();
  KeySums sums = function_sums(v);
  std::map<uint32_t, UnresolvedFrame> rows;
  for (size_t f = 0; f < p.functions.size(); f++) {
    const Resolution &r = res.of(static_cast<FunctionId>(f));
    if (r.status != ResolutionStatus::unresolved) continue;
    uint32_t key = keys.key_of_function(static_cast<FunctionId>(f));
    if (key == kNoKey || (sums.total[key] == 0 && fn_attr[f] == 0)) continue;
    auto [it, added] = rows.try_emplace(key);
    UnresolvedFrame &row = it->second;
    if (added) {
      row.name = keys.label(key);
      row.recorded = std::string(r.recorded);
      row.rule = std::string(r.rule);
      row.reason = std::string(r.reason);
      row.self = sums.self[key];
      row.total = sums.total[key];
    }
    row.attributed = saturating_add(row.attributed, fn_attr[f]);
  }
  std::vector<UnresolvedFrame> out;
  for (auto &[key, row] : rows) out.push_back(std::move(row));
  std::sort(out.begin(), out.end(), [](const UnresolvedFrame &a, const UnresolvedFrame &b) {
    if (a.total != b.total) return a.total > b.total;
    if (a.attributed != b.attributed) return a.attributed > b.attributed;
    return a.name < b.name;
  });
  if (top && out.size() > top) out.resize(top);
  return out;
}

// The recorded paths that matched nothing, each once; *failing_of_fn gets each function's
// index among them (kNone for none).
std::vector<Failing> failing_paths(const ProfileResolution &res,
                                   std::vector<uint32_t> *failing_of_fn) {
  const Profile &p = res.profile();
  std::vector<Failing> failing;
  failing_of_fn->assign(p.functions.size(), kNone);
  std::map<std::string_view, uint32_t> ids;
  for (size_t f = 0; f < p.functions.size(); f++) {
    const Resolution &r = res.of(static_cast<FunctionId>(f));
    if (r.rule != kRuleUnmatchedPath) continue;
    auto [it, added] = ids.try_emplace(r.recorded, static_cast<uint32_t>(failing.size()));
    if (added) {
      Failing fl;
      fl.recorded = std::string(r.recorded);
      fl.clean = clean_recorded_path(r.recorded);
      failing.push_back(std::move(fl));
    }
    (*failing_of_fn)[f] = it->second;
  }
  return failing;
}

// The remap candidate {from, to} of each failing path with a weak match in the workspace.
void add_weak_matches(const WorkspaceIndex &ws, std::vector<Failing> *failing) {
  for (Failing &fl : *failing) {
    std::vector<std::string_view> comps = path_components(fl.clean.path);
    size_t matched = 0;
    std::vector<WorkspaceFileId> ids = ws.longest_suffix(comps, &matched);
    if (matched == 0 || matched >= comps.size()) continue;
    std::string best;
    for (WorkspaceFileId id : ids)
      if (best.empty() || ws.path(id) < best) best = ws.path(id);
    fl.from = drop_last(fl.clean.path, matched);
    fl.to = drop_last(best, matched);
  }
}

// Groups of the failing paths the remap candidates resolve. Greedy: the remap resolving most
// still-uncovered files first (among the 64 most frequent candidates, so the cost stays
// bounded).
void group_by_remap(const WorkspaceIndex &ws, std::vector<Failing> *failing,
                    std::vector<FailingPrefix> *groups) {
  std::map<std::pair<std::string, std::string>, size_t> pairs;
  for (const Failing &fl : *failing)
    if (!fl.from.empty()) pairs[{fl.from, fl.to}]++;
  std::vector<std::pair<std::string, std::string>> left;
  for (const auto &[pair, n] : pairs) left.push_back(pair);
  std::stable_sort(left.begin(), left.end(),
                   [&](const auto &a, const auto &b) { return pairs[a] > pairs[b]; });
  if (left.size() > 64) left.resize(64);
  while (!left.empty()) {
    size_t best = 0, best_n = 0;
    for (size_t i = 0; i < left.size(); i++) {
      size_t n = 0;
      for (const Failing &fl : *failing)
        if (fl.group == kNone && remap_resolves(ws, fl, {left[i].first, left[i].second})) n++;
      if (n > best_n) best = i, best_n = n;
    }
    if (best_n == 0) break;
    FailingPrefix g;
    g.prefix = left[best].first;
    g.has_remap = true;
    g.remap = {left[best].first, left[best].second};
    for (Failing &fl : *failing)
      if (fl.group == kNone && remap_resolves(ws, fl, g.remap)) {
        fl.group = static_cast<uint32_t>(groups->size());
        g.files++;
        g.would_resolve++;
        if (g.examples.size() < 3) g.examples.push_back(fl.recorded);
      }
    groups->push_back(std::move(g));
    left.erase(left.begin() + static_cast<ptrdiff_t>(best));
  }
}

// The failing paths no remap resolves: clustered by their first two folders; the remap is a
// template (to the first root) that the user completes.
void group_by_folder(const WorkspaceIndex &ws, std::vector<Failing> *failing,
                     std::vector<FailingPrefix> *groups) {
  std::map<std::string, std::vector<uint32_t>> clusters;
  for (uint32_t i = 0; i < failing->size(); i++)
    if ((*failing)[i].group == kNone)
      clusters[leading_path(path_dirname((*failing)[i].clean.path), 2)].push_back(i);
  for (auto &[lead, members] : clusters) {
    std::vector<std::string_view> paths;
    for (uint32_t i : members) paths.push_back((*failing)[i].clean.path);
    FailingPrefix g;
    g.prefix = common_dir(paths);
    if (g.prefix.empty()) g.prefix = lead;
    if (!ws.roots().empty() && !g.prefix.empty()) {
      g.has_remap = true;
      g.remap = {g.prefix, ws.roots()[0]};
    }
    for (uint32_t i : members) {
      Failing &fl = (*failing)[i];
      fl.group = static_cast<uint32_t>(groups->size());
      g.files++;
      if (g.has_remap && remap_resolves(ws, fl, g.remap)) g.would_resolve++;
      if (g.examples.size() < 3) g.examples.push_back(fl.recorded);
    }
    groups->push_back(std::move(g));
  }
}

// Weight per group: samples with any frame of the group's files (bit sets, for the 64
// groups with the most files).
void weigh_groups(const Profile &p, const ViewWeights &v, const std::vector<Failing> &failing,
                  const std::vector<uint32_t> &failing_of_fn, std::vector<FailingPrefix> *groups) {
  const StackTree &tree = *v.tree;
  SparseWeights::Scan self(v.self());
  std::vector<uint32_t> order(groups->size());
  for (uint32_t i = 0; i < order.size(); i++) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return (*groups)[a].files > (*groups)[b].files; });
  std::vector<int> bit(groups->size(), -1);
  for (size_t i = 0; i < order.size() && i < 64; i++) bit[order[i]] = static_cast<int>(i);
  std::vector<uint64_t> mask(tree.size(), 0);
  std::vector<int64_t> weight(64, 0);
  for (uint32_t n = 0; n < tree.size(); n++) {
    FunctionId fn = p.frames[tree.frame(n)].function;
    uint32_t parent = tree.parent(n);
    uint64_t m = parent == kNoNode ? 0 : mask[parent];
    if (uint32_t fi = failing_of_fn[fn]; fi != kNone && bit[failing[fi].group] >= 0)
      m |= uint64_t{1} << bit[failing[fi].group];
    mask[n] = m;
    const int64_t w = m == 0 ? 0 : self(n);
    if (w == 0) continue;
    for (uint64_t b = m; b; b &= b - 1) {
      int i = __builtin_ctzll(b);
      weight[i] = saturating_add(weight[i], w);
    }
  }
  for (size_t g = 0; g < groups->size(); g++)
    if (bit[g] >= 0) (*groups)[g].weight = weight[bit[g]];
}

// Failing path prefixes: recorded paths that matched nothing, grouped by the remap that
// would resolve them (from a weak match: a shorter suffix than path-suffix accepts), else
// by their common folder; the `top` heaviest (all when 0).
std::vector<FailingPrefix> failing_prefixes(const ProfileResolution &res, const ViewWeights &v,
                                            size_t top) {
  const WorkspaceIndex &ws = res.workspace();
  std::vector<uint32_t> failing_of_fn;
  std::vector<Failing> failing = failing_paths(res, &failing_of_fn);
  add_weak_matches(ws, &failing);
  std::vector<FailingPrefix> groups;
  group_by_remap(ws, &failing, &groups);
  group_by_folder(ws, &failing, &groups);
  if (groups.empty()) return groups;
  weigh_groups(res.profile(), v, failing, failing_of_fn, &groups);
  std::stable_sort(groups.begin(), groups.end(),
                   [](const FailingPrefix &a, const FailingPrefix &b) {
                     if (a.weight != b.weight) return a.weight > b.weight;
                     return a.prefix < b.prefix;
                   });
  if (top && groups.size() > top) groups.resize(top);
  return groups;
}

// The warning: unresolved weight large and larger than resolved ("" otherwise).
std::string report_warning(const ResolutionReport &rep) {
  if (!(rep.unresolved_pct >= 20 && rep.unresolved > rep.resolved)) return {};
  std::string w = pct_text(rep.unresolved_pct) + " of the " + rep.event +
                  " weight is in frames that do not resolve to workspace files";
  if (!rep.failing_prefixes.empty()) {
    // The heaviest prefix with a verified remap, else the heaviest.
    const FailingPrefix *best = &rep.failing_prefixes[0];
    for (const FailingPrefix &g : rep.failing_prefixes)
      if (g.has_remap && g.would_resolve > 0) {
        best = &g;
        break;
      }
    const FailingPrefix &g = *best;
    if (g.has_remap && g.would_resolve > 0)
      w += ": remap " + g.remap.from + " to " + g.remap.to + " (resolves " +
           std::to_string(g.would_resolve) + " files)";
    else if (g.prefix.empty())
      w += ": files like " + g.examples[0] +
           " are not in the workspace; add the folder holding them as a source root";
    else
      w += ": files under " + g.prefix +
           " are not in the workspace; add their checkout as a source root or remap " + g.prefix +
           " to it";
  } else if (!rep.top_unresolved.empty()) {
    w += ": e.g. " + rep.top_unresolved[0].name + " (" + rep.top_unresolved[0].reason +
         "); add the folder holding its sources as a source root";
  }
  return w;
}

} // namespace

ResolutionReport build_resolution_report(const ProfileResolution &res, const ViewWeights &v,
                                         size_t top) {
  ResolutionReport rep;
  const Profile &p = res.profile();
  const WorkspaceIndex &ws = res.workspace();
  rep.event = std::string(v.event_name());
  rep.unit = std::string(v.unit());
  rep.measure = v.measure == Measure::value ? "value" : "count";
  rep.total = v.total;
  rep.roots = ws.roots();
  rep.workspace_files = ws.size();
  rep.functions_resolved = res.count(ResolutionStatus::resolved);
  rep.functions_unresolved = res.count(ResolutionStatus::unresolved);
  rep.functions_external = res.count(ResolutionStatus::external);
  rep.ties = res.ties();

  // Weight attributed to the leaf-most non-external frame of each sample.
  rep.external = v.empty;
  std::vector<int64_t> fn_attr = attributed_weights(res, v, &rep.external);
  for (size_t f = 0; f < p.functions.size(); f++) {
    if (fn_attr[f] == 0) continue;
    if (res.of(static_cast<FunctionId>(f)).status == ResolutionStatus::resolved)
      rep.resolved = saturating_add(rep.resolved, fn_attr[f]);
    else
      rep.unresolved = saturating_add(rep.unresolved, fn_attr[f]);
  }
  rep.resolved_pct = percent(rep.resolved, v.total);
  rep.unresolved_pct = percent(rep.unresolved, v.total);
  rep.external_pct = percent(rep.external, v.total);

  rep.rules = rule_counts(res);
  rep.top_unresolved = top_unresolved(res, v, fn_attr, top);
  rep.failing_prefixes = failing_prefixes(res, v, top);
  rep.warning = report_warning(rep);
  return rep;
}

std::string resolution_warning(const ProfileIndex &index, const ProfileResolution &resolution) {
  const Profile &p = index.profile();
  if (p.events.empty()) return {};
  auto view = index.unfiltered(p.metadata.default_event, Measure::value);
  if (!view) return {};
  return build_resolution_report(resolution, *view, 5).warning;
}

} // namespace hotlines
