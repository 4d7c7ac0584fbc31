// CalleeShape: the merged callee tree of the profile's own stack tree — frames merged by
// function (or by function and line) under equal parents — without weights: which result node
// each stack node joins, every result node's parent, key, depth, children and stable id. It
// depends only on the profile, so ProfileIndex builds it once (on the first tree query) and
// every unanchored call tree or flame graph of a view over the profile's stacks reuses it; a
// query then only adds its weights. Result nodes are numbered in preorder (children in creation
// order), so every subtree is one block of ids and walks over the tree read nearby memory. Also
// the node keys and ids every tree query shares.
// Immutable once built; thread-safe.
#pragma once

#include "formats/profile.h"
#include "server/engine/function_keys.h"
#include "server/engine/stack_tree.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace hotlines {

// The parent of top-level result nodes.
inline constexpr uint32_t kTopParent = kNoNode - 1;

// Node keys per frame: the function key, or an id for (function key, line) in lines mode.
// Deterministic for a profile and grouping, so shapes and queries agree on the ids.
struct NodeKeys {
  std::vector<uint32_t> of_frame;
  std::vector<uint32_t> function; // node key -> function key
  std::vector<int32_t> line;      // node key -> line (lines mode), else 0
};
NodeKeys node_keys(const Profile &profile, const FunctionKeys &functions, bool lines);

// A node's stable id from its parent's id (0 at the top), its label's hash and its line (-1
// unless split by line): equal paths give equal ids in every view and every run; < 2^53.
uint64_t tree_node_id(uint64_t parent_id, uint64_t label_hash, int32_t line);

struct CalleeShape {
  std::vector<uint32_t> of_node;            // stack-tree node -> result node
  std::vector<uint32_t> parent, key, depth; // per result node (parent kTopParent at the top)
  std::vector<uint32_t> start, kids;        // children in creation order; the top level's at size()
  std::vector<uint64_t> ids;                // tree_node_id of every result node
  // The stack-tree nodes of each result node, by increasing id: members[member_start[r]] ..
  // members[member_start[r + 1] - 1] (the inverse of of_node).
  std::vector<uint32_t> member_start, members;

  size_t size() const { return parent.size(); }
};

std::shared_ptr<const CalleeShape> build_callee_shape(const Profile &profile, const StackTree &tree,
                                                      const FunctionKeys &functions, bool lines);

} // namespace hotlines
