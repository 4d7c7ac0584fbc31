// pprof sample types <-> product events (see pprof_sample_types.h).
#include "formats/pprof_sample_types.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

namespace hotlines {

namespace {

// Pairs from architecture.md, in priority order: `samples` pairs with cpu before wall.
struct KnownPair {
  std::string_view value, count, event;
};
constexpr KnownPair kPairs[] = {
    {"cpu", "samples", "cpu"},
    {"wall", "samples", "wall"},
    {"alloc_space", "alloc_objects", "alloc"},
    {"inuse_space", "inuse_objects", "inuse"},
    {"delay", "contentions", "lock"},
};

// Product event of a sample type standing alone; unknown types keep their own name.
std::string single_event_name(std::string_view type, size_t index) {
  if (type == "cpu" || type == "wall") return std::string(type);
  if (type == "alloc_space" || type == "alloc_objects") return "alloc";
  if (type == "inuse_space" || type == "inuse_objects") return "inuse";
  if (type == "delay" || type == "contentions") return "lock";
  if (type.empty()) return "sample_type_" + std::to_string(index);
  return std::string(type);
}

bool contains(const std::vector<std::string> &v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace

std::vector<PprofEventGroup> group_pprof_sample_types(const std::vector<std::string_view> &types,
                                                      const std::vector<std::string> &unpair) {
  const int n = static_cast<int>(types.size());
  std::vector<bool> claimed(n, false);
  std::vector<PprofEventGroup> groups;
  // Indices by name, so that profiles with very many sample types stay linear.
  std::unordered_map<std::string_view, std::vector<int>> by_name;
  for (int i = n; i-- > 0;) by_name[types[i]].push_back(i); // back() is the first index
  auto first_unclaimed = [&](std::string_view name) {
    auto it = by_name.find(name);
    if (it == by_name.end()) return -1;
    std::vector<int> &v = it->second;
    while (!v.empty() && claimed[v.back()]) v.pop_back();
    return v.empty() ? -1 : v.back();
  };
  auto pair = [&](int v, int c, std::string name) {
    claimed[v] = claimed[c] = true;
    groups.push_back(PprofEventGroup{std::move(name), c, v});
  };
  for (const KnownPair &p : kPairs) {
    if (contains(unpair, p.value)) continue;
    int v = first_unclaimed(p.value), c = first_unclaimed(p.count);
    if (v >= 0 && c >= 0) pair(v, c, std::string(p.event));
  }
  // The writer's convention for events whose count is not a known pprof type: X_count + X.
  for (int v = 0; v < n; v++) {
    if (claimed[v] || types[v].empty() || contains(unpair, types[v])) continue;
    int c = first_unclaimed(std::string(types[v]) + "_count");
    if (c >= 0 && c != v) pair(v, c, std::string(types[v]));
  }
  for (int i = 0; i < n; i++)
    if (!claimed[i]) groups.push_back(PprofEventGroup{single_event_name(types[i], i), -1, i});

  auto first_index = [](const PprofEventGroup &g) {
    return g.count_type >= 0 ? std::min(g.count_type, g.value_type) : g.value_type;
  };
  std::stable_sort(groups.begin(), groups.end(),
                   [&](const auto &a, const auto &b) { return first_index(a) < first_index(b); });
  // Unique names: the preferred name, else the value type's own name, else name_INDEX. Pairs
  // and the value member of a known pair choose first: split alloc_space keeps "alloc".
  auto primary = [&](const PprofEventGroup &g) {
    if (g.count_type >= 0) return true;
    for (const KnownPair &p : kPairs)
      if (types[g.value_type] == p.value) return true;
    return false;
  };
  std::vector<PprofEventGroup *> order;
  for (PprofEventGroup &g : groups)
    if (primary(g)) order.push_back(&g);
  for (PprofEventGroup &g : groups)
    if (!primary(g)) order.push_back(&g);
  std::unordered_set<std::string> used;
  for (PprofEventGroup *gp : order) {
    PprofEventGroup &g = *gp;
    if (used.count(g.name)) {
      std::string alt(types[g.value_type]);
      if (!alt.empty() && !used.count(alt)) {
        g.name = alt;
      } else {
        std::string base = g.name;
        for (int k = g.value_type;; k++) {
          g.name = base + "_" + std::to_string(k);
          if (!used.count(g.name)) break;
        }
      }
    }
    used.insert(g.name);
  }
  return groups;
}

std::vector<PprofSampleType> pprof_sample_types(const Profile &p) {
  std::vector<PprofSampleType> out;
  std::unordered_set<std::string> taken;
  auto unique = [&](std::string name, std::string_view event) {
    if (taken.count(name)) {
      std::string base = name + "_" + std::string(event);
      name = base;
      for (int k = 2; taken.count(name); k++) name = base + std::to_string(k);
    }
    taken.insert(name);
    return name;
  };
  for (size_t e = 0; e < p.events.size(); e++) {
    const Event &ev = p.events[e];
    std::string_view name = p.str(ev.name);
    // A count type when the count is a named pprof type, or when an event from another
    // format counts something its value does not (JFR alloc: samples vs bytes). An unpaired
    // pprof type (value_label set, no count_label) counts only its own sample records.
    bool counts_differ = !ev.samples.value.empty() && ev.value_label == 0;
    if (ev.count_label != 0 || counts_differ) {
      std::string count_name =
          ev.count_label ? std::string(p.str(ev.count_label)) : std::string(name) + "_count";
      out.push_back(PprofSampleType{unique(count_name, name), "count", static_cast<int>(e), true});
    }
    std::string value_name = std::string(ev.value_label ? p.str(ev.value_label) : name);
    std::string unit = ev.unit ? std::string(p.str(ev.unit)) : "count";
    out.push_back(PprofSampleType{unique(value_name, name), unit, static_cast<int>(e), false});
  }
  return out;
}

bool find_pprof_sample_type(const Profile &p, std::string_view name, PprofSampleType *out) {
  std::vector<PprofSampleType> types = pprof_sample_types(p);
  for (const PprofSampleType &t : types)
    if (t.type == name) {
      *out = t;
      return true;
    }
  int e = p.find_event(name);
  if (e >= 0) {
    for (const PprofSampleType &t : types)
      if (t.event == e && !t.count) {
        *out = t;
        return true;
      }
  }
  size_t index = 0;
  auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
  if (ec == std::errc() && ptr == name.data() + name.size() && !name.empty() &&
      index < types.size()) {
    *out = types[index];
    return true;
  }
  return false;
}

} // namespace hotlines
