// SparseWeights: per-node weights of a stack tree kept only where they are not zero, in node
// order — a view's self weights. Samples end on few of a deep tree's nodes (deep-stacks: 0.3 M
// of 12.3 M), so a dense int64 per node would cost more than the tree. Immutable once built;
// share it between threads. A Scan is one reader's cursor: keep it on one thread.
#pragma once

#include "formats/huge_pages.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace hotlines {

class SparseWeights {
public:
  SparseWeights() = default;
  // The non-zero entries of `dense` (indexed by node; int64_t or uint32_t).
  template <class T> static SparseWeights of_dense(const std::vector<T> &dense) {
    SparseWeights w;
    size_t k = 0;
    for (int64_t x : dense) k += x != 0;
    // One slot past the last entry, so that the fill writes every node without a branch.
    resize_huge(w.node_, k + 1);
    resize_huge(w.weight_, k + 1);
    k = 0;
    for (size_t n = 0; n < dense.size(); n++) {
      w.node_[k] = static_cast<uint32_t>(n);
      w.weight_[k] = dense[n];
      k += dense[n] != 0;
    }
    w.node_.resize(k);
    w.weight_.resize(k);
    return w;
  }

  size_t entries() const { return node_.size(); }
  // The weight of node n (0 when it has none), by binary search.
  int64_t at(uint32_t n) const {
    auto it = std::lower_bound(node_.begin(), node_.end(), n);
    return it != node_.end() && *it == n ? weight_[it - node_.begin()] : 0;
  }
  // f(node, weight) for each non-zero entry, in node order.
  template <class F> void for_each(F &&f) const {
    for (size_t i = 0; i < node_.size(); i++) f(node_[i], weight_[i]);
  }

  // Reads the weights of ascending nodes in amortized O(1): a loop over the tree in id order
  // asks scan(n) for the nodes it visits, skipping any.
  class Scan {
  public:
    explicit Scan(const SparseWeights &w) : w_(&w) {}
    // n must not be below the previous call's.
    int64_t operator()(uint32_t n) {
      const std::vector<uint32_t> &nodes = w_->node_;
      while (i_ < nodes.size() && nodes[i_] < n) i_++;
      return i_ < nodes.size() && nodes[i_] == n ? w_->weight_[i_] : 0;
    }

  private:
    const SparseWeights *w_;
    size_t i_ = 0;
  };

private:
  std::vector<uint32_t> node_; // ascending
  std::vector<int64_t> weight_;
};

} // namespace hotlines
