// Self/total sums over a weighted stack tree (see key_map.h).
// Threading: Pure functions over immutable trees and weights; any thread.
#include "server/engine/key_map.h"

#include "formats/huge_pages.h"
#include "server/engine/parallel.h"

#include <algorithm>
#include <memory>

namespace hotlines {

namespace {

// The tree as chains: a chain starts at a node whose parent is not the node before it and runs
// over the nodes after it that are (a new path's nodes are made one after another: a deep
// tree has few chains, deep-stacks-ap.jfr one per 22 nodes). The scratch of first_on_path is
// per chain, not per node.
struct Chains {
  std::vector<uint32_t> starts;      // chain c is the nodes [starts[c], starts[c + 1])
  std::vector<uint64_t> below;       // parent << 32 | chain, of each chain with a parent, sorted
  std::vector<uint32_t> first_below; // chain c's nodes are the parents of below[fb[c], fb[c+1])
  std::vector<uint32_t> order;       // the chains in the order the walk enters them

  explicit Chains(const StackTree &tree) {
    const uint32_t n = static_cast<uint32_t>(tree.size());
    for (uint32_t i = 0; i < n; i++) {
      const uint32_t parent = tree.parent(i);
      if (i > 0 && parent == i - 1) continue;
      if (parent != kNoNode) below.push_back(uint64_t{parent} << 32 | starts.size());
      starts.push_back(i);
    }
    std::sort(below.begin(), below.end());
    const size_t chains = starts.size();
    starts.push_back(n);
    first_below.resize(chains + 1);
    for (size_t c = 0, at = 0; c <= chains; c++) {
      while (at < below.size() && (below[at] >> 32) < starts[c]) at++;
      first_below[c] = static_cast<uint32_t>(at);
    }
    // The walk's order from the chains alone: roots in id order, each chain followed by the
    // chains below it, by the node they hang below.
    order.reserve(chains);
    std::vector<std::pair<uint32_t, uint32_t>> stack; // chain, its next below
    for (uint32_t root = 0; root < chains; root++) {
      if (tree.parent(starts[root]) != kNoNode) continue;
      order.push_back(root);
      stack.emplace_back(root, first_below[root]);
      while (!stack.empty()) {
        auto &[chain, next] = stack.back();
        if (next < first_below[chain + 1]) {
          const uint32_t c = static_cast<uint32_t>(below[next++]);
          order.push_back(c);
          stack.emplace_back(c, first_below[c]);
        } else {
          stack.pop_back();
        }
      }
    }
  }
  size_t size() const { return order.size(); }
  uint32_t chain_of(uint32_t node) const {
    return static_cast<uint32_t>(std::upper_bound(starts.begin(), starts.end() - 1, node) -
                                 starts.begin() - 1);
  }
};

// One thread's part of first_on_path: the walk in preorder over the chains order[begin, end)
// (and the nodes of their subtrees' chains in that range), with the current path (nodes, root
// first) as a stack and, per map and key, its occurrences on it. The walk goes down a chain
// node by node and, at each node, first into the chains below it, so each node is pushed and
// popped once and a chain's nodes are read in order. A part owns the nodes of the chains it
// enters. One that starts inside the tree first pushes the path above its first chain and
// walks on down the chains of that path without setting their flags (an earlier part's); one
// that ends inside it walks on down the chains it is in without entering any chain below.
class ChainWalk {
public:
  ChainWalk(const StackTree &tree, std::span<const KeyMap *const> maps, const Chains &chains)
      : tree_(tree), maps_(maps), c_(chains), active_(maps.size()) {
    for (size_t k = 0; k < maps.size(); k++) {
      active_[k].assign(maps[k]->count, 0);
      flags_.emplace_back(tree.size());
    }
  }

  void run(size_t begin, size_t end) {
    entered_ = begin;
    end_ = end;
    if (begin < end) start_inside(c_.order[begin]);
    for (;;) {
      while (!visits_.empty()) step();
      if (entered_ >= end_) break;
      enter(c_.order[entered_], true); // a root: the walk of the tree before it is done
    }
  }
  std::vector<NodeFlags> &flags() { return flags_; }

private:
  struct Visit {
    uint32_t chain, node, next_below; // at `node` of `chain`; below[next_below] is next
    bool own;                         // sets the flags of its nodes
  };

  void push(uint32_t node, bool own) {
    const FrameId f = tree_.frame(node);
    for (size_t k = 0; k < maps_.size(); k++) {
      const uint32_t key = maps_[k]->of_frame[f];
      path_keys_.push_back(key);
      if (key != kNoKey && active_[k][key]++ == 0 && own) flags_[k].set(node);
    }
  }
  void pop() {
    for (size_t k = maps_.size(); k-- > 0;) {
      const uint32_t key = path_keys_.back();
      path_keys_.pop_back();
      if (key != kNoKey) active_[k][key]--;
    }
  }
  void enter(uint32_t chain, bool own) {
    // Each chain's first frames are a cache miss: asked for kAhead chains before.
    constexpr size_t kAhead = 8;
    if (entered_ + kAhead < c_.order.size()) {
      const uint32_t ahead = c_.starts[c_.order[entered_ + kAhead]];
      tree_.prefetch_frames(ahead);
      tree_.prefetch_frames(ahead + 16);
    }
    entered_++;
    push(c_.starts[chain], own);
    visits_.push_back(Visit{chain, c_.starts[chain], c_.first_below[chain], own});
  }
  void step() {
    Visit &v = visits_.back();
    if (v.next_below < c_.first_below[v.chain + 1] && (c_.below[v.next_below] >> 32) == v.node) {
      const uint32_t chain = static_cast<uint32_t>(c_.below[v.next_below++]);
      if (entered_ < end_) enter(chain, true);        // else another part's, as all after it
    } else if (v.node + 1 < c_.starts[v.chain + 1]) { // on down the chain
      push(++v.node, v.own);
    } else { // the chain is done: back to the node it hangs below
      for (uint32_t i = c_.starts[v.chain]; i <= v.node; i++) pop();
      visits_.pop_back();
    }
  }
  // The path above chain `first`: each chain of it from its start to the node the next hangs
  // below, its next below the one after that, not its own.
  void start_inside(uint32_t first) {
    std::vector<std::pair<uint32_t, uint32_t>> up; // chain, node; leaf first
    uint32_t child = first;
    for (uint32_t a = tree_.parent(c_.starts[first]); a != kNoNode;) {
      const uint32_t chain = c_.chain_of(a);
      up.emplace_back(chain, child);
      child = chain;
      a = tree_.parent(c_.starts[chain]);
    }
    uint32_t node = tree_.parent(c_.starts[first]);
    std::vector<Visit> path(up.size());
    for (size_t i = 0; i < up.size(); i++) { // leaf first: node is where up[i]'s child hangs
      const auto [chain, below_child] = up[i];
      const uint64_t key = uint64_t{node} << 32 | below_child;
      const uint32_t next = static_cast<uint32_t>(
          std::lower_bound(c_.below.begin(), c_.below.end(), key) - c_.below.begin() + 1);
      path[up.size() - 1 - i] = Visit{chain, node, next, false};
      node = tree_.parent(c_.starts[chain]);
    }
    for (const Visit &v : path) {
      for (uint32_t i = c_.starts[v.chain]; i <= v.node; i++) push(i, false);
      visits_.push_back(v);
    }
    enter(first, true);
  }

  const StackTree &tree_;
  std::span<const KeyMap *const> maps_;
  const Chains &c_;
  std::vector<std::vector<uint32_t>> active_;
  std::vector<uint32_t> path_keys_; // the path's nodes' keys, one per map each
  std::vector<Visit> visits_;       // the path's chains, root first
  std::vector<NodeFlags> flags_;
  size_t entered_ = 0, end_ = 0; // chains order[entered_, end_) are still to enter
};

} // namespace

// The walk's parts split the chains' order where half the nodes are entered; each sets flags
// of its own, or-ed together after.
std::vector<NodeFlags> first_on_path(const StackTree &tree, std::span<const KeyMap *const> maps,
                                     unsigned threads) {
  const Chains chains(tree);
  if (threads == 0) threads = query_threads();
  if (tree.size() < 100000) threads = 1; // not worth a thread
  std::vector<size_t> bounds{0};
  size_t nodes = 0;
  for (size_t i = 0; i < chains.size() && bounds.size() < threads; i++) {
    const uint32_t c = chains.order[i];
    nodes += chains.starts[c + 1] - chains.starts[c];
    if (nodes * threads >= tree.size() * bounds.size()) bounds.push_back(i + 1);
  }
  bounds.push_back(chains.size());
  std::vector<std::unique_ptr<ChainWalk>> walks;
  for (size_t w = 0; w + 1 < bounds.size(); w++)
    walks.push_back(std::make_unique<ChainWalk>(tree, maps, chains));
  parallel_split(bounds, [&](unsigned w, size_t begin, size_t end) { walks[w]->run(begin, end); });
  std::vector<NodeFlags> out = std::move(walks[0]->flags());
  for (size_t w = 1; w < walks.size(); w++)
    for (size_t k = 0; k < out.size(); k++) out[k] |= walks[w]->flags()[k];
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
