// Tree output for the CLI (see tree_print.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli/tree_print.h"

#include "server/cli/row_json.h"
#include "server/cli/weight_table.h"
#include "server/engine/line_keys.h"

#include <charconv>

namespace hotlines {

std::string tree_text(const ViewWeights &v, const std::vector<TreeNode> &nodes, bool lines) {
  WeightTable t(v, WeightTable::total_first, {}, {{"function", TextTable::left}});
  for (const TreeNode &n : nodes) {
    std::string name = std::string(n.depth * 2, ' ') + std::string(n.name);
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
                 {"name", n.name},
                 {"file", file == kNoKey ? std::string() : lk.file_name(file)},
                 {"line", n.line},
                 {"kind", frame_kind_name(p.frames[n.frame].kind)}};
    add_weight_json(node, v, n.self, n.total);
    out.push_back(node);
  }
  return out;
}

bool parse_line_anchor(const std::string &text, TreeOptions *o) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  int32_t line = 0;
  const char *b = text.data() + colon + 1, *e = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(b, e, line);
  if (ec != std::errc() || ptr != e || line < 1) return false;
  o->file = text.substr(0, colon);
  o->line = line;
  return true;
}

int tree_options(const CliFlags &f, TreeDirection direction, TreeOptions *o) {
  o->direction = direction;
  o->method = f.method;
  o->lines = f.has("lines");
  o->max_depth = f.depth.value_or(10);
  o->min_pct = f.min_pct.value_or(1);
  if (f.has("line") && !parse_line_anchor(f.value("line"), o))
    return cli_fail(kExitUsage, "--line wants SOURCE:LINE, got '" + f.value("line") + "'", f.json);
  return kExitOk;
}

} // namespace hotlines
