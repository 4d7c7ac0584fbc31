// StackTree (see stack_tree.h).
// Threading: Built on one thread; immutable afterwards, any thread.
#include "server/engine/stack_tree.h"

#include "server/engine/child_index.h"

namespace hotlines {

StackTree::StackTree(const Profile &p) {
  parent_ = p.stack_parent.data();
  frame_ = p.stack_frame.data();
  size_ = p.stack_count();
  link_children();
}

void StackTree::link_children() {
  first_child_.assign(size_, kNoNode);
  next_sibling_.assign(size_, kNoNode);
  first_root_ = kNoNode;
  for (size_t i = size_; i-- > 0;) {
    uint32_t n = static_cast<uint32_t>(i), par = parent_[n];
    uint32_t &head = par == kNoStack ? first_root_ : first_child_[par];
    next_sibling_[n] = head;
    head = n;
  }
}

std::shared_ptr<const StackTree> StackTree::without_frames(const Profile &p,
                                                           const std::vector<uint8_t> &hidden,
                                                           const std::atomic<bool> *cancel) {
  auto t = std::shared_ptr<StackTree>(new StackTree());
  const size_t n = p.stack_count();
  t->node_of_stack_.resize(n);
  ChildIndex children(n);
  t->own_parent_.reserve(n);
  t->own_frame_.reserve(n);
  for (size_t s = 0; s < n; s++) {
    if ((s & 0xffff) == 0 && cancel && cancel->load(std::memory_order_relaxed)) return nullptr;
    StackId par = p.stack_parent[s];
    uint32_t pnode = par == kNoStack ? kNoNode : t->node_of_stack_[par];
    FrameId f = p.stack_frame[s];
    if (hidden[f]) {
      t->node_of_stack_[s] = pnode;
      continue;
    }
    uint32_t id = children.find(pnode, f);
    if (id == ChildIndex::kNone) {
      id = children.add(pnode, f);
      t->own_parent_.push_back(pnode);
      t->own_frame_.push_back(f);
    }
    t->node_of_stack_[s] = id;
  }
  t->parent_ = t->own_parent_.data();
  t->frame_ = t->own_frame_.data();
  t->size_ = t->own_frame_.size();
  t->link_children();
  return t;
}

} // namespace hotlines
