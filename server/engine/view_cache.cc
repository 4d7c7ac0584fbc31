// ViewCache (see view_cache.h).
#include "server/engine/view_cache.h"

#include "server/engine/view_filter.h"

namespace hotlines {

ViewCache::ViewCache(std::shared_ptr<const ProfileIndex> index, size_t capacity)
    : index_(std::move(index)), capacity_(capacity) {}

std::string ViewCache::signature(const View &v) {
  std::string s = v.event + '\x1f' + (v.measure == Measure::count ? "c" : "v") +
                  (v.no_idle ? "i" : "-") + (v.grouping == FunctionGrouping::fqn ? "f" : "n");
  auto list = [&s](char tag, const std::vector<std::string> &xs) {
    s += '\x1e';
    s += tag;
    for (const std::string &x : xs) s += '\x1f' + x;
  };
  list('t', v.threads.names);
  list('p', v.threads.patterns);
  list('s', v.states);
  s += "\x1ei";
  for (int64_t id : v.threads.ids) s += '\x1f' + std::to_string(id);
  s += "\x1ew" + (v.from_ns ? std::to_string(*v.from_ns) : "") + '\x1f' +
       (v.to_ns ? std::to_string(*v.to_ns) : "");
  list('+', v.include);
  list('-', v.exclude);
  list('h', v.hide);
  return s;
}

ViewResult ViewCache::get(const View &view, const std::atomic<bool> *cancel) {
  if (!view_filters(index_->profile(), view))
    return compute_view(*index_, view, cancel); // precomputed: a lookup
  std::string key = signature(view);
  {
    std::lock_guard lock(mu_);
    for (auto &[k, w] : entries_)
      if (k == key) return {w, {}, false};
  }
  ViewResult r = compute_view(*index_, view, cancel);
  if (!r.ok()) return r;
  std::lock_guard lock(mu_);
  for (auto &[k, w] : entries_)
    if (k == key) return {w, {}, false}; // computed meanwhile by another worker
  entries_.emplace_front(key, r.weights);
  if (entries_.size() > capacity_) entries_.pop_back();
  return r;
}

} // namespace hotlines
