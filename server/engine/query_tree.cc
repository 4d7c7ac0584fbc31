// Call trees, callers, hottest path and flame graph (see query_tree.h).
//
// Both directions first build a merged tree ("result nodes") keyed by (parent result node,
// node key), where the node key is the function key, or (function key, line) in lines mode.
// Callees map every stack-tree node under an anchor (or every node) in one pass in id order;
// callers walk up from the innermost anchor of each weighted stack. An unanchored callee tree
// of a view over the profile's own stacks (the flame graph) reuses the index's CalleeShape and
// only adds weights. The result is emitted in preorder with children sorted by total, then
// name.
#include "server/engine/query_tree.h"

#include "formats/huge_pages.h"
#include "server/engine/callee_shape.h"
#include "server/engine/child_index.h"
#include "server/engine/flat_map.h"
#include "server/engine/function_keys.h"
#include "server/engine/line_keys.h"
#include "server/engine/parallel.h"
#include "server/engine/profile_index.h"

#include <algorithm>

namespace hotlines {

namespace {

constexpr uint32_t kVirtualRoot = kTopParent;

bool cancelled(const std::atomic<bool> *c) {
  return c && c->load(std::memory_order_relaxed);
}

// Per-frame anchor flags, or empty when the options name no anchor.
std::vector<uint8_t> anchor_frames(const ViewWeights &v, const TreeOptions &o,
                                   const std::atomic<bool> *cancel) {
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
    std::vector<uint8_t> keys = v.functions().match(o.method, cancel);
    out.resize(p.frames.size());
    for (size_t i = 0; i < p.frames.size(); i++) out[i] = keys[v.functions().map().of_frame[i]];
  }
  return out;
}

// The weights of one result node, side by side: the passes that sum them and the emission that
// reads them touch one cache line per node.
struct NodeWeight {
  int64_t total = 0, self = 0;
  int64_t best = -1; // the weight of `frame`
  FrameId frame = 0; // the heaviest frame merged into the node (ties: the lowest id)

  void offer_frame(FrameId f, int64_t w) {
    if (w > best || (w == best && f < frame)) {
      best = w;
      frame = f;
    }
  }
};

// The merged tree before ordering. Result node ids grow from parents to children.
struct Merged {
  std::vector<uint32_t> parent, key, depth;
  std::vector<NodeWeight> weight;
  FlatMap<uint32_t> ids{1024}; // (parent, key) -> node, for the callers walk

  void reserve(size_t n) {
    for (auto *v : {&parent, &key, &depth}) v->reserve(n);
    weight.reserve(n);
  }

  uint32_t add(uint32_t par, uint32_t key_id) {
    parent.push_back(par);
    key.push_back(key_id);
    depth.push_back(par == kVirtualRoot ? 0 : depth[par] + 1);
    weight.emplace_back();
    return static_cast<uint32_t>(parent.size() - 1);
  }
  uint32_t child(uint32_t par, uint32_t key_id) {
    bool inserted = false;
    uint32_t &id = ids.find_or_insert((static_cast<uint64_t>(par) << 32) | key_id,
                                      static_cast<uint32_t>(parent.size()), &inserted);
    if (inserted) add(par, key_id);
    return id;
  }
};

// Callees in one pass in stack-tree id order (parents first, memory read sequentially): a
// node joins the child of its parent's result node that has its key — found on that result
// node's short list of children — or starts a top-level node at a root or an outermost
// anchor. The stack-tree nodes merged into one result node never nest, so its total is the
// sum of their subtree weights. Levels past max_depth are never built.
void merge_callees(const ViewWeights &v, const NodeKeys &nk, const std::vector<uint8_t> &anchor,
                   uint32_t max_depth, Merged &m, const std::atomic<bool> *cancel) {
  const StackTree &t = *v.tree;
  const NodeTotals &cum = v.cum();
  const bool anchored = !anchor.empty();
  std::vector<uint32_t> map(t.size(), kNoNode);
  m.reserve(t.size());
  ChildIndex children(t.size());
  auto child = [&](uint32_t par, uint32_t k) {
    const uint32_t p = par == kVirtualRoot ? ChildIndex::kNone : par;
    uint32_t c = children.find(p, k);
    if (c != ChildIndex::kNone) return c;
    children.add(p, k);
    return m.add(par, k);
  };
  for (size_t i = 0; i < t.size(); i++) {
    if ((i & 0xffff) == 0 && cancelled(cancel)) return;
    if (cum[i] == 0) continue;
    uint32_t n = static_cast<uint32_t>(i), par = t.parent(n);
    FrameId f = t.frame(n);
    uint32_t pr;
    if (par != kNoNode && map[par] != kNoNode) {
      pr = map[par];
      if (max_depth && m.depth[pr] + 1 >= max_depth) continue;
    } else if (anchored ? anchor[f] != 0 : par == kNoNode) {
      pr = kVirtualRoot;
    } else {
      continue;
    }
    uint32_t r = child(pr, nk.of_frame[f]);
    map[n] = r;
    NodeWeight &w = m.weight[r];
    w.total += cum[n];
    w.offer_frame(f, cum[n]);
  }
  v.self().for_each([&](uint32_t n, int64_t w) {
    if (map[n] != kNoNode) m.weight[map[n]].self += w;
  });
}

void merge_callers(const ViewWeights &v, const NodeKeys &nk, const std::vector<uint8_t> &anchor,
                   uint32_t max_depth, Merged &m, const std::atomic<bool> *cancel) {
  const StackTree &t = *v.tree;
  std::vector<uint32_t> inner(t.size(), kNoNode);
  std::vector<int64_t> through(t.size(), 0); // weight whose innermost anchor is the node
  for (size_t i = 0; i < t.size(); i++) {
    uint32_t n = static_cast<uint32_t>(i), par = t.parent(n);
    inner[n] = anchor[t.frame(n)] ? n : (par == kNoNode ? kNoNode : inner[par]);
  }
  v.self().for_each([&](uint32_t n, int64_t w) {
    if (inner[n] != kNoNode) through[inner[n]] += w;
  });
  SparseWeights::Scan self(v.self());
  for (size_t i = 0; i < t.size(); i++) {
    if ((i & 0xfff) == 0 && cancelled(cancel)) return;
    if (through[i] == 0) continue;
    uint32_t a = static_cast<uint32_t>(i);
    int64_t w = through[a];
    uint32_t r = m.child(kVirtualRoot, nk.of_frame[t.frame(a)]);
    m.weight[r].total += w;
    m.weight[r].self += self(a);
    m.weight[r].offer_frame(t.frame(a), w);
    uint32_t depth = 1;
    for (uint32_t x = t.parent(a); x != kNoNode && (max_depth == 0 || depth < max_depth);
         x = t.parent(x), depth++) {
      r = m.child(r, nk.of_frame[t.frame(x)]);
      m.weight[r].total += w;
      m.weight[r].offer_frame(t.frame(x), w);
    }
  }
}

// The totals and heaviest frames of a view on the result nodes of the profile's callee shape
// (self weights left 0), on both cores: each worker takes a range of result nodes and sums
// their member stack nodes, whose weights are read in no order, so each is prefetched a few
// members ahead. Every entry is written once; on cancel some are never written, so the caller
// drops the result.
Unwritten<NodeWeight> gather_weights(const StackTree &t, const NodeTotals &cum,
                                     const CalleeShape &shape, const std::atomic<bool> *cancel) {
  const size_t n = shape.size();
  Unwritten<NodeWeight> weight = unwritten_huge<NodeWeight>(n);
  const uint32_t *members = shape.members.data(), *start = shape.member_start.data();
  const size_t last = shape.members.size();
  parallel_ranges(n, 0, [&](unsigned, size_t b, size_t e) {
    constexpr size_t kAhead = 16;
    for (size_t r = b; r < e; r++) {
      if ((r & 0xffff) == 0 && cancelled(cancel)) return;
      NodeWeight w;
      for (uint32_t j = start[r]; j < start[r + 1]; j++) {
        if (j + kAhead < last) cum.prefetch(members[j + kAhead]);
        const uint32_t s = members[j];
        const int64_t c = cum[s];
        if (c == 0) continue;
        w.total += c;
        w.offer_frame(t.frame(s), c);
      }
      weight[r] = w;
    }
  });
  return weight;
}

// The structure and weights emit() reads: a merged tree of n result nodes (parents before
// children), optionally with its children lists in creation order and its node ids.
struct EmitInput {
  size_t n = 0;
  const uint32_t *parent = nullptr, *key = nullptr, *depth = nullptr;
  const NodeWeight *weight = nullptr;
  const std::vector<uint32_t> *start = nullptr, *kids = nullptr; // CSR, top level at n
  const uint64_t *ids = nullptr;
};

EmitInput input_of(const Merged &m) {
  EmitInput in;
  in.n = m.parent.size();
  in.parent = m.parent.data();
  in.key = m.key.data();
  in.depth = m.depth.data();
  in.weight = m.weight.data();
  return in;
}

// Children lists in creation order (CSR): kids[start[r]] .. kids[start[r + 1] - 1] are the
// children of result node r, the top level's at index n.
struct Children {
  std::vector<uint32_t> start, kids;
};

Children children_of(const EmitInput &m) {
  const uint32_t n = static_cast<uint32_t>(m.n);
  auto slot_of = [&](uint32_t r) { return m.parent[r] == kVirtualRoot ? n : m.parent[r]; };
  Children c;
  c.start.assign(n + 2, 0);
  c.kids.resize(n);
  for (uint32_t r = 0; r < n; r++) c.start[slot_of(r) + 1]++;
  for (size_t i = 1; i < c.start.size(); i++) c.start[i] += c.start[i - 1];
  std::vector<uint32_t> fill(c.start.begin(), c.start.end() - 1);
  for (uint32_t r = 0; r < n; r++) c.kids[fill[slot_of(r)]++] = r;
  return c;
}

// The order of siblings: the heavier total first, then by name, then by line.
struct HeavierFirst {
  const EmitInput &m;
  const NodeKeys &nk;
  const FunctionKeys &fk;
  bool operator()(uint32_t a, uint32_t b) const {
    const int64_t ta = m.weight[a].total, tb = m.weight[b].total;
    if (ta != tb) return ta > tb;
    uint32_t ra = fk.rank(nk.function[m.key[a]]), rb = fk.rank(nk.function[m.key[b]]);
    if (ra != rb) return ra < rb;
    return nk.line[m.key[a]] < nk.line[m.key[b]];
  }
};

// What a tree node shows of a result node with node key `key` and weights `w`: its function,
// heaviest frame, line (with `lines` its key's, else the frame's) and weights.
void describe(uint32_t key, const NodeWeight &w, const NodeKeys &nk, const FunctionKeys &fk,
              const Profile &p, bool lines, TreeNode &node) {
  node.function_key = nk.function[key];
  node.frame = w.frame;
  node.line = lines ? nk.line[key] : p.frames[node.frame].line;
  node.self = w.self;
  node.total = w.total;
}

void describe_node(const EmitInput &m, uint32_t r, const NodeKeys &nk, const FunctionKeys &fk,
                   const Profile &p, bool lines, TreeNode &node) {
  describe(m.key[r], m.weight[r], nk, fk, p, lines, node);
}

// Emission in preorder: children are sorted (total desc, then name) on both cores, then one
// depth-first walk with an explicit stack (no recursion on the tree's depth) appends each kept
// node to the output, so every node is written once and in order, with its parent and previous
// sibling patched as it lands. Pruning (depth, min pct) drops whole subtrees; max_nodes keeps a
// preorder prefix. The nodes and totals go into `out`, which names the view's functions.
void emit(const ViewWeights &v, const NodeKeys &nk, const EmitInput &m, const TreeOptions &o,
          CallTree &out) {
  out.view_total = v.total;
  const FunctionKeys &fk = v.functions();
  const Profile &p = v.profile();
  const uint32_t n = static_cast<uint32_t>(m.n);
  // Children lists, the top level's at index n: the given ones, or built here; sorted here.
  Children own;
  if (!m.start) own = children_of(m);
  const std::vector<uint32_t> &start = m.start ? *m.start : own.start;
  std::vector<uint32_t> kids = m.start ? *m.kids : std::move(own.kids);
  parallel_ranges(n + 1, 0, [&](unsigned, size_t b, size_t e) {
    for (size_t r = b; r < e; r++)
      if (start[r + 1] - start[r] > 1)
        std::sort(kids.begin() + start[r], kids.begin() + start[r + 1], HeavierFirst{m, nk, fk});
  });
  for (uint32_t i = start[n]; i < start[n + 1]; i++) out.top_total += m.weight[kids[i]].total;

  // A node is kept when it has weight, is within max_depth and min_pct, and its parent is kept
  // (the walk only descends into kept nodes).
  auto kept = [&](uint32_t r) {
    const int64_t total = m.weight[r].total;
    return total != 0 && (o.max_depth == 0 || m.depth[r] < o.max_depth) &&
           (o.min_pct <= 0 || percent(total, v.total) >= o.min_pct);
  };
  const size_t limit = o.max_nodes ? o.max_nodes : SIZE_MAX;
  if (o.max_depth == 0 && o.min_pct <= 0) reserve_huge(out.nodes, std::min<size_t>(n, limit));
  // The children kids[at, end) of the node at output position `pos` (kNoNode: the top level);
  // `last` is the position of its last child written so far.
  struct Level {
    uint32_t at, end, pos, last;
  };
  std::vector<Level> stack{{start[n], start[n + 1], kNoNode, kNoNode}};
  while (!stack.empty() && out.nodes.size() < limit) {
    Level &level = stack.back();
    if (level.at == level.end) {
      stack.pop_back();
      continue;
    }
    const uint32_t r = kids[level.at++];
    if (!kept(r)) continue;
    const uint32_t at = static_cast<uint32_t>(out.nodes.size());
    const uint32_t parent = level.pos;
    if (level.last != kNoNode)
      out.nodes[level.last].next_sibling = at;
    else if (parent != kNoNode)
      out.nodes[parent].first_child = at;
    level.last = at;
    TreeNode &node = out.nodes.emplace_back();
    node.parent = parent;
    node.depth = m.depth[r];
    describe_node(m, r, nk, fk, p, o.lines, node);
    node.id =
        m.ids ? m.ids[r]
              : tree_node_id(parent == kNoNode ? 0 : out.nodes[parent].id,
                             fk.label_hash(node.function_key), o.lines ? nk.line[m.key[r]] : -1);
    stack.push_back({start[r], start[r + 1], at, kNoNode});
  }
}

} // namespace

CallTree call_tree(const ViewWeights &v, const TreeOptions &o, const std::atomic<bool> *cancel) {
  NodeKeys nk = node_keys(v.profile(), v.functions(), o.lines);
  std::vector<uint8_t> anchor = anchor_frames(v, o, cancel);
  const bool anchored = !anchor.empty();
  CallTree out;
  out.functions = &v.functions();
  if (!anchored && o.direction == TreeDirection::callees && v.tree->is_profile_tree() &&
      v.view.grouping == FunctionGrouping::name) {
    // The shape is the profile's; this view only adds its weights.
    std::shared_ptr<const CalleeShape> shape = v.index->callee_shape(o.lines);
    const NodeTotals &cum = v.cum();
    Unwritten<NodeWeight> weight = gather_weights(*v.tree, cum, *shape, cancel);
    if (cancelled(cancel)) return out;
    v.self().for_each([&](uint32_t node, int64_t w) {
      if (cum[node] != 0) weight[shape->of_node[node]].self += w;
    });
    EmitInput in;
    in.n = shape->size();
    in.parent = shape->parent.data();
    in.key = shape->key.data();
    in.depth = shape->depth.data();
    in.weight = weight.get();
    in.start = &shape->start;
    in.kids = &shape->kids;
    in.ids = shape->ids.data();
    emit(v, nk, in, o, out);
  } else {
    Merged m;
    if (o.direction == TreeDirection::callers && anchored)
      merge_callers(v, nk, anchor, o.max_depth, m, cancel);
    else if (o.direction == TreeDirection::callees)
      merge_callees(v, nk, anchor, o.max_depth, m, cancel);
    emit(v, nk, input_of(m), o, out);
  }
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

namespace {

// The hottest path from the roots of a view over the profile's own stacks, in the index's
// CalleeShape: only the children of the nodes on the path are weighed, each from its member
// stack nodes. A member counts as merge_callees would map it: it has weight and its parent
// (a member of the path's previous node) counts too; a child with no such member is not in
// the tree.
std::vector<TreeNode> hottest_path_in_shape(const ViewWeights &v, const NodeKeys &nk,
                                            const CalleeShape &shape, const TreeOptions &o) {
  const FunctionKeys &fk = v.functions();
  const Profile &p = v.profile();
  const StackTree &t = *v.tree;
  const SparseWeights &self = v.self();
  const NodeTotals &cum = v.cum();
  std::vector<uint8_t> mapped(t.size(), 0);
  auto counts = [&](uint32_t s) {
    return cum[s] != 0 && (t.parent(s) == kNoNode || mapped[t.parent(s)]);
  };
  auto heavier = [&](uint32_t a, const NodeWeight &wa, uint32_t b, const NodeWeight &wb) {
    if (wa.total != wb.total) return wa.total > wb.total;
    uint32_t ra = fk.rank(nk.function[shape.key[a]]), rb = fk.rank(nk.function[shape.key[b]]);
    if (ra != rb) return ra < rb;
    return nk.line[shape.key[a]] < nk.line[shape.key[b]];
  };
  std::vector<TreeNode> path;
  uint32_t slot = static_cast<uint32_t>(shape.size());
  for (;;) {
    uint32_t best = kNoNode;
    NodeWeight best_w;
    for (uint32_t i = shape.start[slot]; i < shape.start[slot + 1]; i++) {
      const uint32_t c = shape.kids[i];
      NodeWeight w;
      bool in_tree = false;
      for (uint32_t j = shape.member_start[c]; j < shape.member_start[c + 1]; j++) {
        const uint32_t s = shape.members[j];
        if (!counts(s)) continue;
        in_tree = true;
        w.total += cum[s];
        w.self += self.at(s);
        w.offer_frame(t.frame(s), cum[s]);
      }
      if (in_tree && (best == kNoNode || heavier(c, w, best, best_w))) {
        best = c;
        best_w = w;
      }
    }
    if (best == kNoNode) break;
    for (uint32_t j = shape.member_start[best]; j < shape.member_start[best + 1]; j++)
      if (counts(shape.members[j])) mapped[shape.members[j]] = 1;
    TreeNode node;
    node.parent = path.empty() ? kNoNode : static_cast<uint32_t>(path.size() - 1);
    node.depth = static_cast<uint32_t>(path.size());
    describe(shape.key[best], best_w, nk, fk, p, o.lines, node);
    node.id = shape.ids[best];
    if (!path.empty()) path.back().first_child = static_cast<uint32_t>(path.size());
    path.push_back(node);
    slot = best;
  }
  return path;
}

} // namespace

std::vector<TreeNode> hottest_path(const ViewWeights &v, const TreeOptions &o,
                                   const std::atomic<bool> *cancel) {
  // The merged callee tree, walked from the heaviest top node down the heaviest children
  // (ties by name, then line, as in call_tree) — no emission of the whole tree.
  const FunctionKeys &fk = v.functions();
  const Profile &p = v.profile();
  NodeKeys nk = node_keys(p, fk, o.lines);
  std::vector<uint8_t> anchor = anchor_frames(v, o, cancel);
  if (anchor.empty() && v.tree->is_profile_tree() && v.view.grouping == FunctionGrouping::name)
    return hottest_path_in_shape(v, nk, *v.index->callee_shape(o.lines), o);
  Merged merged;
  merge_callees(v, nk, anchor, 0, merged, cancel);
  const EmitInput m = input_of(merged);
  std::vector<TreeNode> path;
  const uint32_t n = static_cast<uint32_t>(m.n);
  const auto [start, kids] = children_of(m);
  const HeavierFirst heavier{m, nk, fk};
  uint32_t slot = n;
  uint64_t parent_id = 0;
  for (;;) {
    uint32_t best = kNoNode;
    for (uint32_t i = start[slot]; i < start[slot + 1]; i++)
      if (best == kNoNode || heavier(kids[i], best)) best = kids[i];
    if (best == kNoNode) break;
    TreeNode node;
    node.parent = path.empty() ? kNoNode : static_cast<uint32_t>(path.size() - 1);
    node.depth = static_cast<uint32_t>(path.size());
    describe_node(m, best, nk, fk, p, o.lines, node);
    node.id = tree_node_id(parent_id, fk.label_hash(node.function_key), o.lines ? node.line : -1);
    parent_id = node.id;
    if (!path.empty()) path.back().first_child = static_cast<uint32_t>(path.size());
    path.push_back(node);
    slot = best;
  }
  return path;
}

} // namespace hotlines
