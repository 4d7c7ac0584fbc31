// Self/total sums over a weighted stack tree (see key_map.h).
// Threading: Pure functions over immutable trees and weights; any thread.
#include "server/engine/key_map.h"

#include "formats/huge_pages.h"
#include "server/engine/parallel.h"

namespace hotlines {

// In preorder (children in id order) the path to a node is a stack: entering a node pops the
// nodes that are not its ancestors. The preorder comes from subtree sizes in two passes over
// the nodes in id order, so nothing walks the tree by pointers and nothing recurses. It is the
// costly part on a big tree, so every map's flags come from one preorder. The pass over the
// preorder splits it between the threads: each thread starts its range from the path above
// its first node.
std::vector<NodeFlags> first_on_path(const StackTree &tree, std::span<const KeyMap *const> maps,
                                     unsigned threads) {
  const uint32_t n = static_cast<uint32_t>(tree.size());
  // Subtree sizes (children first), then the preorder: a node takes its parent's next free
  // position and its children's positions start right after it. `next` holds sizes until a
  // node is placed. Two arrays a node are all the scratch (deep-stacks: 12 M nodes), and
  // `next` is gone before the flags are made.
  std::vector<uint32_t> order;
  resize_huge(order, n);
  {
    std::vector<uint32_t> next;
    reserve_huge(next, n);
    next.assign(n, 1);
    for (uint32_t i = n; i-- > 0;)
      if (tree.parent(i) != kNoNode) next[tree.parent(i)] += next[i];
    uint32_t top = 0;
    for (uint32_t i = 0; i < n; i++) {
      const uint32_t par = tree.parent(i);
      uint32_t &slot = par == kNoNode ? top : next[par];
      const uint32_t at = slot;
      slot += next[i];
      order[at] = i;
      next[i] = at + 1;
    }
  }
  // One pass in preorder with the current path (nodes, root first) as a stack and, per map
  // and key, its occurrences on it. Threads write the flags of distinct nodes, a byte each
  // (bits would share words between threads); each map's bytes are packed into bits after.
  const size_t m = maps.size();
  std::vector<std::vector<uint8_t>> first(m);
  for (std::vector<uint8_t> &f : first) resize_huge(f, n);
  parallel_ranges(n, threads, [&](unsigned, size_t begin, size_t end) {
    std::vector<std::vector<uint32_t>> active(m);
    for (size_t k = 0; k < m; k++) active[k].assign(maps[k]->count, 0);
    std::vector<uint32_t> path;
    // Enters `node`; its flags are set when `flag` (the path above `begin` is another range's).
    auto enter = [&](uint32_t node, bool flag) {
      const FrameId f = tree.frame(node);
      for (size_t k = 0; k < m; k++) {
        const uint32_t key = maps[k]->of_frame[f];
        if (key == kNoKey) continue;
        if (flag) first[k][node] = active[k][key] == 0;
        active[k][key]++;
      }
      path.push_back(node);
    };
    std::vector<uint32_t> above; // leaf first
    if (begin < n)
      for (uint32_t a = tree.parent(order[begin]); a != kNoNode; a = tree.parent(a))
        above.push_back(a);
    for (size_t i = above.size(); i-- > 0;) enter(above[i], false);
    for (size_t j = begin; j < end; j++) {
      const uint32_t node = order[j], parent = tree.parent(node);
      while (!path.empty() && path.back() != parent) {
        const FrameId f = tree.frame(path.back());
        for (size_t k = 0; k < m; k++) {
          const uint32_t key = maps[k]->of_frame[f];
          if (key != kNoKey) active[k][key]--;
        }
        path.pop_back();
      }
      enter(node, true);
    }
  });
  std::vector<uint32_t>().swap(order);
  std::vector<NodeFlags> out;
  for (std::vector<uint8_t> &f : first) {
    out.push_back(NodeFlags::of_bytes(f));
    std::vector<uint8_t>().swap(f);
  }
  return out;
}

NodeFlags first_on_path(const StackTree &tree, const KeyMap &keys, unsigned threads) {
  const KeyMap *maps[] = {&keys};
  return std::move(first_on_path(tree, maps, threads)[0]);
}

bool hides_whole_keys(const std::vector<uint8_t> &hidden, const KeyMap &keys) {
  enum : uint8_t { unseen, shown, hid };
  std::vector<uint8_t> state(keys.count, unseen);
  for (size_t f = 0; f < keys.of_frame.size(); f++) {
    const uint32_t k = keys.of_frame[f];
    if (k == kNoKey) continue;
    const uint8_t s = hidden[f] ? hid : shown;
    if (state[k] == unseen)
      state[k] = s;
    else if (state[k] != s)
      return false;
  }
  return true;
}

NodeFlags first_on_path_from_profile(const StackTree &tree, const KeyMap &keys,
                                     const NodeFlags &profile_first) {
  const size_t n = tree.size();
  NodeFlags first(n);
  for (size_t i = 0; i < n; i++) {
    const uint32_t node = static_cast<uint32_t>(i);
    if (keys.of_frame[tree.frame(node)] != kNoKey && profile_first[tree.origin(node)]) first.set(i);
  }
  return first;
}

const FirstOnPath &first_on_path_once(std::once_flag &once, FirstOnPath &flags,
                                      const StackTree &tree, const KeyMap &keys, unsigned threads) {
  std::call_once(
      once, [&] { flags = std::make_shared<const NodeFlags>(first_on_path(tree, keys, threads)); });
  return flags;
}

KeySums sum_keys(const StackTree &tree, const SparseWeights &self, const NodeTotals &cum,
                 const KeyMap &keys, const NodeFlags &first) {
  KeySums s;
  s.self.assign(keys.count, 0);
  s.total.assign(keys.count, 0);
  const size_t n = tree.size();
  for (size_t i = 0; i < n; i++) {
    if (cum[i] == 0 || !first[i]) continue;
    uint32_t k = keys.of_frame[tree.frame(static_cast<uint32_t>(i))];
    if (k != kNoKey) s.total[k] += cum[i];
  }
  self.for_each([&](uint32_t node, int64_t w) {
    uint32_t k = keys.of_frame[tree.frame(node)];
    if (k != kNoKey) s.self[k] += w;
  });
  return s;
}

} // namespace hotlines
