// A first hot-methods query (see hot_methods.h).
#include "server/hot_methods.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <vector>

namespace hotlines {

HotMethodsResult hot_methods(const Profile &p, EventId event, int64_t limit,
                             const std::string &query, const std::atomic<bool> *cancel) {
  const Event &ev = p.events[event];
  HotMethodsResult r;
  r.event = std::string(p.str(ev.name));
  r.unit = std::string(p.str(ev.unit));
  r.total = {ev.total_count, ev.total_value};
  // Weight per leaf stack, then pushed to every distinct function name on the stack.
  std::vector<Measure> per_stack(p.stack_count());
  const SampleColumns &c = ev.samples;
  for (size_t i = 0; i < c.size(); i++) {
    if (c.stack[i] == kNoStack) continue;
    per_stack[c.stack[i]].count += c.count_at(i);
    per_stack[c.stack[i]].value += c.value_at(i);
  }
  std::vector<Measure> self(p.strings.size()), total(p.strings.size());
  std::vector<uint32_t> seen_at(p.strings.size(), UINT32_MAX);
  for (StackId s = 0; s < p.stack_count(); s++) {
    if ((s & 0xffff) == 0 && cancel && cancel->load()) return r;
    const Measure &m = per_stack[s];
    if (m.count == 0 && m.value == 0) continue;
    StringId leaf = p.functions[p.frames[p.stack_frame[s]].function].name;
    self[leaf].count += m.count;
    self[leaf].value += m.value;
    for (StackId t = s; t != kNoStack; t = p.stack_parent[t]) {
      StringId name = p.functions[p.frames[p.stack_frame[t]].function].name;
      if (seen_at[name] == s) continue; // recursion: once per sample
      seen_at[name] = s;
      total[name].count += m.count;
      total[name].value += m.value;
    }
  }
  std::string q = query;
  for (char &ch : q) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::vector<StringId> names;
  for (StringId n = 0; n < total.size(); n++) {
    if (total[n].count == 0 && total[n].value == 0) continue;
    if (!q.empty()) {
      std::string lower(p.str(n));
      for (char &ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (lower.find(q) == std::string::npos) continue;
    }
    names.push_back(n);
  }
  std::sort(names.begin(), names.end(), [&](StringId a, StringId b) {
    if (self[a].value != self[b].value) return self[a].value > self[b].value;
    if (total[a].value != total[b].value) return total[a].value > total[b].value;
    return p.str(a) < p.str(b);
  });
  if (static_cast<int64_t>(names.size()) > limit) names.resize(static_cast<size_t>(limit));
  for (StringId n : names) r.methods.push_back({std::string(p.str(n)), self[n], total[n]});
  return r;
}

} // namespace hotlines
