// A first hot-methods query over one event: self (leaf) and total (once per sample) per
// function display name, ordered by self, then total, then name. Pure; any thread.
#pragma once

#include "formats/profile.h"
#include "protocol/hotlines_types.h"

#include <atomic>
#include <string>

namespace hotlines {

HotMethodsResult hot_methods(const Profile &profile, EventId event, int64_t limit,
                             const std::string &query, const std::atomic<bool> *cancel);

} // namespace hotlines
