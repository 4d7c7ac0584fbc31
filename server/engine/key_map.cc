// Self/total sums over a weighted stack tree (see key_map.h).
// Threading: Pure functions over immutable trees and weights; any thread.
#include "server/engine/key_map.h"

#include "server/engine/parallel.h"

namespace hotlines {

std::vector<int64_t> subtree_weights(const StackTree &tree, std::vector<int64_t> self) {
  const size_t n = tree.size();
  std::vector<int64_t> cum = std::move(self);
  cum.resize(n);
  for (size_t i = n; i-- > 0;) {
    uint32_t par = tree.parent(static_cast<uint32_t>(i));
    if (par != kNoNode) cum[par] += cum[i];
  }
  return cum;
}

// In preorder (children in id order) the path to a node is a stack: entering a node pops the
// nodes that are not its ancestors. Preorder positions come from subtree sizes in two passes
// over the nodes in id order, so nothing walks the tree by pointers and nothing recurses. The
// positions are the costly part on a big tree, so every map's flags come from one set of them.
// The passes after the positions split the nodes between the threads: each thread starts its
// range of preorder positions from the path above its first one.
std::vector<std::vector<uint8_t>>
first_on_path(const StackTree &tree, std::span<const KeyMap *const> maps, unsigned threads) {
  const uint32_t n = static_cast<uint32_t>(tree.size());
  // Subtree sizes (children first), then positions: a node takes its parent's next free slot
  // and its children's slots start right after it. `next` holds sizes until a node is placed.
  std::vector<uint32_t> next(n, 1), pos(n);
  for (uint32_t i = n; i-- > 0;)
    if (tree.parent(i) != kNoNode) next[tree.parent(i)] += next[i];
  uint32_t top = 0;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t par = tree.parent(i);
    uint32_t &slot = par == kNoNode ? top : next[par];
    const uint32_t size = next[i];
    pos[i] = slot;
    slot += size;
    next[i] = pos[i] + 1;
  }
  // The node at each preorder position (where the sizes were): two arrays a node are all the
  // scratch (deep-stacks: 12 M nodes).
  std::vector<uint32_t> &order = next;
  parallel_ranges(n, threads, [&](unsigned, size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) order[pos[i]] = static_cast<uint32_t>(i);
  });
  auto frame = [&](uint32_t j) { return tree.frame(order[j]); };
  auto up = [&](uint32_t j) {
    const uint32_t par = tree.parent(order[j]);
    return par == kNoNode ? kNoNode : pos[par];
  };
  // One pass in preorder with the current path as a stack and, per map and key, its
  // occurrences on it. Threads write flags of distinct nodes.
  const size_t m = maps.size();
  std::vector<std::vector<uint8_t>> first(m, std::vector<uint8_t>(n, 0));
  parallel_ranges(n, threads, [&](unsigned, size_t begin, size_t end) {
    std::vector<std::vector<uint32_t>> active(m);
    for (size_t k = 0; k < m; k++) active[k].assign(maps[k]->count, 0);
    std::vector<uint32_t> path; // positions, root first
    // Enters position j; its flags are set when `flag` (the path above `begin` is another
    // range's).
    auto enter = [&](uint32_t j, bool flag) {
      const FrameId f = frame(j);
      for (size_t k = 0; k < m; k++) {
        const uint32_t key = maps[k]->of_frame[f];
        if (key == kNoKey) continue;
        if (flag) first[k][order[j]] = active[k][key] == 0;
        active[k][key]++;
      }
      path.push_back(j);
    };
    std::vector<uint32_t> above; // leaf first
    if (begin < n)
      for (uint32_t a = up(static_cast<uint32_t>(begin)); a != kNoNode; a = up(a))
        above.push_back(a);
    for (size_t i = above.size(); i-- > 0;) enter(above[i], false);
    for (size_t j = begin; j < end; j++) {
      const uint32_t parent = up(static_cast<uint32_t>(j));
      while (!path.empty() && path.back() != parent) {
        const FrameId f = frame(path.back());
        for (size_t k = 0; k < m; k++) {
          const uint32_t key = maps[k]->of_frame[f];
          if (key != kNoKey) active[k][key]--;
        }
        path.pop_back();
      }
      enter(static_cast<uint32_t>(j), true);
    }
  });
  return first;
}

std::vector<uint8_t> first_on_path(const StackTree &tree, const KeyMap &keys, unsigned threads) {
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

std::vector<uint8_t> first_on_path_from_profile(const StackTree &tree, const KeyMap &keys,
                                                std::span<const uint8_t> profile_first) {
  const size_t n = tree.size();
  std::vector<uint8_t> first(n);
  for (size_t i = 0; i < n; i++) {
    const uint32_t node = static_cast<uint32_t>(i);
    first[i] = keys.of_frame[tree.frame(node)] != kNoKey && profile_first[tree.origin(node)];
  }
  return first;
}

const FirstOnPath &first_on_path_once(std::once_flag &once, FirstOnPath &flags,
                                      const StackTree &tree, const KeyMap &keys, unsigned threads) {
  std::call_once(once, [&] {
    flags = std::make_shared<const std::vector<uint8_t>>(first_on_path(tree, keys, threads));
  });
  return flags;
}

KeySums sum_keys(const StackTree &tree, const SparseWeights &self, std::span<const int64_t> cum,
                 const KeyMap &keys, std::span<const uint8_t> first) {
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
