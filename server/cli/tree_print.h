// Printing call trees for the CLI (tree, callers, trace): an aligned table whose function
// column is indented by depth, and the JSON form (flat preorder nodes with parent indexes).
// Single-threaded (the CLI's main thread).
#pragma once

#include "server/cli/input.h"
#include "server/engine/query_tree.h"

#include <string>

namespace hotlines {

std::string tree_text(const ViewWeights &view, const std::vector<TreeNode> &nodes, bool lines);
Json tree_json(const ViewWeights &view, const std::vector<TreeNode> &nodes);

// Parses "--line SOURCE:LINE" into options.file/line; false when malformed.
bool parse_line_anchor(const std::string &text, TreeOptions *options);

} // namespace hotlines
