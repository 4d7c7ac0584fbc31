// The per-profile resolution table and its inverse (see profile_resolution.h). build() runs
// on one worker thread; the result is immutable.
#include "server/sources/profile_resolution.h"

#include "formats/jvm_names.h"
#include "server/engine/file_keys.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <unordered_set>

namespace hotlines {

namespace {

constexpr std::string_view kRecorded = "recorded", kDeclaration = "declaration";

bool cancelled(const std::atomic<bool> *cancel) {
  return cancel && cancel->load(std::memory_order_relaxed);
}

// Every ancestor folder of a path ("/a/b/c.go" -> "/a/b", "/a", "/").
template <typename F> void for_each_ancestor(std::string_view path, F f) {
  for (std::string_view d = path_dirname(path); !d.empty(); d = path_dirname(d)) {
    f(d);
    if (d == "/") break;
  }
}

size_t component_count(std::string_view path) {
  return path_components(path).size();
}

// The path without its last `n` components.
std::string drop_last(std::string_view path, size_t n) {
  size_t total = component_count(path);
  return leading_path(path, total > n ? total - n : 0);
}

std::string real_path(const std::string &path) {
  char *r = realpath(path.c_str(), nullptr);
  if (!r) return {};
  std::string s(r);
  free(r);
  return s;
}

// The declaration line of a function in a resolved file (0 when not found).
int32_t declaration_line(const Profile &p, const Function &fn, const SourceScan &scan,
                         std::string_view path) {
  if (path.size() > 3 && path.substr(path.size() - 3) == ".go")
    return go_function_line(scan, p.str(fn.name));
  std::string method;
  std::string cls = jvm_internal_class(jvm_class_of(p, fn, &method));
  if (cls.empty()) return 0;
  std::string_view simple = path_basename(cls);
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i <= simple.size()) {
    size_t j = simple.find('$', i);
    if (j == std::string_view::npos) j = simple.size();
    parts.push_back(simple.substr(i, j - i));
    i = j + 1;
  }
  std::span<const std::string_view> nested(parts.begin() + 1, parts.end());
  return jvm_method_line(scan, parts[0], nested, method);
}

// The profile's distinct source keys: which one each function has, how many functions have
// each, and what each resolved to.
struct KeyTable {
  std::vector<SourceKey> keys;
  std::vector<uint32_t> key_of_fn;
  std::vector<size_t> fns_of_key;
  std::vector<SourceMatch> matches; // by key
};

// One SourceKey per function, deduplicated. False when cancelled.
bool collect_keys(const Profile &p, const std::atomic<bool> *cancel, KeyTable *t) {
  t->key_of_fn.resize(p.functions.size());
  std::unordered_map<std::string, uint32_t> ids;
  for (size_t f = 0; f < p.functions.size(); f++) {
    if ((f & 4095) == 0 && cancelled(cancel)) return false;
    SourceKey k = source_key(p, p.functions[f]);
    auto [it, added] = ids.try_emplace(k.id(), static_cast<uint32_t>(t->keys.size()));
    if (added) {
      t->keys.push_back(std::move(k));
      t->fns_of_key.push_back(0);
    }
    t->key_of_fn[f] = it->second;
    t->fns_of_key[it->second]++;
  }
  return true;
}

// Each key resolved once. False when cancelled.
bool resolve_keys(const SourceResolver &resolver, const std::atomic<bool> *cancel, KeyTable *t) {
  t->matches.resize(t->keys.size());
  for (size_t k = 0; k < t->keys.size(); k++) {
    if ((k & 255) == 0 && cancelled(cancel)) return false;
    t->matches[k] = resolver.resolve(t->keys[k]);
  }
  return true;
}

// Prefix mappings learned from unique path-suffix matches: from -> (votes, to), the `to`
// with the most votes for each `from`.
std::map<std::string, std::pair<size_t, std::string>> learn_prefixes(const KeyTable &t) {
  std::map<std::pair<std::string, std::string>, size_t> votes;
  for (size_t k = 0; k < t.keys.size(); k++) {
    const SourceMatch &m = t.matches[k];
    if (m.rule != kRulePathSuffix || m.candidates.size() != 1) continue;
    CleanPath c = clean_recorded_path(t.keys[k].text);
    if (!c.absolute) continue;
    std::string from = drop_last(c.path, m.matched_components);
    std::string to = drop_last(m.candidates[0], m.matched_components);
    if (from != "/") votes[{from, to}]++;
  }
  std::map<std::string, std::pair<size_t, std::string>> learned; // from -> (votes, to)
  for (const auto &[ft, n] : votes) {
    auto &best = learned[ft.first];
    if (n > best.first) best = {n, ft.second};
  }
  return learned;
}

// The learned prefix mappings applied to the paths that matched nothing: `/build/proj/main.c`
// -> `/home/me/proj/main.c` when `/build/proj/src/a.c` resolved to `/home/me/proj/src/a.c`.
void resolve_by_learned_prefixes(const WorkspaceIndex &ix, KeyTable *t) {
  const std::map<std::string, std::pair<size_t, std::string>> learned = learn_prefixes(*t);
  if (learned.empty()) return;
  for (size_t k = 0; k < t->keys.size(); k++) {
    SourceMatch &m = t->matches[k];
    if (m.rule != kRuleUnmatchedPath && m.rule != kRuleExternalPath) continue;
    CleanPath c = clean_recorded_path(t->keys[k].text);
    if (!c.absolute) continue;
    const std::string *best_from = nullptr, *best_to = nullptr;
    for (const auto &[from, vt] : learned)
      if (path_has_prefix(c.path, from) && (!best_from || from.size() > best_from->size()))
        best_from = &from, best_to = &vt.second;
    if (!best_from) continue;
    std::string candidate = join_path(*best_to, c.path.substr(best_from->size()));
    if (!ix.find(candidate)) continue;
    m.status = ResolutionStatus::resolved;
    m.rule = kRuleInferredPrefix;
    m.candidates = {candidate};
    m.reason.clear();
  }
}

// Ties: the candidate sharing the most leading components with files other keys resolved to
// uniquely; then the first by path. Returns the ties, by recorded key.
std::vector<ResolutionTie> break_ties(KeyTable *t) {
  std::vector<ResolutionTie> ties;
  std::unordered_set<std::string> dirs;
  for (const SourceMatch &m : t->matches)
    if (m.status == ResolutionStatus::resolved && m.candidates.size() == 1)
      for_each_ancestor(m.candidates[0], [&](std::string_view d) { dirs.emplace(d); });
  for (size_t k = 0; k < t->keys.size(); k++) {
    SourceMatch &m = t->matches[k];
    if (m.status != ResolutionStatus::resolved || m.candidates.size() < 2) continue;
    size_t best = 0, best_score = 0;
    for (size_t c = 0; c < m.candidates.size(); c++) {
      size_t score = 0;
      for_each_ancestor(m.candidates[c], [&](std::string_view d) {
        if (score == 0 && dirs.count(std::string(d))) score = component_count(d) + 1;
      });
      if (score > best_score) best = c, best_score = score;
    }
    ResolutionTie tie;
    tie.recorded = t->keys[k].text;
    tie.rule = m.rule;
    tie.candidates = m.candidates;
    tie.chosen = m.candidates[best];
    tie.functions = t->fns_of_key[k];
    m.reason = "tie: " + std::to_string(m.candidates.size()) +
               " files match; picked the one sharing the most leading folders with other "
               "resolved frames";
    std::swap(m.candidates[0], m.candidates[best]);
    ties.push_back(std::move(tie));
  }
  std::sort(ties.begin(), ties.end(),
            [](const ResolutionTie &a, const ResolutionTie &b) { return a.recorded < b.recorded; });
  return ties;
}

// A package no root has, next to packages of the same two leading components that do
// resolve, is more likely a missing source root than a library.
void mark_missing_roots(KeyTable *t) {
  std::unordered_set<std::string> owned;
  for (size_t k = 0; k < t->keys.size(); k++)
    if (t->keys[k].kind == SourceKey::Kind::jvm_class &&
        t->matches[k].status == ResolutionStatus::resolved)
      owned.insert(leading_path(t->keys[k].text, 2));
  for (size_t k = 0; k < t->keys.size(); k++) {
    SourceMatch &m = t->matches[k];
    if (!m.package_unknown) continue;
    std::string lead = leading_path(t->keys[k].text, 2);
    if (component_count(t->keys[k].text) < 3 || !owned.count(lead)) continue;
    std::string pkg(path_dirname(t->keys[k].text));
    std::replace(pkg.begin(), pkg.end(), '/', '.');
    std::replace(lead.begin(), lead.end(), '/', '.');
    m.status = ResolutionStatus::unresolved;
    m.rule = kRuleUnmatchedClass;
    m.reason = "no source root has package " + pkg + ", though other " + lead +
               " packages resolve (a missing source root?)";
  }
}

// Each function's resolution from its key's match, with its line: recorded, else its
// declaration's in the resolved file. The strings they view go to *text; *counts gets the
// functions per status. False when cancelled.
bool resolve_functions(const Profile &p, const SourceResolver &resolver, const KeyTable &t,
                       const std::atomic<bool> *cancel, std::deque<std::string> *text,
                       std::vector<Resolution> *by_function, size_t *counts) {
  const size_t nkeys = t.keys.size();
  std::vector<std::string_view> recorded(nkeys), reason(nkeys), path(nkeys);
  for (size_t k = 0; k < nkeys; k++) {
    recorded[k] = text->emplace_back(t.keys[k].text);
    if (!t.matches[k].reason.empty()) reason[k] = text->emplace_back(t.matches[k].reason);
    if (t.matches[k].status == ResolutionStatus::resolved)
      path[k] = text->emplace_back(t.matches[k].candidates[0]);
  }
  by_function->resize(p.functions.size());
  for (size_t f = 0; f < p.functions.size(); f++) {
    if ((f & 4095) == 0 && cancelled(cancel)) return false;
    const uint32_t k = t.key_of_fn[f];
    const SourceMatch &m = t.matches[k];
    const Function &fn = p.functions[f];
    Resolution &res = (*by_function)[f];
    res.status = m.status;
    res.rule = m.rule;
    res.path = path[k];
    res.reason = reason[k];
    res.recorded = recorded[k];
    res.tie = m.status == ResolutionStatus::resolved && m.candidates.size() > 1;
    counts[static_cast<size_t>(m.status)]++;
    if (fn.start_line > 0) {
      res.line = fn.start_line;
      res.line_from = kRecorded;
    } else if (m.status == ResolutionStatus::resolved) {
      std::shared_ptr<const SourceScan> scan = resolver.scan(std::string(res.path));
      if (int32_t l = declaration_line(p, fn, *scan, res.path)) {
        res.line = l;
        res.line_from = kDeclaration;
      }
    }
  }
  return true;
}

// Numbers the files functions resolved to, in path order, into *files. Returns each
// function's file (UINT32_MAX for none).
std::vector<uint32_t> number_files(const std::vector<Resolution> &by_function,
                                   std::vector<std::string> *files) {
  std::map<std::string_view, uint32_t> file_ids;
  for (const Resolution &res : by_function)
    if (!res.path.empty()) file_ids.emplace(res.path, 0);
  uint32_t n = 0;
  for (auto &[file, id] : file_ids) {
    id = n++;
    files->emplace_back(file);
  }
  std::vector<uint32_t> file_of_fn(by_function.size(), UINT32_MAX);
  for (size_t f = 0; f < by_function.size(); f++)
    if (!by_function[f].path.empty()) file_of_fn[f] = file_ids[by_function[f].path];
  return file_of_fn;
}

// Items [0, items) grouped by file, CSR style: the items of file i are
// (*ids)[(*begin)[i] .. (*begin)[i + 1]), increasing. file_of(item) is UINT32_MAX for none.
template <typename Id, typename F>
void group_by_file(size_t items, uint32_t files, F file_of, std::vector<uint32_t> *begin,
                   std::vector<Id> *ids) {
  begin->assign(files + 1, 0);
  for (size_t i = 0; i < items; i++)
    if (uint32_t file = file_of(i); file != UINT32_MAX) (*begin)[file + 1]++;
  for (uint32_t i = 0; i < files; i++) (*begin)[i + 1] += (*begin)[i];
  ids->resize((*begin)[files]);
  std::vector<uint32_t> at(begin->begin(), begin->end() - 1);
  for (size_t i = 0; i < items; i++)
    if (uint32_t file = file_of(i); file != UINT32_MAX) (*ids)[at[file]++] = static_cast<Id>(i);
}

// The recorded file keys of each file's functions, sorted and unique, CSR style: those of
// file i are (*keys)[(*begin)[i] .. (*begin)[i + 1]).
void group_recorded_keys(const Profile &p, const std::vector<uint32_t> &file_of_fn, uint32_t files,
                         std::vector<uint32_t> *begin, std::vector<std::string> *keys) {
  std::vector<std::vector<std::string>> keys_of_file(files);
  for (size_t f = 0; f < p.functions.size(); f++)
    if (file_of_fn[f] != UINT32_MAX)
      keys_of_file[file_of_fn[f]].push_back(recorded_file_key(p, p.functions[f]));
  begin->assign(files + 1, 0);
  for (uint32_t i = 0; i < files; i++) {
    std::vector<std::string> &ks = keys_of_file[i];
    std::sort(ks.begin(), ks.end());
    ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
    if (!ks.empty() && ks.front().empty()) ks.erase(ks.begin());
    (*begin)[i + 1] = (*begin)[i] + static_cast<uint32_t>(ks.size());
    for (std::string &s : ks) keys->push_back(std::move(s));
  }
}

} // namespace

std::shared_ptr<const ProfileResolution>
ProfileResolution::build(std::shared_ptr<const Profile> profile, const SourceResolver &resolver,
                         const std::atomic<bool> *cancel) {
  std::shared_ptr<ProfileResolution> r(new ProfileResolution());
  r->profile_ = profile;
  r->workspace_ = resolver.shared_index();
  r->generation_ = r->workspace_->generation();
  r->options_ = resolver.options();
  const Profile &p = *profile;

  // 1. One SourceKey per function, deduplicated. 2. Each key once.
  KeyTable t;
  if (!collect_keys(p, cancel, &t) || !resolve_keys(resolver, cancel, &t)) return nullptr;
  // 3. Prefix mappings learned from unique path-suffix matches, applied to the paths that
  // matched nothing.
  resolve_by_learned_prefixes(*r->workspace_, &t);
  // 4. Ties.
  r->ties_ = break_ties(&t);
  // 5. Packages no root has, next to resolving ones.
  mark_missing_roots(&t);
  // 6. Per function.
  if (!resolve_functions(p, resolver, t, cancel, &r->text_, &r->by_function_, r->counts_))
    return nullptr;

  // 7. The inverse: files -> functions, frames and recorded file keys.
  std::vector<uint32_t> file_of_fn = number_files(r->by_function_, &r->files_);
  const uint32_t n = static_cast<uint32_t>(r->files_.size());
  group_by_file(
      p.functions.size(), n, [&](size_t f) { return file_of_fn[f]; }, &r->fn_begin_, &r->fn_ids_);
  group_by_file(
      p.frames.size(), n, [&](size_t i) { return file_of_fn[p.frames[i].function]; },
      &r->frame_begin_, &r->frame_ids_);
  group_recorded_keys(p, file_of_fn, n, &r->key_begin_, &r->keys_);
  for (uint32_t i = 0; i < n; i++)
    if (std::string real = real_path(r->files_[i]); !real.empty())
      r->canonical_.emplace(std::move(real), i);
  return r;
}

int32_t ProfileResolution::line_of_frame(FrameId frame) const {
  const Frame &fr = profile_->frames[frame];
  return fr.line > 0 ? fr.line : by_function_[fr.function].line;
}

int64_t ProfileResolution::file_index(std::string_view raw) const {
  std::string path = normal_absolute_path(raw, "/");
  auto it = std::lower_bound(files_.begin(), files_.end(), path);
  if (it != files_.end() && *it == path) return it - files_.begin();
  if (canonical_.empty()) return -1;
  std::string real = real_path(path);
  if (real.empty()) return -1;
  auto c = canonical_.find(real);
  return c == canonical_.end() ? -1 : static_cast<int64_t>(c->second);
}

std::span<const FunctionId> ProfileResolution::functions_in(std::string_view path) const {
  int64_t i = file_index(path);
  if (i < 0) return {};
  return std::span<const FunctionId>(fn_ids_).subspan(fn_begin_[i],
                                                      fn_begin_[i + 1] - fn_begin_[i]);
}

std::span<const FrameId> ProfileResolution::frames_in(std::string_view path) const {
  int64_t i = file_index(path);
  if (i < 0) return {};
  return std::span<const FrameId>(frame_ids_)
      .subspan(frame_begin_[i], frame_begin_[i + 1] - frame_begin_[i]);
}

std::span<const std::string> ProfileResolution::recorded_files_in(std::string_view path) const {
  int64_t i = file_index(path);
  if (i < 0) return {};
  return std::span<const std::string>(keys_).subspan(key_begin_[i],
                                                     key_begin_[i + 1] - key_begin_[i]);
}

std::vector<std::string> recorded_keys_for_path(const ProfileResolution *resolution,
                                                const LineKeys &keys, const std::string &path) {
  if (resolution) {
    std::span<const std::string> in = resolution->recorded_files_in(path);
    if (!in.empty()) return {in.begin(), in.end()};
  }
  return file_keys_for_path(keys, path);
}

} // namespace hotlines
