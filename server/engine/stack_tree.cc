// StackTree (see stack_tree.h).
// Threading: Built on one thread; immutable afterwards, any thread.
#include "server/engine/stack_tree.h"

#include "server/engine/child_index.h"

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
// where several stacks map to one node.
std::shared_ptr<const StackTree> StackTree::without_frames(const Profile &p,
                                                           const std::vector<uint8_t> &hidden,
                                                           const std::atomic<bool> *cancel) {
  auto t = std::shared_ptr<StackTree>(new StackTree());
  const size_t n = p.stack_count();
  t->node_of_stack_.resize(n);
  t->hidden_ = hidden;
  ChildIndex children(n);
  t->own_parent_.reserve(n);
  t->own_frame_.reserve(n);
  t->origin_.reserve(n);
  std::vector<uint8_t> shared; // per node: more than one stack maps to it
  shared.reserve(n);
  bool shared_top = false; // some all-hidden stack maps to the top level
  for (size_t s = 0; s < n; s++) {
    if ((s & 0xffff) == 0 && cancel && cancel->load(std::memory_order_relaxed)) return nullptr;
    StackId par = p.stack_parent[s];
    uint32_t pnode = par == kNoStack ? kNoNode : t->node_of_stack_[par];
    FrameId f = p.stack_frame[s];
    if (hidden[f]) {
      t->node_of_stack_[s] = pnode;
      if (pnode == kNoNode)
        shared_top = true;
      else
        shared[pnode] = 1;
      continue;
    }
    const bool look = pnode == kNoNode ? shared_top : shared[pnode] != 0;
    uint32_t id = look ? children.find(pnode, f) : ChildIndex::kNone;
    if (id == ChildIndex::kNone) {
      id = children.add(pnode, f);
      t->own_parent_.push_back(pnode);
      t->own_frame_.push_back(f);
      t->origin_.push_back(static_cast<StackId>(s));
      shared.push_back(0);
    } else {
      shared[id] = 1;
    }
    t->node_of_stack_[s] = id;
  }
  t->parent_ = t->own_parent_.data();
  t->frame_ = t->own_frame_.data();
  t->size_ = t->own_frame_.size();
  return t;
}

} // namespace hotlines
