// V8 call trees and their frames (see v8_call_tree.h).
#include "formats/v8_call_tree.h"

#include <algorithm>

namespace hotlines {

V8ProfileKind v8_profile_kind(std::string_view d) {
  if (d.substr(0, 3) == "\xEF\xBB\xBF") d.remove_prefix(3);
  size_t i = 0;
  while (i < d.size() && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t')) i++;
  if (i >= d.size() || d[i] != '{') return V8ProfileKind::none;
  const std::string_view head = d.substr(i, 1 << 16);
  if (head.find("\"callFrame\"") == std::string_view::npos) return V8ProfileKind::none;
  return head.find("\"selfSize\"") != std::string_view::npos ? V8ProfileKind::heap
                                                             : V8ProfileKind::cpu;
}

std::string v8_node_path(const std::vector<V8Node> &nodes, uint32_t i) {
  if (!nodes[i].nested) return "nodes[" + std::to_string(nodes[i].index) + "]";
  std::vector<uint32_t> chain;
  for (uint32_t at = i; nodes[at].parent != V8Node::kRoot; at = nodes[at].parent)
    chain.push_back(nodes[at].index);
  std::string path = "head";
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    path += ".children[" + std::to_string(*it) + "]";
  return path;
}

V8Error at_node(V8Error e, const std::vector<V8Node> &nodes, uint32_t i) {
  if (e.message.rfind(kNodeMark, 0) == 0)
    e.message.replace(0, kNodeMark.size(), v8_node_path(nodes, i));
  return e;
}

namespace {

V8Error type_error(const JsonDoc &doc, uint32_t v, const std::string &path, const char *want) {
  return {path + ": expected " + want + ", got " + std::string(json_type_name(doc.type(v))),
          doc.offset(v)};
}

// A node's own fields: id, callFrame.
V8Error read_node_fields(const JsonDoc &doc, uint32_t v, const std::string &path, V8Node *n) {
  if (doc.type(v) != JsonType::object) return type_error(doc, v, path, "an object");
  n->json = v;
  if (V8Error e = json_int(doc, v, "id", path, true, &n->id); e.failed()) return e;
  const uint32_t cf = doc.member(v, "callFrame");
  const std::string cf_path = path + ".callFrame";
  if (cf == JsonDoc::npos) return {path + ": no callFrame", doc.offset(v)};
  if (doc.type(cf) != JsonType::object) return type_error(doc, cf, cf_path, "an object");
  for (auto [key, out] : {std::pair{"functionName", &n->function}, std::pair{"url", &n->url}}) {
    const uint32_t s = doc.member(cf, key);
    if (s == JsonDoc::npos) return {cf_path + ": no " + key, doc.offset(cf)};
    if (doc.type(s) != JsonType::string) return type_error(doc, s, cf_path + "." + key, "a string");
    *out = doc.string(s);
  }
  for (auto [key, out] :
       {std::pair{"lineNumber", &n->line}, std::pair{"columnNumber", &n->column}}) {
    int64_t x = -1;
    if (V8Error e = json_int(doc, cf, key, cf_path, false, &x); e.failed()) return e;
    *out = static_cast<int32_t>(std::clamp<int64_t>(x, -1, INT32_MAX - 1));
  }
  return {};
}

} // namespace

V8Error json_int(const JsonDoc &doc, uint32_t object, std::string_view key, const std::string &path,
                 bool required, int64_t *out) {
  const uint32_t v = doc.member(object, key);
  if (v == JsonDoc::npos)
    return required ? V8Error{path + ": no " + std::string(key), doc.offset(object)} : V8Error{};
  if (!doc.integer(v, out))
    return type_error(doc, v, path + "." + std::string(key),
                      doc.type(v) == JsonType::number ? "an integer (in 64 bits)" : "an integer");
  return {};
}

V8Error json_array(const JsonDoc &doc, uint32_t object, std::string_view key,
                   const std::string &path, bool required, uint32_t *out) {
  const uint32_t v = doc.member(object, key);
  if (v == JsonDoc::npos)
    return required ? V8Error{path + ": no " + std::string(key), doc.offset(object)} : V8Error{};
  if (doc.type(v) != JsonType::array)
    return type_error(doc, v, path + "." + std::string(key), "an array");
  *out = v;
  return {};
}

V8Error read_flat_nodes(const JsonDoc &doc, uint32_t nodes, std::vector<V8Node> *out) {
  std::vector<V8Node> list;
  std::unordered_map<int64_t, uint32_t> by_id;
  uint32_t i = 0;
  for (uint32_t v = doc.first(nodes); i < doc.size(nodes); v = doc.next(v), i++) {
    V8Node n;
    n.index = i;
    if (V8Error e = read_node_fields(doc, v, "nodes[" + std::to_string(i) + "]", &n); e.failed())
      return e;
    if (!by_id.emplace(n.id, i).second)
      return {"nodes[" + std::to_string(i) + "].id: " + std::to_string(n.id) +
                  " is the id of an earlier node too",
              doc.offset(v)};
    list.push_back(std::move(n));
  }
  // Parents from the children lists.
  for (uint32_t p = 0; p < list.size(); p++) {
    const std::string path = "nodes[" + std::to_string(p) + "]";
    uint32_t children = JsonDoc::npos;
    if (V8Error e = json_array(doc, list[p].json, "children", path, false, &children); e.failed())
      return e;
    if (children == JsonDoc::npos) continue;
    uint32_t k = 0;
    for (uint32_t c = doc.first(children); k < doc.size(children); c = doc.next(c), k++) {
      const std::string cpath = path + ".children[" + std::to_string(k) + "]";
      int64_t id = 0;
      if (!doc.integer(c, &id)) return type_error(doc, c, cpath, "an integer node id");
      auto it = by_id.find(id);
      if (it == by_id.end())
        return {cpath + ": no node has id " + std::to_string(id), doc.offset(c)};
      if (list[it->second].parent != V8Node::kRoot || it->second == p)
        return {cpath + ": node " + std::to_string(id) + " already has a parent", doc.offset(c)};
      list[it->second].parent = p;
    }
  }
  // Parents first: breadth first from the roots; a node never reached is on a cycle.
  std::vector<std::vector<uint32_t>> kids(list.size());
  std::vector<uint32_t> order;
  for (uint32_t p = 0; p < list.size(); p++)
    if (list[p].parent == V8Node::kRoot)
      order.push_back(p);
    else
      kids[list[p].parent].push_back(p);
  for (size_t at = 0; at < order.size(); at++)
    for (uint32_t c : kids[order[at]]) order.push_back(c);
  if (order.size() != list.size()) {
    std::vector<bool> seen(list.size());
    for (uint32_t o : order) seen[o] = true;
    const uint32_t lost =
        static_cast<uint32_t>(std::find(seen.begin(), seen.end(), false) - seen.begin());
    return {"nodes[" + std::to_string(lost) + "] (id " + std::to_string(list[lost].id) +
                ") is on a cycle of children",
            doc.offset(list[lost].json)};
  }
  std::vector<uint32_t> position(list.size());
  for (uint32_t o = 0; o < order.size(); o++) position[order[o]] = o;
  out->clear();
  out->reserve(list.size());
  for (uint32_t o : order) {
    V8Node n = std::move(list[o]);
    if (n.parent != V8Node::kRoot) n.parent = position[n.parent];
    out->push_back(std::move(n));
  }
  return {};
}

V8Error read_nested_nodes(const JsonDoc &doc, uint32_t head, std::vector<V8Node> *out) {
  out->clear();
  struct Pending {
    uint32_t json, parent, index;
  };
  std::vector<Pending> stack{{head, V8Node::kRoot, 0}};
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    V8Node n;
    n.parent = p.parent;
    n.index = p.index;
    n.nested = true;
    out->push_back(n);
    const uint32_t self = static_cast<uint32_t>(out->size() - 1);
    const std::string mark(kNodeMark);
    if (V8Error e = read_node_fields(doc, p.json, mark, &out->back()); e.failed())
      return at_node(e, *out, self);
    uint32_t children = JsonDoc::npos;
    if (V8Error e = json_array(doc, p.json, "children", mark, false, &children); e.failed())
      return at_node(e, *out, self);
    if (children == JsonDoc::npos) continue;
    const size_t first = stack.size();
    uint32_t k = 0;
    for (uint32_t c = doc.first(children); k < doc.size(children); c = doc.next(c), k++)
      stack.push_back({c, self, k});
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
  }
  return {};
}

V8Frames::Place V8Frames::place(const V8Node &n, int32_t line0, std::optional<int32_t> column0,
                                bool start) {
  Place p;
  const std::string path = ScriptSourceMaps::script_path(n.url);
  p.file = path.empty() ? n.url : path;
  p.line = line0 >= 0 ? line0 + 1 : 0;
  if (!source_maps_ || path.empty() || line0 < 0) return p;
  const SourceMap *map = maps_.find(n.url);
  if (!map) return p;
  std::optional<OriginalPosition> o = map->find(line0, column0);
  if (!o && start) o = map->find_next(line0, std::max(column0.value_or(0), 0));
  // A tick that maps to nothing is nowhere in the source: its generated line is no line there
  // (vitest runs src/x.ts transformed, under the same path), so it keeps the function's start.
  if (!o || map->sources()[o->source].empty()) return start ? p : Place{};
  return {map->sources()[o->source], o->line + 1, true};
}

FunctionId V8Frames::function(const V8Node &n) {
  std::string key =
      n.url + '\n' + std::to_string(n.line) + '\n' + std::to_string(n.column) + '\n' + n.function;
  if (auto it = functions_.find(key); it != functions_.end()) return it->second;
  Function f;
  std::string name = n.function.empty() ? "(anonymous)" : n.function;
  if (!n.url.empty()) {
    const Place start = place(n, n.line, n.column, true);
    f.file = b_.intern(start.file);
    f.start_line = start.line;
    // `total (cart.ts:12)`, as DevTools names them: functions are told apart by name, and
    // JavaScript has many of one name (every `(anonymous)`).
    std::string_view where = start.file;
    if (where.rfind("node:", 0) != 0 && where.find('/') != std::string_view::npos)
      where = where.substr(where.rfind('/') + 1);
    name +=
        " (" + std::string(where) + (start.line > 0 ? ":" + std::to_string(start.line) : "") + ")";
    if (start.mapped)
      f.system_name =
          b_.intern(n.url + ":" + std::to_string(n.line + 1) + ":" + std::to_string(n.column + 1));
  }
  f.name = b_.intern(name);
  const FunctionId id = b_.function(f);
  functions_.emplace(std::move(key), id);
  return id;
}

FrameId V8Frames::frame(const V8Node &n, int32_t line1) {
  Frame fr;
  fr.function = function(n);
  fr.kind = n.url.empty() ? FrameKind::native : FrameKind::unknown;
  const Function &f = b_.profile().functions[fr.function];
  fr.line = f.start_line;
  if (line1 > 0) {
    const Place at = place(
        n, line1 - 1, line1 - 1 == n.line ? std::optional<int32_t>(n.column) : std::nullopt, false);
    // A line mapping into another file than the function's start, or to nothing, keeps the
    // start line.
    if (!at.file.empty() && b_.intern(at.file) == f.file) fr.line = at.line;
  }
  return b_.frame(fr);
}

void V8Frames::flush_warnings() {
  for (; warned_ < maps_.warnings().size(); warned_++) b_.warn(maps_.warnings()[warned_]);
}

LoadResult read_v8_file(std::string_view data, const LoadOptions &options,
                        const std::string &format, const std::string &producer, const V8Add &add) {
  JsonDoc doc;
  std::string err;
  int64_t offset = -1;
  if (!doc.parse(data, &err, &offset, options.cancel))
    return LoadResult::failure(format + ": " + err, offset);
  ProfileBuilder b;
  V8Frames frames(b, options.source_maps);
  if (V8Error e = add(b, frames, doc, b.thread("main")); e.failed())
    return LoadResult::failure(format + ": " + e.message, e.offset);
  b.metadata().format = format;
  b.metadata().producer = producer;
  return LoadResult::success(b.finish());
}

} // namespace hotlines
