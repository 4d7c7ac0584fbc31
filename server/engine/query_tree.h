// Tree queries over a view: the call tree from the roots or from a function or line
// (callees), the inverted tree of callers of a function or line, the hottest path from a
// function (or the roots) to a leaf, and the flame graph (the full callee tree from the
// roots). Nodes merge frames by function (or by function and line), carry a stable id (a
// hash of the labels on the path from the tree's top, equal across views and reloads) and
// the heaviest frame merged into them, which resolves to source. Pure functions; thread-safe.
// Long walks poll `cancel`; a cancelled call returns a partial tree, so callers check their
// token before using the result.
#pragma once

#include "server/engine/function_keys.h"
#include "server/engine/view_weights.h"

#include <atomic>
#include <string>
#include <vector>

namespace hotlines {

enum class TreeDirection : uint8_t { callees, callers };

struct TreeOptions {
  TreeDirection direction = TreeDirection::callees;
  // Anchor: functions matching `method` (FunctionKeys::match), or frames on `file`:`line`.
  // Without an anchor a callee tree starts at the roots; a callers tree needs an anchor.
  std::string method;
  std::string file;
  int32_t line = 0;
  bool lines = false;     // nodes are (function, line) instead of function
  uint32_t max_depth = 0; // levels to keep (1: the top level only); 0: all
  double min_pct = 0;     // drop nodes whose total is below this % of the view total
  size_t max_nodes = 0;   // stop after this many nodes (preorder); 0: no limit
};

// 56 bytes: a flame graph of the full view has a node per merged path (millions on deep
// profiles), written fresh by every query. The label is FunctionKeys::label(function_key).
struct TreeNode {
  uint64_t id = 0;           // stable node id (< 2^53, safe as a JSON number)
  uint32_t parent = kNoNode; // index in CallTree::nodes; kNoNode at the top level
  uint32_t depth = 0;        // 0 at the top level
  uint32_t first_child = kNoNode, next_sibling = kNoNode; // children: total desc, then name
  uint32_t function_key = kNoKey;                         // the view's FunctionKeys
  int32_t line = 0;  // the node's line (lines mode), else its frame's line
  FrameId frame = 0; // heaviest frame merged into the node
  int64_t self = 0;  // callees: samples ending here; callers: only at the top level,
                     // samples whose leaf is the anchor
  int64_t total = 0; // samples through the node
};
static_assert(sizeof(TreeNode) == 56);

struct CallTree {
  bool anchored = false;
  bool anchor_found = false; // an anchored tree whose anchor matched some frame
  int64_t view_total = 0;
  int64_t top_total = 0;                   // sum of the top-level nodes' totals
  std::vector<TreeNode> nodes;             // preorder
  const FunctionKeys *functions = nullptr; // the view's, owned by its index

  std::string_view name(const TreeNode &n) const { return functions->label(n.function_key); }
};

CallTree call_tree(const ViewWeights &view, const TreeOptions &options,
                   const std::atomic<bool> *cancel = nullptr);

// The flame graph: the callee tree from the roots (options.direction and anchor ignored).
CallTree flame_graph(const ViewWeights &view, const TreeOptions &options = {},
                     const std::atomic<bool> *cancel = nullptr);

// The hottest path: from the heaviest anchor (or root) follow the heaviest child to a leaf.
// Nodes are returned top first; each node's parent is the previous one.
std::vector<TreeNode> hottest_path(const ViewWeights &view, const TreeOptions &options,
                                   const std::atomic<bool> *cancel = nullptr);

} // namespace hotlines
