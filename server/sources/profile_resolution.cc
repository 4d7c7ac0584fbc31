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
  std::string cls = normalized_internal_class(jvm_class_of(p, fn, &method));
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
  const WorkspaceIndex &ix = *r->workspace_;

  // 1. One SourceKey per function, deduplicated.
  std::vector<SourceKey> keys;
  std::vector<uint32_t> key_of_fn(p.functions.size());
  std::vector<size_t> fns_of_key;
  {
    std::unordered_map<std::string, uint32_t> ids;
    for (size_t f = 0; f < p.functions.size(); f++) {
      if ((f & 4095) == 0 && cancelled(cancel)) return nullptr;
      SourceKey k = source_key(p, p.functions[f]);
      auto [it, added] = ids.try_emplace(k.id(), static_cast<uint32_t>(keys.size()));
      if (added) {
        keys.push_back(std::move(k));
        fns_of_key.push_back(0);
      }
      key_of_fn[f] = it->second;
      fns_of_key[it->second]++;
    }
  }

  // 2. Each key once.
  std::vector<SourceMatch> matches(keys.size());
  for (size_t k = 0; k < keys.size(); k++) {
    if ((k & 255) == 0 && cancelled(cancel)) return nullptr;
    matches[k] = resolver.resolve(keys[k]);
  }

  // 3. Prefix mappings learned from unique path-suffix matches, applied to the paths that
  // matched nothing: `/build/proj/main.c` -> `/home/me/proj/main.c` when
  // `/build/proj/src/a.c` resolved to `/home/me/proj/src/a.c`.
  {
    std::map<std::pair<std::string, std::string>, size_t> votes;
    for (size_t k = 0; k < keys.size(); k++) {
      const SourceMatch &m = matches[k];
      if (m.rule != kRulePathSuffix || m.candidates.size() != 1) continue;
      CleanPath c = clean_recorded_path(keys[k].text);
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
    if (!learned.empty())
      for (size_t k = 0; k < keys.size(); k++) {
        SourceMatch &m = matches[k];
        if (m.rule != kRuleUnmatchedPath && m.rule != kRuleExternalPath) continue;
        CleanPath c = clean_recorded_path(keys[k].text);
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

  // 4. Ties: the candidate sharing the most leading components with files other keys
  // resolved to uniquely; then the first by path.
  {
    std::unordered_set<std::string> dirs;
    for (const SourceMatch &m : matches)
      if (m.status == ResolutionStatus::resolved && m.candidates.size() == 1)
        for_each_ancestor(m.candidates[0], [&](std::string_view d) { dirs.emplace(d); });
    for (size_t k = 0; k < keys.size(); k++) {
      SourceMatch &m = matches[k];
      if (m.status != ResolutionStatus::resolved || m.candidates.size() < 2) continue;
      size_t best = 0, best_score = 0;
      for (size_t c = 0; c < m.candidates.size(); c++) {
        size_t score = 0;
        for_each_ancestor(m.candidates[c], [&](std::string_view d) {
          if (score == 0 && dirs.count(std::string(d))) score = component_count(d) + 1;
        });
        if (score > best_score) best = c, best_score = score;
      }
      ResolutionTie t;
      t.recorded = keys[k].text;
      t.rule = m.rule;
      t.candidates = m.candidates;
      t.chosen = m.candidates[best];
      t.functions = fns_of_key[k];
      m.reason = "tie: " + std::to_string(m.candidates.size()) +
                 " files match; picked the one sharing the most leading folders with other "
                 "resolved frames";
      std::swap(m.candidates[0], m.candidates[best]);
      r->ties_.push_back(std::move(t));
    }
    std::sort(r->ties_.begin(), r->ties_.end(), [](const ResolutionTie &a, const ResolutionTie &b) {
      return a.recorded < b.recorded;
    });
  }

  // 5. A package no root has, next to packages of the same two leading components that do
  // resolve, is more likely a missing source root than a library.
  {
    std::unordered_set<std::string> owned;
    for (size_t k = 0; k < keys.size(); k++)
      if (keys[k].kind == SourceKey::Kind::jvm_class &&
          matches[k].status == ResolutionStatus::resolved)
        owned.insert(leading_path(keys[k].text, 2));
    for (size_t k = 0; k < keys.size(); k++) {
      SourceMatch &m = matches[k];
      if (!m.package_unknown) continue;
      std::string lead = leading_path(keys[k].text, 2);
      if (component_count(keys[k].text) < 3 || !owned.count(lead)) continue;
      std::string pkg(path_dirname(keys[k].text));
      std::replace(pkg.begin(), pkg.end(), '/', '.');
      std::replace(lead.begin(), lead.end(), '/', '.');
      m.status = ResolutionStatus::unresolved;
      m.rule = kRuleUnmatchedClass;
      m.reason = "no source root has package " + pkg + ", though other " + lead +
                 " packages resolve (a missing source root?)";
    }
  }

  // 6. Per function.
  std::vector<std::string_view> recorded(keys.size()), reason(keys.size()), path(keys.size());
  for (size_t k = 0; k < keys.size(); k++) {
    recorded[k] = r->text_.emplace_back(keys[k].text);
    if (!matches[k].reason.empty()) reason[k] = r->text_.emplace_back(matches[k].reason);
    if (matches[k].status == ResolutionStatus::resolved)
      path[k] = r->text_.emplace_back(matches[k].candidates[0]);
  }
  r->by_function_.resize(p.functions.size());
  for (size_t f = 0; f < p.functions.size(); f++) {
    if ((f & 4095) == 0 && cancelled(cancel)) return nullptr;
    const uint32_t k = key_of_fn[f];
    const SourceMatch &m = matches[k];
    const Function &fn = p.functions[f];
    Resolution &res = r->by_function_[f];
    res.status = m.status;
    res.rule = m.rule;
    res.path = path[k];
    res.reason = reason[k];
    res.recorded = recorded[k];
    res.tie = m.status == ResolutionStatus::resolved && m.candidates.size() > 1;
    r->counts_[static_cast<size_t>(m.status)]++;
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

  // 7. The inverse: files -> functions, frames and recorded file keys.
  {
    std::map<std::string_view, uint32_t> file_ids;
    for (const Resolution &res : r->by_function_)
      if (!res.path.empty()) file_ids.emplace(res.path, 0);
    uint32_t n = 0;
    for (auto &[file, id] : file_ids) {
      id = n++;
      r->files_.emplace_back(file);
    }
    std::vector<uint32_t> file_of_fn(p.functions.size(), UINT32_MAX);
    std::vector<std::vector<std::string>> keys_of_file(n);
    r->fn_begin_.assign(n + 1, 0);
    for (size_t f = 0; f < p.functions.size(); f++) {
      const Resolution &res = r->by_function_[f];
      if (res.path.empty()) continue;
      file_of_fn[f] = file_ids[res.path];
      r->fn_begin_[file_of_fn[f] + 1]++;
      keys_of_file[file_of_fn[f]].push_back(recorded_file_key(p, p.functions[f]));
    }
    for (uint32_t i = 0; i < n; i++) r->fn_begin_[i + 1] += r->fn_begin_[i];
    r->fn_ids_.resize(r->fn_begin_[n]);
    std::vector<uint32_t> at(r->fn_begin_.begin(), r->fn_begin_.end() - 1);
    for (size_t f = 0; f < p.functions.size(); f++)
      if (file_of_fn[f] != UINT32_MAX) r->fn_ids_[at[file_of_fn[f]]++] = static_cast<FunctionId>(f);
    r->frame_begin_.assign(n + 1, 0);
    for (const Frame &fr : p.frames)
      if (file_of_fn[fr.function] != UINT32_MAX) r->frame_begin_[file_of_fn[fr.function] + 1]++;
    for (uint32_t i = 0; i < n; i++) r->frame_begin_[i + 1] += r->frame_begin_[i];
    r->frame_ids_.resize(r->frame_begin_[n]);
    at.assign(r->frame_begin_.begin(), r->frame_begin_.end() - 1);
    for (size_t i = 0; i < p.frames.size(); i++)
      if (uint32_t file = file_of_fn[p.frames[i].function]; file != UINT32_MAX)
        r->frame_ids_[at[file]++] = static_cast<FrameId>(i);
    r->key_begin_.assign(n + 1, 0);
    for (uint32_t i = 0; i < n; i++) {
      std::vector<std::string> &ks = keys_of_file[i];
      std::sort(ks.begin(), ks.end());
      ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
      if (!ks.empty() && ks.front().empty()) ks.erase(ks.begin());
      r->key_begin_[i + 1] = r->key_begin_[i] + static_cast<uint32_t>(ks.size());
      for (std::string &s : ks) r->keys_.push_back(std::move(s));
    }
    for (uint32_t i = 0; i < n; i++)
      if (std::string real = real_path(r->files_[i]); !real.empty())
        r->canonical_.emplace(std::move(real), i);
  }
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
