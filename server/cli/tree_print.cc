// Tree output for the CLI (see tree_print.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli/tree_print.h"

#include "server/cli/row_json.h"
#include "server/cli/weight_table.h"
#include "server/engine/line_keys.h"

namespace hotlines {

std::string tree_text(const ViewWeights &v, const std::vector<TreeNode> &nodes, bool lines) {
  WeightTable t(v, WeightTable::total_first, {}, {{"function", TextTable::left}});
  for (const TreeNode &n : nodes) {
    std::string name =
        std::string(n.depth * 2, ' ') + std::string(v.functions().label(n.function_key));
    if (lines && n.line > 0) name += ":" + std::to_string(n.line);
    t.add({}, n.self, n.total, {name});
  }
  return t.render();
}

Json tree_json(const ViewWeights &v, const std::vector<TreeNode> &nodes) {
  const Profile &p = v.profile();
  const LineKeys &lk = v.lines();
  Json out = Json::array();
  for (const TreeNode &n : nodes) {
    uint32_t file = lk.file_of_function(p.frames[n.frame].function);
    Json node = {{"id", n.id},
                 {"parent", n.parent == kNoNode ? Json(nullptr) : Json(n.parent)},
                 {"depth", n.depth},
                 {"name", v.functions().label(n.function_key)},
                 {"file", file == kNoKey ? std::string() : lk.file_name(file)},
                 {"line", n.line},
                 {"kind", frame_kind_name(p.frames[n.frame].kind)}};
    add_weight_json(node, v, n.self, n.total);
    out.push_back(node);
  }
  return out;
}

} // namespace hotlines
