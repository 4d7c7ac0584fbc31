// Thread weights and grouping (see query_threads.h).
#include "server/engine/query_threads.h"

#include "server/engine/view_filter.h"
#include "server/engine/view_pass.h"

#include <algorithm>
#include <map>

namespace hotlines {

std::string thread_group_name(std::string_view name) {
  size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') end--;
  if (end == name.size() || end == 0) return std::string(name);
  return std::string(name.substr(0, end)) + "*";
}

ThreadsResult thread_weights(const ProfileIndex &index, const View &view, bool grouped,
                             const std::atomic<bool> *cancel, unsigned threads) {
  ThreadsResult out;
  const Profile &p = index.profile();
  SampleFilter filter;
  if (!filter.compile(index, view, cancel, &out.error)) return out;
  std::vector<int64_t> weight;
  if (filter.passes_everything()) {
    auto w = index.unfiltered(filter.event(), view.measure);
    weight = w->tables->thread_weight;
    out.view_total = w->total;
  } else {
    PassTotals pass = weigh_samples(filter, p, true, cancel, threads);
    if (pass.cancelled) {
      out.error = "cancelled";
      return out;
    }
    weight = std::move(pass.thread);
    out.view_total = pass.total;
  }
  std::vector<ThreadRow> rows;
  if (grouped) {
    std::map<std::string, ThreadRow> groups;
    for (ThreadId t = 0; t < weight.size(); t++) {
      if (weight[t] == 0) continue;
      ThreadRow &g = groups[thread_group_name(p.str(p.threads[t].name))];
      g.members.push_back(t);
      g.weight += weight[t];
    }
    for (auto &[name, g] : groups) {
      if (g.members.size() == 1) {
        const Thread &th = p.threads[g.members[0]];
        g.name = std::string(p.str(th.name));
        g.os_tid = th.os_tid;
        g.java_tid = th.java_tid;
      } else {
        g.name = name;
      }
      rows.push_back(std::move(g));
    }
  } else {
    for (ThreadId t = 0; t < weight.size(); t++) {
      if (weight[t] == 0) continue;
      const Thread &th = p.threads[t];
      ThreadRow r;
      r.name = std::string(p.str(th.name));
      r.members = {t};
      r.os_tid = th.os_tid;
      r.java_tid = th.java_tid;
      r.weight = weight[t];
      rows.push_back(std::move(r));
    }
  }
  std::sort(rows.begin(), rows.end(), [](const ThreadRow &a, const ThreadRow &b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    if (a.name != b.name) return a.name < b.name;
    return a.members < b.members;
  });
  out.rows = std::move(rows);
  return out;
}

} // namespace hotlines
