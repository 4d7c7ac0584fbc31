// Call trees, callers, hottest path and flame graph (see query_tree.h).
//
// Both directions first build a merged tree ("result nodes") keyed by (parent result node,
// node key), where the node key is the function key, or (function key, line) in lines mode.
// Callees map every stack-tree node under an anchor (or every node) in one pass in id order;
// callers walk up from the innermost anchor of each weighted stack. The result is emitted in
// preorder with children sorted by total, then name.
#include "server/query_tree.h"

#include "server/flat_map.h"
#include "server/function_keys.h"
#include "server/line_keys.h"
#include "server/profile_index.h"

#include <algorithm>

namespace hotlines {

namespace {

constexpr uint32_t kVirtualRoot = kNoNode - 1;

bool cancelled(const std::atomic<bool> *c) {
  return c && c->load(std::memory_order_relaxed);
}

// Node keys per frame: the function key, or an id for (function key, line).
struct NodeKeys {
  std::vector<uint32_t> of_frame;
  std::vector<uint32_t> function; // node key -> function key
  std::vector<int32_t> line;      // node key -> line (lines mode), else 0
};

NodeKeys node_keys(const Profile &p, const FunctionKeys &fk, bool lines) {
  NodeKeys nk;
  nk.of_frame.resize(p.frames.size());
  if (!lines) {
    for (size_t i = 0; i < p.frames.size(); i++) nk.of_frame[i] = fk.map().of_frame[i];
    nk.function.resize(fk.size());
    for (uint32_t k = 0; k < fk.size(); k++) nk.function[k] = k;
    nk.line.assign(fk.size(), 0);
    return nk;
  }
  FlatMap<uint32_t> ids(p.frames.size() + 16);
  for (size_t i = 0; i < p.frames.size(); i++) {
    uint32_t fn = fk.map().of_frame[i];
    int32_t line = p.frames[i].line;
    bool inserted = false;
    uint32_t &id =
        ids.find_or_insert((static_cast<uint64_t>(fn) << 32) | static_cast<uint32_t>(line),
                           static_cast<uint32_t>(nk.function.size()), &inserted);
    if (inserted) {
      nk.function.push_back(fn);
      nk.line.push_back(line);
    }
    nk.of_frame[i] = id;
  }
  return nk;
}

// Per-frame anchor flags, or empty when the options name no anchor.
std::vector<uint8_t> anchor_frames(const ViewWeights &v, const TreeOptions &o) {
  const Profile &p = v.profile();
  std::vector<uint8_t> out;
  if (!o.file.empty()) {
    const LineKeys &lk = v.lines();
    out.assign(p.frames.size(), 0);
    uint32_t file = lk.find_file(o.file);
    if (file == kNoKey) return out;
    for (size_t i = 0; i < p.frames.size(); i++) {
      uint32_t k = lk.lines().of_frame[i];
      out[i] =
          k != kNoKey && lk.file_of_line(k) == file && (o.line == 0 || lk.line_of(k) == o.line);
    }
    return out;
  }
  if (!o.method.empty()) {
    std::vector<uint8_t> keys = v.functions().match(o.method);
    out.resize(p.frames.size());
    for (size_t i = 0; i < p.frames.size(); i++) out[i] = keys[v.functions().map().of_frame[i]];
  }
  return out;
}

// The merged tree before ordering.
struct Merged {
  std::vector<uint32_t> parent, key;
  std::vector<int64_t> self, total, best_weight;
  std::vector<FrameId> best_frame;
  FlatMap<uint32_t> ids{1024};

  uint32_t child(uint32_t par, uint32_t key_id) {
    bool inserted = false;
    uint32_t &id = ids.find_or_insert((static_cast<uint64_t>(par) << 32) | key_id,
                                      static_cast<uint32_t>(parent.size()), &inserted);
    if (inserted) {
      parent.push_back(par);
      key.push_back(key_id);
      self.push_back(0);
      total.push_back(0);
      best_weight.push_back(-1);
      best_frame.push_back(0);
    }
    return id;
  }
  void offer_frame(uint32_t r, FrameId f, int64_t w) {
    if (w > best_weight[r] || (w == best_weight[r] && f < best_frame[r])) {
      best_weight[r] = w;
      best_frame[r] = f;
    }
  }
};

void merge_callees(const ViewWeights &v, const NodeKeys &nk, const std::vector<uint8_t> &anchor,
                   Merged &m, const std::atomic<bool> *cancel) {
  const StackTree &t = *v.tree;
  std::span<const int64_t> self = v.self(), cum = v.cum();
  const bool anchored = !anchor.empty();
  std::vector<uint32_t> map(t.size(), kNoNode);
  for (size_t i = 0; i < t.size(); i++) {
    if ((i & 0xffff) == 0 && cancelled(cancel)) return;
    if (cum[i] == 0) continue;
    uint32_t n = static_cast<uint32_t>(i), par = t.parent(n);
    FrameId f = t.frame(n);
    uint32_t r;
    if (par != kNoNode && map[par] != kNoNode)
      r = m.child(map[par], nk.of_frame[f]);
    else if (!anchored || anchor[f])
      r = m.child(kVirtualRoot, nk.of_frame[f]);
    else
      continue;
    map[n] = r;
    m.self[r] += self[n];
    m.offer_frame(r, f, cum[n]);
  }
  // Totals: children come after their parents.
  for (size_t r = 0; r < m.self.size(); r++) m.total[r] = m.self[r];
  for (size_t r = m.self.size(); r-- > 0;)
    if (m.parent[r] != kVirtualRoot) m.total[m.parent[r]] += m.total[r];
}

void merge_callers(const ViewWeights &v, const NodeKeys &nk, const std::vector<uint8_t> &anchor,
                   uint32_t max_depth, Merged &m, const std::atomic<bool> *cancel) {
  const StackTree &t = *v.tree;
  std::span<const int64_t> self = v.self();
  std::vector<uint32_t> inner(t.size(), kNoNode);
  std::vector<int64_t> through(t.size(), 0); // weight whose innermost anchor is the node
  for (size_t i = 0; i < t.size(); i++) {
    uint32_t n = static_cast<uint32_t>(i), par = t.parent(n);
    inner[n] = anchor[t.frame(n)] ? n : (par == kNoNode ? kNoNode : inner[par]);
    if (self[n] != 0 && inner[n] != kNoNode) through[inner[n]] += self[n];
  }
  for (size_t i = 0; i < t.size(); i++) {
    if ((i & 0xfff) == 0 && cancelled(cancel)) return;
    if (through[i] == 0) continue;
    uint32_t a = static_cast<uint32_t>(i);
    int64_t w = through[a];
    uint32_t r = m.child(kVirtualRoot, nk.of_frame[t.frame(a)]);
    m.total[r] += w;
    m.self[r] += self[a];
    m.offer_frame(r, t.frame(a), w);
    uint32_t depth = 1;
    for (uint32_t x = t.parent(a); x != kNoNode && (max_depth == 0 || depth < max_depth);
         x = t.parent(x), depth++) {
      r = m.child(r, nk.of_frame[t.frame(x)]);
      m.total[r] += w;
      m.offer_frame(r, t.frame(x), w);
    }
  }
}

uint64_t hash_label(uint64_t h, std::string_view s, int32_t line) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  h ^= static_cast<uint32_t>(line) + 0x9E3779B9u;
  h *= 0x100000001b3ull;
  return h;
}

CallTree emit(const ViewWeights &v, const NodeKeys &nk, const Merged &m, const TreeOptions &o) {
  CallTree out;
  out.view_total = v.total;
  const FunctionKeys &fk = v.functions();
  const Profile &p = v.profile();
  const size_t n = m.parent.size();
  // Children lists (CSR), the virtual root's at index n.
  std::vector<uint32_t> start(n + 2, 0), kids(n);
  for (size_t r = 0; r < n; r++) start[(m.parent[r] == kVirtualRoot ? n : m.parent[r]) + 1]++;
  for (size_t i = 1; i < start.size(); i++) start[i] += start[i - 1];
  std::vector<uint32_t> fill(start.begin(), start.end() - 1);
  for (size_t r = 0; r < n; r++)
    kids[fill[m.parent[r] == kVirtualRoot ? n : m.parent[r]]++] = static_cast<uint32_t>(r);
  auto before = [&](uint32_t a, uint32_t b) {
    if (m.total[a] != m.total[b]) return m.total[a] > m.total[b];
    const std::string &la = fk.label(nk.function[m.key[a]]), &lb = fk.label(nk.function[m.key[b]]);
    if (la != lb) return la < lb;
    return nk.line[m.key[a]] < nk.line[m.key[b]];
  };
  for (size_t r = 0; r <= n; r++)
    std::sort(kids.begin() + start[r], kids.begin() + start[r + 1], before);
  for (uint32_t i = start[n]; i < start[n + 1]; i++) out.top_total += m.total[kids[i]];

  // Preorder emission with an explicit stack of (result node, parent output index).
  struct Item {
    uint32_t r, out_parent;
  };
  std::vector<Item> stack;
  for (uint32_t i = start[n + 1]; i-- > start[n];) stack.push_back({kids[i], kNoNode});
  std::vector<uint32_t> last_child; // per output node, its last emitted child
  while (!stack.empty()) {
    Item it = stack.back();
    stack.pop_back();
    if (o.max_nodes && out.nodes.size() >= o.max_nodes) break;
    uint32_t r = it.r;
    if (o.min_pct > 0 && percent(m.total[r], v.total) < o.min_pct) continue;
    TreeNode node;
    node.parent = it.out_parent;
    node.depth = it.out_parent == kNoNode ? 0 : out.nodes[it.out_parent].depth + 1;
    if (o.max_depth && node.depth >= o.max_depth) continue;
    node.function_key = nk.function[m.key[r]];
    node.name = fk.label(node.function_key);
    node.frame = m.best_frame[r];
    node.line = o.lines ? nk.line[m.key[r]] : p.frames[node.frame].line;
    node.self = m.self[r];
    node.total = m.total[r];
    uint64_t parent_id =
        it.out_parent == kNoNode ? 0xcbf29ce484222325ull : out.nodes[it.out_parent].id;
    node.id = hash_label(parent_id, node.name, o.lines ? node.line : -1) & ((1ull << 53) - 1);
    uint32_t idx = static_cast<uint32_t>(out.nodes.size());
    if (it.out_parent != kNoNode) {
      uint32_t &last = last_child[it.out_parent];
      if (last == kNoNode)
        out.nodes[it.out_parent].first_child = idx;
      else
        out.nodes[last].next_sibling = idx;
      last = idx;
    }
    out.nodes.push_back(node);
    last_child.push_back(kNoNode);
    for (uint32_t i = start[r + 1]; i-- > start[r];) stack.push_back({kids[i], idx});
  }
  return out;
}

} // namespace

CallTree call_tree(const ViewWeights &v, const TreeOptions &o, const std::atomic<bool> *cancel) {
  NodeKeys nk = node_keys(v.profile(), v.functions(), o.lines);
  std::vector<uint8_t> anchor = anchor_frames(v, o);
  Merged m;
  const bool anchored = !anchor.empty();
  if (o.direction == TreeDirection::callers && anchored)
    merge_callers(v, nk, anchor, o.max_depth, m, cancel);
  else if (o.direction == TreeDirection::callees)
    merge_callees(v, nk, anchor, m, cancel);
  CallTree out = emit(v, nk, m, o);
  out.anchored = anchored;
  out.anchor_found = anchored && std::find(anchor.begin(), anchor.end(), 1) != anchor.end();
  return out;
}

CallTree flame_graph(const ViewWeights &v, const TreeOptions &options,
                     const std::atomic<bool> *cancel) {
  TreeOptions o = options;
  o.direction = TreeDirection::callees;
  o.method.clear();
  o.file.clear();
  o.line = 0;
  return call_tree(v, o, cancel);
}

std::vector<TreeNode> hottest_path(const ViewWeights &v, const TreeOptions &options,
                                   const std::atomic<bool> *cancel) {
  TreeOptions o = options;
  o.direction = TreeDirection::callees;
  o.max_depth = 0;
  o.min_pct = 0;
  o.max_nodes = 0;
  CallTree t = call_tree(v, o, cancel);
  std::vector<TreeNode> path;
  if (t.nodes.empty()) return path;
  uint32_t at = 0; // the first top-level node is the heaviest
  while (at != kNoNode) {
    TreeNode n = t.nodes[at];
    uint32_t next = n.first_child;
    n.parent = path.empty() ? kNoNode : static_cast<uint32_t>(path.size() - 1);
    n.first_child = n.next_sibling = kNoNode;
    path.push_back(n);
    at = next;
  }
  return path;
}

} // namespace hotlines
