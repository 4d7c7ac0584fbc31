// materialize_view: a new Profile holding only what a View shows — the view's event, the
// samples that pass its filters (thread, window, include/exclude, no-idle), with stacks
// rewritten without hidden frames — so any writer (collapsed, pprof) can export a filtered
// view. Strings, functions, frames, threads and label sets are copied as they are; times stay
// relative to the original start. Pure function; thread-safe.
#pragma once

#include "formats/profile.h"
#include "server/engine/view.h"

#include <atomic>
#include <memory>
#include <string>

namespace hotlines {

// Null on error (unknown event, window without timestamps, cancelled), with *error set.
std::unique_ptr<Profile> materialize_view(const Profile &profile, const View &view,
                                          std::string *error = nullptr,
                                          const std::atomic<bool> *cancel = nullptr);

} // namespace hotlines
