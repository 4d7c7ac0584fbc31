// StackTree: the stack prefix tree queries walk. Either the profile's own stacks (no copy)
// or a rebuilt tree without hidden frames, with a map from every original stack to its node.
// Node ids keep the profile's rule parent < child, so one pass in id order visits parents
// first. Immutable once built; share it between threads freely. A tree over the profile's
// stacks refers to the profile, which must outlive it.
#pragma once

#include "formats/profile.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace hotlines {

inline constexpr uint32_t kNoNode = UINT32_MAX;

class StackTree {
public:
  // The profile's own stacks; node id == stack id.
  explicit StackTree(const Profile &profile);
  // The profile's stacks without the frames f where hidden_frame[f] is set. A stack whose
  // frames are all hidden maps to kNoNode (an empty stack). Returns null when cancelled.
  static std::shared_ptr<const StackTree> without_frames(const Profile &profile,
                                                         const std::vector<uint8_t> &hidden_frame,
                                                         const std::atomic<bool> *cancel);

  size_t size() const { return size_; }
  uint32_t parent(uint32_t node) const { return parent_[node]; }
  FrameId frame(uint32_t node) const { return frame_[node]; }
  // Asks for the frames of `node` and the nodes after it ahead of reading them.
  void prefetch_frames(uint32_t node) const { __builtin_prefetch(frame_ + node); }
  // The node of an original stack (kNoNode for kNoStack or an all-hidden stack).
  uint32_t node_of_stack(StackId stack) const {
    if (stack == kNoStack) return kNoNode;
    return node_of_stack_.empty() ? stack : node_of_stack_[stack];
  }
  // True when node ids are the profile's stack ids.
  bool is_profile_tree() const { return node_of_stack_.empty(); }
  const std::vector<uint32_t> &stack_map() const { return node_of_stack_; }
  // The first stack (lowest id) that maps to a node: the node itself in the profile's tree.
  StackId origin(uint32_t node) const { return origin_.empty() ? node : origin_[node]; }
  // Per frame, 1 when the tree hides it (empty for the profile's tree).
  const std::vector<uint8_t> &hidden_frames() const { return hidden_; }

private:
  StackTree() = default;

  const uint32_t *parent_ = nullptr;
  const uint32_t *frame_ = nullptr;
  size_t size_ = 0;
  std::vector<uint32_t> own_parent_, own_frame_, origin_;
  std::vector<uint32_t> node_of_stack_;
  std::vector<uint8_t> hidden_;
};

} // namespace hotlines
