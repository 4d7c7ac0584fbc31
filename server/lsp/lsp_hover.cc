// LspServer: textDocument/hover. A hover on a profiled line (or on a method's declaration)
// shows self and total for every event of the profile, the top callers and callees of the
// line or method, and which recorded file the numbers come from. (workspace/symbol, the hot
// methods with their workspace locations, is in lsp_sources.cc.)
#include "protocol/json_fields.h"
#include "server/engine/function_keys.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/query_tree.h"
#include "server/lsp/annotations.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/sources/declarations.h"

namespace hotlines {

namespace {

struct HoverTarget {
  std::string function; // a method hover: its label
  std::vector<std::string> file_keys;
  int32_t line = 0; // a line hover: the profiled line
  bool stale = false;
};

std::string markdown_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '*' || c == '_' || c == '`' || c == '|' || c == '<' || c == '>' || c == '[' ||
        c == ']' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

// Top callers or callees (depth-1 nodes of an anchored tree) as markdown list items.
std::string neighbours(const ViewWeights &v, const HoverTarget &target, TreeDirection dir,
                       const std::atomic<bool> *cancel) {
  std::vector<TreeNode> rows;
  int64_t anchor_total = 0;
  auto collect = [&](const TreeOptions &o) {
    CallTree t = call_tree(v, o, cancel);
    for (const TreeNode &n : t.nodes) {
      if (n.depth == 0) anchor_total += n.total;
      if (n.depth == 1) rows.push_back(n);
    }
  };
  TreeOptions o;
  o.direction = dir;
  o.max_depth = 2;
  if (!target.function.empty()) {
    o.method = target.function;
    collect(o);
  } else {
    for (const std::string &key : target.file_keys) {
      o.file = key;
      o.line = target.line;
      collect(o);
    }
  }
  std::sort(rows.begin(), rows.end(), [](const TreeNode &a, const TreeNode &b) {
    return a.total != b.total ? a.total > b.total : a.name < b.name;
  });
  std::string out;
  for (size_t i = 0; i < rows.size() && i < 5; i++)
    out += "- " + share(rows[i].total, v.total) + " " + markdown_escape(rows[i].name) +
           (rows[i].line > 0 ? ":" + std::to_string(rows[i].line) : "") + "\n";
  return out;
}

} // namespace

void LspServer::on_hover(const json &params, Reply reply) {
  FieldReader r(params);
  const json &td = r.object("textDocument");
  const json &pos = r.object("position");
  if (!r.ok()) return reply.error(kInvalidParams, r.error());
  std::string uri;
  int64_t line = 0;
  FieldReader(td, "params.textDocument").required("uri", &uri);
  FieldReader pr(pos, "params.position");
  pr.optional("line", &line, 0, INT32_MAX);
  if (uri.empty() || !pr.ok())
    return reply.error(kInvalidParams, "params.textDocument.uri and params.position are required");
  with_heat(
      uri, "", "", reply.cancel_flag(),
      [this, reply, uri, line](const LoadedProfile *lp, std::shared_ptr<const FileHeat> heat,
                               const std::string &error) {
        if (!error.empty() && error != "stale") return reply.error(kInvalidParams, error);
        if (!heat || !lp) return reply(nullptr);
        const TextDocument *doc = document(uri);
        HoverTarget target;
        target.file_keys = heat->file_keys;
        TextDocument::Origin origin =
            doc ? doc->origin(line) : TextDocument::Origin{static_cast<int32_t>(line), false};
        // A declaration line of a profiled function: the method.
        if (doc) {
          for (const HeatFunction &f : heat->functions) {
            int32_t first = f.first_line > 0 ? doc->current_line(f.first_line - 1) : -1;
            if (first >= 0 && declaration_line(doc->lines(), first, short_name(f.name)) == line) {
              target.function = f.name;
              break;
            }
          }
        }
        if (target.function.empty()) {
          if (origin.line < 0 || !heat->find(origin.line + 1)) return reply(nullptr);
          target.line = origin.line + 1;
          target.stale = origin.stale;
        }
        View base;
        if (!session_view(*lp, "", &base, &reply)) return;
        auto md = std::make_shared<std::string>();
        HeatText text = heat_text(*heat);
        work_->queue(
            [md, target, base, text, views = lp->views, cancel = reply.cancel_flag()] {
              const Profile &p = views->index().profile();
              std::string &out = *md;
              std::string where = target.function.empty()
                                      ? (target.file_keys.empty() ? "" : target.file_keys[0]) +
                                            ":" + std::to_string(target.line)
                                      : target.function;
              out += "**hotlines** \u00B7 `" + where + "`";
              if (target.stale) out += " \u00B7 *edited since it was profiled*";
              out += "\n\n| event | self | total |\n|---|---|---|\n";
              for (EventId e = 0; e < p.events.size(); e++) {
                Weight self, total, whole;
                for (Measure m : {Measure::value, Measure::count}) {
                  View v = base;
                  v.event = std::string(p.str(p.events[e].name));
                  v.measure = m;
                  ViewResult vr = views->get(v, cancel);
                  if (!vr.ok()) return;
                  int64_t s = 0, t = 0;
                  if (!target.function.empty()) {
                    uint32_t key = vr.weights->functions().find(target.function);
                    if (key != kNoKey) {
                      KeySums sums = function_sums(*vr.weights);
                      s = sums.self[key];
                      t = sums.total[key];
                    }
                  } else {
                    for (const std::string &k : target.file_keys)
                      for (const FileLine &l : file_lines(*vr.weights, k).lines)
                        if (l.line == target.line) s += l.self, t += l.total;
                  }
                  (m == Measure::value ? self.value : self.count) = s;
                  (m == Measure::value ? total.value : total.count) = t;
                  (m == Measure::value ? whole.value : whole.count) = vr.weights->total;
                }
                if (total.count == 0 && total.value == 0) continue;
                HeatText et = text;
                et.event = std::string(p.str(p.events[e].name));
                et.unit = std::string(p.str(p.events[e].unit));
                et.view_total = whole;
                et.format = "percent";
                auto cell = [&](Weight w) {
                  std::string c =
                      share(et.by_value && et.unit != "samples" ? w.value : w.count,
                            et.by_value && et.unit != "samples" ? whole.value : whole.count) +
                      " (" + thousands(w.count) + ")";
                  return c;
                };
                out += "| " + et.event + " | " + cell(self) + " | " + cell(total) + " |\n";
              }
              View v = base;
              ViewResult vr = views->get(v, cancel);
              if (!vr.ok()) return;
              std::string callers = neighbours(*vr.weights, target, TreeDirection::callers, cancel);
              std::string callees = neighbours(*vr.weights, target, TreeDirection::callees, cancel);
              if (!callers.empty()) out += "\n**Callers** (" + text.event + ")\n\n" + callers;
              if (!callees.empty()) out += "\n**Callees** (" + text.event + ")\n\n" + callees;
              if (!target.file_keys.empty())
                out += "\n*profile file:* `" + target.file_keys[0] + "`\n";
            },
            [this, md, reply, line] {
              if (reply.cancelled()) return reply.error(kRequestCancelled, "request cancelled");
              if (md->empty()) return reply(nullptr);
              reply({{"contents", {{"kind", "markdown"}, {"value", *md}}},
                     {"range",
                      {{"start", {{"line", line}, {"character", 0}}},
                       {"end", {{"line", line + 1}, {"character", 0}}}}}});
              finish_if_done();
            });
      });
}

} // namespace hotlines
