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

// The tree options of tree and callers: -m, --line, --lines, --depth (default 10), --min-pct
// (default 1). Returns 0, or the usage exit code after printing the error.
int tree_options(const CliFlags &flags, TreeDirection direction, TreeOptions *options);

} // namespace hotlines
