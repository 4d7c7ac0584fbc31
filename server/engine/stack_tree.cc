// StackTree (see stack_tree.h).
// Threading: Built on one thread; immutable afterwards, any thread.
#include "server/engine/stack_tree.h"

#include "server/engine/flat_map.h"

namespace hotlines {

StackTree::StackTree(const Profile &p) {
  parent_ = p.stack_parent.data();
  frame_ = p.stack_frame.data();
  size_ = p.stack_count();
}

// One pass over the stacks in id order (parents first): a hidden frame's stack maps to its
// parent's node; any other stack joins its parent node's child with its frame, or adds it. A
// node that only one stack maps to so far cannot have such a child yet (stacks are unique by
// parent and frame), so the lookup is skipped there: it is needed only below hidden frames,
// where several stacks map to one node. A node's children are a list (scanned by frame) until
// it has more than a few, then also a hash map; what a node's own lookup reads sits in one
// record, so a path that starts under a far node costs one cache miss there.
std::shared_ptr<const StackTree> StackTree::without_frames(const Profile &p,
                                                           const std::vector<uint8_t> &hidden,
                                                           const std::atomic<bool> *cancel) {
  constexpr uint32_t kScan = 8;
  struct Kids {
    uint32_t first = kNoNode; // the last child added; the list goes on through `next`
    uint32_t count = 0;       // children
    uint32_t shared = 0;      // 1 when more than one stack maps to the node
  };
  auto t = std::shared_ptr<StackTree>(new StackTree());
  const size_t n = p.stack_count();
  t->node_of_stack_.resize(n);
  t->hidden_ = hidden;
  t->own_parent_.reserve(n);
  t->own_frame_.reserve(n);
  t->origin_.reserve(n);
  std::vector<Kids> kids;     // per node
  std::vector<uint32_t> next; // per node: its previous sibling in its parent's list
  kids.reserve(n);
  next.reserve(n);
  Kids top;
  FlatMap<uint32_t> wide(64); // (parent, frame) -> child, for parents with many children
  auto wide_key = [](uint32_t parent, FrameId f) {
    return (static_cast<uint64_t>(parent) << 32) | f;
  };
  for (size_t s = 0; s < n; s++) {
    if ((s & 0xffff) == 0 && cancel && cancel->load(std::memory_order_relaxed)) return nullptr;
    const StackId par = p.stack_parent[s];
    const uint32_t pnode = par == kNoStack ? kNoNode : t->node_of_stack_[par];
    const FrameId f = p.stack_frame[s];
    Kids &pk = pnode == kNoNode ? top : kids[pnode];
    if (hidden[f]) {
      t->node_of_stack_[s] = pnode;
      pk.shared = 1;
      continue;
    }
    uint32_t id = kNoNode;
    if (pk.shared) {
      if (pk.count <= kScan) {
        for (uint32_t c = pk.first; c != kNoNode && id == kNoNode; c = next[c])
          if (t->own_frame_[c] == f) id = c;
      } else if (const uint32_t *c = wide.find(wide_key(pnode, f))) {
        id = *c;
      }
    }
    if (id == kNoNode) {
      id = static_cast<uint32_t>(t->own_frame_.size());
      t->own_parent_.push_back(pnode);
      t->own_frame_.push_back(f);
      t->origin_.push_back(static_cast<StackId>(s));
      next.push_back(pk.first);
      pk.first = id;
      if (++pk.count == kScan + 1) { // the list got long: index all of it from now on
        for (uint32_t c = id; c != kNoNode; c = next[c])
          wide.find_or_insert(wide_key(pnode, t->own_frame_[c]), c);
      } else if (pk.count > kScan + 1) {
        wide.find_or_insert(wide_key(pnode, f), id);
      }
      kids.emplace_back(); // may move `pk`: not used below
    } else {
      kids[id].shared = 1;
    }
    t->node_of_stack_[s] = id;
  }
  t->parent_ = t->own_parent_.data();
  t->frame_ = t->own_frame_.data();
  t->size_ = t->own_frame_.size();
  return t;
}

} // namespace hotlines
