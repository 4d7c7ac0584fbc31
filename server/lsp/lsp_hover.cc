// LspServer: textDocument/hover. A hover on a profiled line (or on a method's declaration)
// shows self and total for every event of the profile, the top callers and callees of the
// line or method, and which recorded file the numbers come from. The answer is built in two
// steps: HoverInfo, the numbers (on a worker), then present(), the markdown (any thread).
#include "protocol/json_fields.h"
#include "server/engine/function_keys.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/query_tree.h"
#include "server/lsp/lsp_server.h"
#include "server/sources/source_scan.h"

#include <algorithm>

namespace hotlines {

namespace {

struct HoverTarget {
  std::string function; // a method hover: its label
  std::vector<std::string> file_keys;
  int32_t line = 0; // a line hover: the profiled line
  bool stale = false;
};

// What a hover shows, before it is markdown.
struct HoverInfo {
  struct EventRow {
    std::string event, unit;
    Weight self, total, whole;
  };
  struct Neighbour {
    std::string name;
    int32_t line = 0;
    int64_t total = 0;
  };
  std::string where; // "Pricing.java:23" or the method
  bool stale = false;
  bool by_value = true;
  std::vector<EventRow> events; // those with weight on the target, in the profile's order
  std::string event;            // the session view's, of the callers and callees
  int64_t view_total = 0;
  bool self_only = false; // totals, callers and callees unknown (Metadata::self_only)
  std::vector<Neighbour> callers, callees; // the top five of each
  std::string file;                        // the recorded file the numbers come from
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

// Top callers or callees of the target: depth-1 nodes of anchored trees, heaviest first.
std::vector<HoverInfo::Neighbour> neighbours(const ViewWeights &v, const HoverTarget &target,
                                             TreeDirection dir, const std::atomic<bool> *cancel) {
  std::vector<TreeNode> rows;
  auto collect = [&](const TreeOptions &o) {
    for (const TreeNode &n : call_tree(v, o, cancel).nodes)
      if (n.depth == 1) rows.push_back(n);
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
  const FunctionKeys &fk = v.functions();
  std::sort(rows.begin(), rows.end(), [&](const TreeNode &a, const TreeNode &b) {
    return a.total != b.total ? a.total > b.total
                              : fk.label(a.function_key) < fk.label(b.function_key);
  });
  std::vector<HoverInfo::Neighbour> out;
  for (size_t i = 0; i < rows.size() && i < 5; i++)
    out.push_back({std::string(fk.label(rows[i].function_key)), rows[i].line, rows[i].total});
  return out;
}

// The target's self and total in one view.
void target_sums(const ViewWeights &w, const HoverTarget &target, int64_t *self, int64_t *total) {
  *self = *total = 0;
  if (!target.function.empty()) {
    uint32_t key = w.functions().find(target.function);
    if (key == kNoKey) return;
    KeySums sums = function_sums(w);
    *self = sums.self[key];
    *total = sums.total[key];
    return;
  }
  for (const std::string &k : target.file_keys)
    for (const FileLine &l : file_lines(w, k).lines)
      if (l.line == target.line) *self += l.self, *total += l.total;
}

// The numbers of a hover under the session view `base`; false when a view failed or the
// request was cancelled. Worker thread.
bool hover_info(ViewCache &views, const HoverTarget &target, const View &base,
                const std::atomic<bool> *cancel, HoverInfo *info) {
  const Profile &p = views.index().profile();
  info->where = target.function.empty() ? (target.file_keys.empty() ? "" : target.file_keys[0]) +
                                              ":" + std::to_string(target.line)
                                        : target.function;
  info->stale = target.stale;
  info->self_only = p.metadata.self_only;
  for (EventId e = 0; e < p.events.size(); e++) {
    HoverInfo::EventRow row{
        std::string(p.str(p.events[e].name)), std::string(p.str(p.events[e].unit)), {}, {}, {}};
    for (Measure m : {Measure::value, Measure::count}) {
      View v = base;
      v.event = row.event;
      v.measure = m;
      ViewResult vr = views.get(v, cancel);
      if (!vr.ok()) return false;
      bool value = m == Measure::value;
      target_sums(*vr.weights, target, value ? &row.self.value : &row.self.count,
                  value ? &row.total.value : &row.total.count);
      (value ? row.whole.value : row.whole.count) = vr.weights->total;
    }
    if (row.total.count != 0 || row.total.value != 0) info->events.push_back(std::move(row));
  }
  ViewResult vr = views.get(base, cancel);
  if (!vr.ok()) return false;
  info->view_total = vr.weights->total;
  if (!info->self_only) {
    info->callers = neighbours(*vr.weights, target, TreeDirection::callers, cancel);
    info->callees = neighbours(*vr.weights, target, TreeDirection::callees, cancel);
  }
  if (!target.file_keys.empty()) info->file = target.file_keys[0];
  return !(cancel && cancel->load());
}

std::string neighbour_list(const std::vector<HoverInfo::Neighbour> &rows, int64_t whole) {
  std::string out;
  for (const HoverInfo::Neighbour &n : rows)
    out += "- " + share(n.total, whole) + " " + markdown_escape(n.name) +
           (n.line > 0 ? ":" + std::to_string(n.line) : "") + "\n";
  return out;
}

// The hover's markdown.
std::string present(const HoverInfo &info) {
  std::string out = "**hotlines** \u00B7 `" + info.where + "`";
  if (info.stale) out += " \u00B7 *edited since it was profiled*";
  out += "\n\n| event | self | total |\n|---|---|---|\n";
  for (const HoverInfo::EventRow &r : info.events) {
    // Shares of the value where the event has one, else of the samples.
    const bool value = info.by_value && r.unit != "samples";
    auto cell = [&](Weight w) {
      return share(value ? w.value : w.count, value ? r.whole.value : r.whole.count) + " (" +
             thousands(w.count) + ")";
    };
    out += "| " + r.event + " | " + cell(r.self) + " | " +
           (info.self_only ? std::string("unavailable") : cell(r.total)) + " |\n";
  }
  if (info.self_only) out += "\n*a list of self weights only: no totals, callers or callees*\n";
  if (!info.callers.empty())
    out += "\n**Callers** (" + info.event + ")\n\n" + neighbour_list(info.callers, info.view_total);
  if (!info.callees.empty())
    out += "\n**Callees** (" + info.event + ")\n\n" + neighbour_list(info.callees, info.view_total);
  if (!info.file.empty()) out += "\n*profile file:* `" + info.file + "`\n";
  return out;
}

// What the hover at `line` of the document is about; false when nothing profiled is there.
bool hover_target(const FileHeat &heat, const TextDocument *doc, int64_t line,
                  HoverTarget *target) {
  target->file_keys = heat.file_keys;
  // A declaration line of a profiled function: the method.
  if (doc) {
    const SourceScan scan = scan_source(doc->lines(), extension_of(doc->uri()));
    for (const HeatFunction &f : heat.functions) {
      int32_t first = f.first_line > 0 ? doc->current_line(f.first_line - 1) : -1;
      if (first >= 0 && declaration_above(scan, f.name, first + 1) - 1 == line) {
        target->function = f.name;
        return true;
      }
    }
  }
  TextDocument::Origin origin =
      doc ? doc->origin(line) : TextDocument::Origin{static_cast<int32_t>(line), false};
  if (origin.line < 0 || !heat.find(origin.line + 1)) return false;
  target->line = origin.line + 1;
  target->stale = origin.stale;
  return true;
}

} // namespace

void LspServer::on_hover(const json &params, Reply reply) {
  FieldReader r(params);
  const json &td = r.object("textDocument");
  const json &pos = r.object("position");
  if (!r.ok()) throw Failure::bad_params(r.error());
  std::string uri;
  int64_t line = 0;
  FieldReader(td, "params.textDocument").required("uri", &uri);
  FieldReader pr(pos, "params.position");
  pr.optional("line", &line, 0, INT32_MAX);
  if (uri.empty() || !pr.ok())
    throw Failure::bad_params("params.textDocument.uri and params.position are required");
  session_.heat(uri, session_.profiles.latest(), "", reply.cancel_flag(),
                [this, reply, uri, line](const LoadedProfile *lp,
                                         std::shared_ptr<const FileHeat> heat,
                                         const Failure *failure) {
                  // A profile reloaded meanwhile: no hover rather than an error.
                  if (failure && failure->kind != Failure::Kind::stale) return reply.fail(*failure);
                  HoverTarget target;
                  if (!heat || !lp || !hover_target(*heat, session_.document(uri), line, &target))
                    return reply(nullptr);
                  View base;
                  Failure view_failure;
                  if (!session_.view(*lp, "", &base, &view_failure))
                    return reply.fail(view_failure);
                  auto info = std::make_shared<HoverInfo>();
                  info->event = heat->event;
                  info->by_value = session_.config.by_value();
                  auto ok = std::make_shared<bool>(false);
                  work_->queue(
                      [info, ok, target, base, views = lp->views, cancel = reply.cancel_flag()] {
                        *ok = hover_info(*views, target, base, cancel, info.get());
                      },
                      [info, ok, reply, line](const Failure *thrown) {
                        if (thrown) return reply.fail(*thrown);
                        if (reply.cancelled()) return reply.fail(Failure::cancelled());
                        if (!*ok) return reply(nullptr);
                        reply({{"contents", {{"kind", "markdown"}, {"value", present(*info)}}},
                               {"range",
                                {{"start", {{"line", line}, {"character", 0}}},
                                 {"end", {{"line", line + 1}, {"character", 0}}}}}});
                      });
                });
}

} // namespace hotlines
