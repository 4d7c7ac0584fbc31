// The loaded profiles of a server session, by id. A profile is immutable and shared
// (shared_ptr<const Profile>); a reload swaps the pointer and bumps the generation, so work
// started on the old one can tell its answer is stale. Threading: loop thread only.
#pragma once

#include "formats/profile.h"
#include "server/engine/profile_index.h"
#include "server/engine/view_cache.h"
#include "server/lsp/file_heat.h"
#include "server/sources/profile_resolution.h"

#include <map>
#include <memory>
#include <string>

namespace hotlines {

struct LoadedProfile {
  std::string id, path;
  std::shared_ptr<const Profile> profile;
  std::shared_ptr<const ProfileIndex> index;           // built at load; queries read it
  std::shared_ptr<ViewCache> views;                    // filtered views computed for this profile
  std::shared_ptr<const FileFunctions> file_functions; // built at load
  std::shared_ptr<const ProfileResolution> resolution; // null until the workspace is indexed
  uint64_t generation = 0;
};

class ProfileStore {
public:
  // Adds a profile, or replaces the one loaded from the same path (a reload keeps its id).
  const LoadedProfile &put(const std::string &path, std::shared_ptr<const ProfileIndex> index,
                           std::shared_ptr<const FileFunctions> file_functions,
                           std::shared_ptr<const ProfileResolution> resolution = nullptr);
  // The profile with this id, or nullptr.
  const LoadedProfile *find(const std::string &id) const;
  // The most recently loaded profile still loaded, or nullptr.
  const LoadedProfile *latest() const { return find(last_id_); }
  bool remove(const std::string &id);
  // Sets the resolution of a profile if it is still at `generation`; false otherwise.
  bool set_resolution(const std::string &id, uint64_t generation,
                      std::shared_ptr<const ProfileResolution> resolution);
  const std::map<std::string, LoadedProfile> &all() const { return profiles_; }

private:
  std::map<std::string, LoadedProfile> profiles_;
  std::string last_id_;
  uint64_t next_id_ = 1, next_generation_ = 1;
};

} // namespace hotlines
