// ProfileStore (see profile_store.h).
#include "server/lsp/profile_store.h"

namespace hotlines {

const LoadedProfile &ProfileStore::put(const std::string &path,
                                       std::shared_ptr<const ProfileIndex> index,
                                       std::shared_ptr<const FileFunctions> file_functions,
                                       std::shared_ptr<const ProfileResolution> resolution) {
  std::shared_ptr<const Profile> profile = index->shared_profile();
  auto views = std::make_shared<ViewCache>(index);
  LoadedProfile *lp = nullptr; // a reload keeps the id of the profile from the same path
  for (auto &[id, other] : profiles_)
    if (other.path == path) lp = &other;
  if (!lp) {
    std::string id = "p" + std::to_string(next_id_++);
    lp = &profiles_[id];
    lp->id = id;
    lp->path = path;
  }
  lp->profile = std::move(profile);
  lp->index = std::move(index);
  lp->views = std::move(views);
  lp->file_functions = std::move(file_functions);
  lp->resolution = std::move(resolution);
  lp->generation = next_generation_++;
  last_id_ = lp->id;
  return *lp;
}

const LoadedProfile *ProfileStore::find(const std::string &id) const {
  auto it = profiles_.find(id);
  return it == profiles_.end() ? nullptr : &it->second;
}

bool ProfileStore::set_resolution(const std::string &id, uint64_t generation,
                                  std::shared_ptr<const ProfileResolution> resolution) {
  auto it = profiles_.find(id);
  if (it == profiles_.end() || it->second.generation != generation) return false;
  it->second.resolution = std::move(resolution);
  return true;
}

bool ProfileStore::remove(const std::string &id) {
  if (profiles_.erase(id) == 0) return false;
  if (last_id_ == id) { // the most recently added of the rest
    last_id_.clear();
    for (const auto &[other, lp] : profiles_)
      if (last_id_.empty() || std::stoull(other.substr(1)) > std::stoull(last_id_.substr(1)))
        last_id_ = other;
  }
  return true;
}

} // namespace hotlines
