// The .cpuprofile reader (see cpuprofile_reader.h). Format (Chrome DevTools protocol
// Profiler.Profile): {"nodes": [{"id", "callFrame": {"functionName", "scriptId", "url",
// "lineNumber", "columnNumber"}, "hitCount", "children": [ids], "positionTicks": [{"line",
// "ticks"}]}], "startTime", "endTime" (µs), "samples": [node ids], "timeDeltas": [µs]}.
#include "formats/cpuprofile_reader.h"

#include "formats/profile_builder.h"

#include <algorithm>
#include <numeric>

namespace hotlines {

namespace {

// The positionTicks of a node: (line, ticks) in V8's order.
V8Error position_ticks(const JsonDoc &doc, const V8Node &n, const std::string &path,
                       std::vector<std::pair<int32_t, int64_t>> *out) {
  out->clear();
  uint32_t ticks = JsonDoc::npos;
  if (V8Error e = json_array(doc, n.json, "positionTicks", path, false, &ticks); e.failed())
    return e;
  if (ticks == JsonDoc::npos) return {};
  uint32_t k = 0;
  for (uint32_t t = doc.first(ticks); k < doc.size(ticks); t = doc.next(t), k++) {
    const std::string tpath = path + ".positionTicks[" + std::to_string(k) + "]";
    if (doc.type(t) != JsonType::object) return {tpath + ": expected an object", doc.offset(t)};
    int64_t line = 0, count = 0;
    if (V8Error e = json_int(doc, t, "line", tpath, true, &line); e.failed()) return e;
    if (V8Error e = json_int(doc, t, "ticks", tpath, true, &count); e.failed()) return e;
    if (line < 1 || line > INT32_MAX)
      return {tpath + ".line: " + std::to_string(line) + " is not a line (they count from 1)",
              doc.offset(t)};
    if (count < 0) return {tpath + ".ticks: negative", doc.offset(t)};
    out->emplace_back(static_cast<int32_t>(line), count);
  }
  return {};
}

} // namespace

bool cpuprofile_start(const JsonDoc &doc, int64_t *start_us) {
  return doc.type(0) == JsonType::object &&
         !json_int(doc, 0, "startTime", "", true, start_us).failed();
}

V8Error add_cpuprofile(ProfileBuilder &b, V8Frames &frames, const JsonDoc &doc, ThreadId thread,
                       int64_t origin_us, const LoadOptions &options) {
  if (doc.type(0) != JsonType::object) return {"expected a JSON object", doc.offset(0)};
  std::vector<V8Node> nodes;
  if (uint32_t list = doc.member(0, "nodes"); list != JsonDoc::npos) {
    if (doc.type(list) != JsonType::array) return {"nodes: expected an array", doc.offset(list)};
    if (V8Error e = read_flat_nodes(doc, list, &nodes); e.failed()) return e;
  } else if (uint32_t head = doc.member(0, "head"); head != JsonDoc::npos) {
    if (V8Error e = read_nested_nodes(doc, head, &nodes); e.failed()) return e;
  } else {
    return {"no `nodes` (nor an old-style `head`): not a V8 CPU profile", doc.offset(0)};
  }
  int64_t start = 0, end = 0;
  if (V8Error e = json_int(doc, 0, "startTime", "", true, &start); e.failed()) return e;
  if (V8Error e = json_int(doc, 0, "endTime", "", true, &end); e.failed()) return e;
  // Times are kept within ±2^60 µs (36 million years), so that their differences never overflow.
  static constexpr int64_t kFar = int64_t(1) << 60;
  auto bounded = [](int64_t us) { return std::clamp(us, -kFar, kFar); };
  start = bounded(start), end = bounded(end), origin_us = bounded(origin_us);
  uint32_t samples = 0, deltas = JsonDoc::npos, stamps = JsonDoc::npos;
  if (V8Error e = json_array(doc, 0, "samples", "", true, &samples); e.failed()) return e;
  if (V8Error e = json_array(doc, 0, "timeDeltas", "", false, &deltas); e.failed()) return e;
  if (deltas == JsonDoc::npos)
    if (V8Error e = json_array(doc, 0, "timestamps", "", false, &stamps); e.failed()) return e;
  const uint32_t times = deltas != JsonDoc::npos ? deltas : stamps;
  const size_t n = doc.size(samples);
  if (times == JsonDoc::npos && n > 0) return {"samples without timeDeltas", doc.offset(samples)};
  if (times != JsonDoc::npos && doc.size(times) != n)
    return {std::string(deltas != JsonDoc::npos ? "timeDeltas" : "timestamps") + " has " +
                std::to_string(doc.size(times)) + " entries for " + std::to_string(n) + " samples",
            doc.offset(times)};

  std::unordered_map<int64_t, uint32_t> by_id;
  for (uint32_t i = 0; i < nodes.size(); i++) by_id.emplace(nodes[i].id, i);
  // Each sample's node and time (µs), in time order (V8 may write a few out of order).
  std::vector<uint32_t> node_of(n);
  std::vector<int64_t> at(n);
  {
    uint32_t s = doc.first(samples), t = times == JsonDoc::npos ? JsonDoc::npos : doc.first(times);
    int64_t clock = start;
    for (size_t k = 0; k < n; k++, s = doc.next(s), t = doc.next(t)) {
      if ((k & 0xffff) == 0 && options.cancelled()) return {"cancelled", -1};
      int64_t id = 0, time = 0;
      if (!doc.integer(s, &id))
        return {"samples[" + std::to_string(k) + "]: expected an integer node id", doc.offset(s)};
      auto it = by_id.find(id);
      if (it == by_id.end())
        return {"samples[" + std::to_string(k) + "]: no node has id " + std::to_string(id),
                doc.offset(s)};
      if (!doc.integer(t, &time))
        return {std::string(deltas != JsonDoc::npos ? "timeDeltas[" : "timestamps[") +
                    std::to_string(k) + "]: expected an integer (µs)",
                doc.offset(t)};
      clock = bounded(deltas != JsonDoc::npos ? saturating_add(clock, time) : time);
      node_of[k] = it->second;
      at[k] = clock;
    }
  }
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t x, uint32_t y) { return at[x] < at[y]; });

  // Stacks of the nodes at their functions' first lines; `(root)` is none.
  std::vector<StackId> stack(nodes.size(), kNoStack);
  for (uint32_t i = 0; i < nodes.size(); i++) {
    const V8Node &v = nodes[i];
    const StackId parent = v.parent == V8Node::kRoot ? kNoStack : stack[v.parent];
    if (v.parent == V8Node::kRoot && v.function == "(root)" && v.url.empty()) continue;
    stack[i] = b.stack(parent, frames.frame(v));
  }
  // The lines each node's samples take, in time order: V8's positionTicks.
  std::vector<std::vector<std::pair<int32_t, int64_t>>> lines(nodes.size());
  std::vector<size_t> taken(nodes.size()), line_at(nodes.size());
  std::vector<bool> read(nodes.size());
  const EventId event = b.event("cpu", "nanoseconds");
  for (size_t r = 0; r < n; r++) {
    const uint32_t k = order[r];
    const uint32_t i = node_of[k];
    if (!read[i]) {
      read[i] = true;
      if (V8Error e = position_ticks(doc, nodes[i], std::string(kNodeMark), &lines[i]); e.failed())
        return at_node(e, nodes, i);
    }
    StackId s = stack[i];
    auto &ticks = lines[i];
    while (line_at[i] < ticks.size() && taken[i] >= static_cast<size_t>(ticks[line_at[i]].second))
      line_at[i]++, taken[i] = 0;
    if (line_at[i] < ticks.size() && s != kNoStack) {
      const StackId parent = nodes[i].parent == V8Node::kRoot ? kNoStack : stack[nodes[i].parent];
      s = b.stack(parent, frames.frame(nodes[i], ticks[line_at[i]].first));
      taken[i]++;
    }
    const int64_t next = r + 1 < n ? at[order[r + 1]] : std::max(end, at[k]);
    const int64_t value = std::min<int64_t>(next - at[k], INT64_MAX / 1000) * 1000;
    const int64_t time = std::clamp<int64_t>(at[k] - origin_us, 0, INT64_MAX / 1000) * 1000;
    b.add_sample(event, s, thread, time, 1, value);
  }
  Event &e = b.event_at(event);
  if (e.sources.empty()) e.sources.push_back(b.intern("V8 cpuprofile"));
  frames.flush_warnings();
  Metadata &m = b.metadata();
  m.duration_ns =
      std::max(m.duration_ns, std::clamp<int64_t>(end - origin_us, 0, INT64_MAX / 1000) * 1000);
  return {};
}

LoadResult read_cpuprofile(std::string_view data, const LoadOptions &options) {
  return read_v8_file(data, options, "cpuprofile", "V8 CPU profiler",
                      [&](ProfileBuilder &b, V8Frames &frames, const JsonDoc &doc, ThreadId main) {
                        int64_t start = 0;
                        cpuprofile_start(doc, &start);
                        return add_cpuprofile(b, frames, doc, main, start, options);
                      });
}

} // namespace hotlines
