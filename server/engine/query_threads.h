// Threads of a view with their weight, optionally grouped: names that differ only in a
// trailing number (`pool-1-thread-7`, `worker-0`, `GC Thread#3`) form one group
// (`pool-1-thread-*`). The unfiltered per-thread weights are precomputed at load; a filtered
// view takes one parallel pass. Pure functions; thread-safe.
#pragma once

#include "server/engine/profile_index.h"
#include "server/engine/view.h"

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

struct ThreadRow {
  std::string name;                   // thread name, or the group's name with `*`
  std::vector<ThreadId> members;      // the threads in the row (one when not a group)
  int64_t os_tid = -1, java_tid = -1; // for single threads
  int64_t weight = 0;
};

struct ThreadsResult {
  std::string error; // unknown event, window without timestamps, "cancelled"
  int64_t view_total = 0;
  std::vector<ThreadRow> rows; // heaviest first, then by name; threads without weight omitted
};

ThreadsResult thread_weights(const ProfileIndex &index, const View &view, bool grouped,
                             const std::atomic<bool> *cancel = nullptr, unsigned threads = 0);

// The group name of a thread name: a trailing number becomes `*`; other names stay as they are.
std::string thread_group_name(std::string_view name);

} // namespace hotlines
