// ViewCache: the views an editor session keeps asking for, computed once per profile. The
// unfiltered views are precomputed by ProfileIndex; a filtered view (threads, window, hide)
// costs a pass over the samples, so the last few are kept by their full description.
// Thread-safe: workers compute and share views concurrently.
#pragma once

#include "server/engine/profile_index.h"
#include "server/engine/view_weights.h"

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace hotlines {

class ViewCache {
public:
  explicit ViewCache(std::shared_ptr<const ProfileIndex> index, size_t capacity = 8);

  // The computed view (from the cache when an equal view was computed before).
  ViewResult get(const View &view, const std::atomic<bool> *cancel = nullptr);
  const ProfileIndex &index() const { return *index_; }

  // A string equal for equal views (the cache key).
  static std::string signature(const View &view);

private:
  std::shared_ptr<const ProfileIndex> index_;
  size_t capacity_;
  std::mutex mu_;
  std::deque<std::pair<std::string, std::shared_ptr<const ViewWeights>>> entries_; // newest first
};

} // namespace hotlines
