// The .heapprofile reader (see heapprofile_reader.h). Format (DevTools protocol
// HeapProfiler.SamplingHeapProfile): {"head": {"callFrame", "selfSize", "id", "children": [nodes
// inline]}, "samples": [{"size", "nodeId", "ordinal"}]}.
#include "formats/heapprofile_reader.h"

#include "formats/profile_builder.h"

namespace hotlines {

V8Error add_heapprofile(ProfileBuilder &b, V8Frames &frames, const JsonDoc &doc, ThreadId thread,
                        const LoadOptions &options) {
  if (doc.type(0) != JsonType::object) return {"expected a JSON object", doc.offset(0)};
  const uint32_t head = doc.member(0, "head");
  if (head == JsonDoc::npos) return {"no `head`: not a V8 heap profile", doc.offset(0)};
  std::vector<V8Node> nodes;
  if (V8Error e = read_nested_nodes(doc, head, &nodes); e.failed()) return e;
  std::vector<StackId> stack(nodes.size(), kNoStack);
  std::unordered_map<int64_t, uint32_t> by_id;
  for (uint32_t i = 0; i < nodes.size(); i++) {
    const V8Node &v = nodes[i];
    if (!by_id.emplace(v.id, i).second)
      return {v8_node_path(nodes, i) + ".id: " + std::to_string(v.id) +
                  " is the id of another node too",
              doc.offset(v.json)};
    const StackId parent = v.parent == V8Node::kRoot ? kNoStack : stack[v.parent];
    if (v.parent == V8Node::kRoot && v.function == "(root)" && v.url.empty()) continue;
    stack[i] = b.stack(parent, frames.frame(v));
  }
  const EventId event = b.event("alloc", "bytes");
  // Samples per node (the count); samples naming nodes the tree lacks are only counted.
  std::vector<int64_t> count(nodes.size());
  int64_t orphans = 0, orphan_bytes = 0;
  uint32_t samples = JsonDoc::npos;
  if (V8Error e = json_array(doc, 0, "samples", "", false, &samples); e.failed()) return e;
  if (samples != JsonDoc::npos) {
    uint32_t k = 0;
    for (uint32_t s = doc.first(samples); k < doc.size(samples); s = doc.next(s), k++) {
      if ((k & 0xffff) == 0 && options.cancelled()) return {"cancelled", -1};
      const std::string path = "samples[" + std::to_string(k) + "]";
      if (doc.type(s) != JsonType::object) return {path + ": expected an object", doc.offset(s)};
      int64_t size = 0, id = 0;
      if (V8Error e = json_int(doc, s, "size", path, true, &size); e.failed()) return e;
      if (V8Error e = json_int(doc, s, "nodeId", path, true, &id); e.failed()) return e;
      if (size < 0) return {path + ".size: negative", doc.offset(s)};
      if (auto it = by_id.find(id); it != by_id.end())
        count[it->second]++;
      else
        orphans++, orphan_bytes = saturating_add(orphan_bytes, size);
    }
  }
  // Bytes are the tree's selfSize, as DevTools shows them.
  for (uint32_t i = 0; i < nodes.size(); i++) {
    int64_t self = 0;
    if (V8Error e = json_int(doc, nodes[i].json, "selfSize", std::string(kNodeMark), false, &self);
        e.failed())
      return at_node(e, nodes, i);
    if (self < 0)
      return at_node({std::string(kNodeMark) + ".selfSize: negative", doc.offset(nodes[i].json)},
                     nodes, i);
    if (self > 0) b.add_sample(event, stack[i], thread, std::max<int64_t>(count[i], 1), self);
  }
  if (orphans > 0)
    b.warn(std::to_string(orphans) + " samples (" + std::to_string(orphan_bytes) +
           " bytes) name nodes the tree does not have (V8 writes such profiles): the tree's "
           "selfSize is what is loaded");
  Event &e = b.event_at(event);
  if (e.sources.empty()) e.sources.push_back(b.intern("V8 heapprofile"));
  frames.flush_warnings();
  return {};
}

LoadResult read_heapprofile(std::string_view data, const LoadOptions &options) {
  return read_v8_file(data, options, "heapprofile", "V8 sampling heap profiler",
                      [&](ProfileBuilder &b, V8Frames &frames, const JsonDoc &doc, ThreadId main) {
                        return add_heapprofile(b, frames, doc, main, options);
                      });
}

} // namespace hotlines
