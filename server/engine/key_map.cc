// Self/total sums over a weighted stack tree (see key_map.h).
// Threading: Pure functions over immutable trees and weights; any thread.
#include "server/engine/key_map.h"

namespace hotlines {

std::vector<int64_t> subtree_weights(const StackTree &tree, std::span<const int64_t> self) {
  const size_t n = tree.size();
  std::vector<int64_t> cum(self.begin(), self.begin() + n);
  for (size_t i = n; i-- > 0;) {
    uint32_t par = tree.parent(static_cast<uint32_t>(i));
    if (par != kNoNode) cum[par] += cum[i];
  }
  return cum;
}

std::vector<uint8_t> first_on_path(const StackTree &tree, const KeyMap &keys) {
  const size_t n = tree.size();
  std::vector<uint8_t> first(n, 0);
  std::vector<uint32_t> active(keys.count, 0); // occurrences of each key on the current path
  // Depth-first walk over first_child/next_sibling without recursion.
  uint32_t node = tree.first_root();
  auto enter = [&](uint32_t v) {
    uint32_t k = keys.of_frame[tree.frame(v)];
    if (k != kNoKey) first[v] = active[k]++ == 0;
  };
  auto leave = [&](uint32_t v) {
    uint32_t k = keys.of_frame[tree.frame(v)];
    if (k != kNoKey) active[k]--;
  };
  while (node != kNoNode) {
    enter(node);
    if (tree.first_child(node) != kNoNode) {
      node = tree.first_child(node);
      continue;
    }
    // Leave nodes until one has a next sibling.
    for (;;) {
      leave(node);
      if (tree.next_sibling(node) != kNoNode) {
        node = tree.next_sibling(node);
        break;
      }
      node = tree.parent(node);
      if (node == kNoNode) break;
    }
  }
  return first;
}

const FirstOnPath &first_on_path_once(std::once_flag &once, FirstOnPath &flags,
                                      const StackTree &tree, const KeyMap &keys) {
  std::call_once(once, [&] {
    flags = std::make_shared<const std::vector<uint8_t>>(first_on_path(tree, keys));
  });
  return flags;
}

KeySums sum_keys(const StackTree &tree, std::span<const int64_t> self, std::span<const int64_t> cum,
                 const KeyMap &keys, std::span<const uint8_t> first) {
  KeySums s;
  s.self.assign(keys.count, 0);
  s.total.assign(keys.count, 0);
  const size_t n = tree.size();
  for (size_t i = 0; i < n; i++) {
    if (cum[i] == 0) continue;
    uint32_t k = keys.of_frame[tree.frame(static_cast<uint32_t>(i))];
    if (k == kNoKey) continue;
    s.self[k] += self[i];
    if (first[i]) s.total[k] += cum[i];
  }
  return s;
}

} // namespace hotlines
