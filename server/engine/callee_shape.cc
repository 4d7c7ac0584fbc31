// CalleeShape, node keys and node ids (see callee_shape.h).
// Threading: Builds once per index (under ProfileIndex's call_once); the result is read-only.
#include "server/engine/callee_shape.h"

#include "server/engine/child_index.h"
#include "server/engine/flat_map.h"

namespace hotlines {

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

uint64_t tree_node_id(uint64_t parent_id, uint64_t label_hash, int32_t line) {
  uint64_t h = parent_id * 0x9E3779B97F4A7C15ull ^ label_hash;
  h ^= static_cast<uint64_t>(static_cast<uint32_t>(line)) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  return h & ((1ull << 53) - 1);
}

namespace {

// Renumbers the result nodes (parent, key, depth, of_node; numbered in creation order, parents
// first) in preorder with children in creation order, so that every subtree is one block of
// ids: a walk of the tree in any sibling order (a flame graph's emission) and the stack nodes
// of one path then read nearby memory. Positions come from subtree sizes, without a walk.
void renumber_in_preorder(CalleeShape &s) {
  const uint32_t n = static_cast<uint32_t>(s.parent.size());
  // Subtree sizes (children first), then positions: a node takes its parent's next free slot
  // and its children's slots start right after it. `next` holds sizes until a node is placed.
  std::vector<uint32_t> next(n, 1), pos(n);
  for (uint32_t r = n; r-- > 0;)
    if (s.parent[r] != kTopParent) next[s.parent[r]] += next[r];
  uint32_t top_next = 0;
  for (uint32_t r = 0; r < n; r++) {
    uint32_t &slot = s.parent[r] == kTopParent ? top_next : next[s.parent[r]];
    const uint32_t size = next[r];
    pos[r] = slot;
    slot += size;
    next[r] = pos[r] + 1;
  }
  // Parent and key move together (one scattered write per node); depths follow from parents.
  std::vector<uint64_t> moved(n);
  for (uint32_t r = 0; r < n; r++) {
    const uint32_t par = s.parent[r] == kTopParent ? kTopParent : pos[s.parent[r]];
    moved[pos[r]] = (static_cast<uint64_t>(par) << 32) | s.key[r];
  }
  for (uint32_t r = 0; r < n; r++) {
    s.parent[r] = static_cast<uint32_t>(moved[r] >> 32);
    s.key[r] = static_cast<uint32_t>(moved[r]);
    s.depth[r] = s.parent[r] == kTopParent ? 0 : s.depth[s.parent[r]] + 1;
  }
  for (uint32_t &r : s.of_node) r = pos[r];
}

} // namespace

std::shared_ptr<const CalleeShape> build_callee_shape(const Profile &p, const StackTree &t,
                                                      const FunctionKeys &fk, bool lines) {
  auto s = std::make_shared<CalleeShape>();
  NodeKeys nk = node_keys(p, fk, lines);
  const size_t nodes = t.size();
  s->of_node.resize(nodes);
  s->parent.reserve(nodes);
  s->key.reserve(nodes);
  s->depth.reserve(nodes);
  ChildIndex children(nodes);
  for (size_t i = 0; i < nodes; i++) {
    uint32_t n = static_cast<uint32_t>(i), par = t.parent(n);
    uint32_t pr = par == kNoNode ? ChildIndex::kNone : s->of_node[par];
    uint32_t k = nk.of_frame[t.frame(n)];
    uint32_t r = children.find(pr, k);
    if (r == ChildIndex::kNone) {
      r = children.add(pr, k);
      s->parent.push_back(pr == ChildIndex::kNone ? kTopParent : pr);
      s->key.push_back(k);
      s->depth.push_back(pr == ChildIndex::kNone ? 0 : s->depth[pr] + 1);
    }
    s->of_node[n] = r;
  }
  const uint32_t n = static_cast<uint32_t>(s->parent.size());
  renumber_in_preorder(*s);
  s->start.assign(n + 2, 0);
  s->kids.resize(n);
  auto slot_of = [&](uint32_t r) { return s->parent[r] == kTopParent ? n : s->parent[r]; };
  for (uint32_t r = 0; r < n; r++) s->start[slot_of(r) + 1]++;
  for (size_t i = 1; i < s->start.size(); i++) s->start[i] += s->start[i - 1];
  std::vector<uint32_t> fill(s->start.begin(), s->start.end() - 1);
  for (uint32_t r = 0; r < n; r++) s->kids[fill[slot_of(r)]++] = r;
  s->member_start.assign(n + 1, 0);
  s->members.resize(nodes);
  for (uint32_t r : s->of_node) s->member_start[r + 1]++;
  for (uint32_t r = 0; r < n; r++) s->member_start[r + 1] += s->member_start[r];
  std::vector<uint32_t> at(s->member_start.begin(), s->member_start.end() - 1);
  for (size_t i = 0; i < nodes; i++) s->members[at[s->of_node[i]]++] = static_cast<uint32_t>(i);
  s->ids.resize(n);
  for (uint32_t r = 0; r < n; r++) {
    uint32_t k = s->key[r];
    s->ids[r] = tree_node_id(s->parent[r] == kTopParent ? 0 : s->ids[s->parent[r]],
                             fk.label_hash(nk.function[k]), lines ? nk.line[k] : -1);
  }
  return s;
}

} // namespace hotlines
