// Printing call trees for the CLI (tree, callers, trace): an aligned table whose function
// column is indented by depth, and the JSON form (flat preorder nodes with parent indexes);
// and the --lines flag the three share. Single-threaded (the CLI's main thread).
#pragma once

#include "server/cli/input.h"
#include "server/engine/query_tree.h"

#include <string>

namespace hotlines {

std::string tree_text(const ViewWeights &view, const std::vector<TreeNode> &nodes, bool lines);
Json tree_json(const ViewWeights &view, const std::vector<TreeNode> &nodes);

// --lines: a node per function and line (TreeOptions::lines).
inline constexpr FlagSpec kSplitLinesFlag = {"lines", 0, false,
                                             "split nodes by line (function:line)"};

} // namespace hotlines
