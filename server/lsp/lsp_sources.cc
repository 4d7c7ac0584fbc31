// LspServer and source resolution: the workspace index (roots from rootUri, workspaceFolders
// and sourceRoots, built on a worker and kept current from file events), each loaded
// profile's ProfileResolution, and the requests that read them — hotlines/resolveFrame,
// hotlines/resolutionReport and workspace/symbol. A load whose hot frames mostly fail to
// resolve sends a window/showMessage warning that names the fix.
#include "protocol/json_fields.h"
#include "server/engine/function_keys.h"
#include "server/engine/line_keys.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_tree.h"
#include "server/lsp/annotations.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/sources/resolution_report.h"
#include "server/sources/resolution_report_json.h"

#include <algorithm>

namespace hotlines {

void LspServer::rebuild_workspace() {
  std::vector<std::string> roots;
  auto add = [&roots](std::string r) {
    if (r.empty() || std::find(roots.begin(), roots.end(), r) != roots.end()) return;
    roots.push_back(std::move(r));
  };
  if (!init_.root_uri.empty()) add(path_of_uri(init_.root_uri));
  for (const WorkspaceFolder &f : init_.workspace_folders) add(path_of_uri(f.uri));
  for (const std::string &r : session_.config.source_roots) add(resolve_workspace_path(r));
  ResolverOptions options;
  for (const auto &[from, to] : session_.config.path_remaps) options.remaps.push_back({from, to});
  const uint64_t build = ++workspace_builds_;
  if (roots.empty()) { // no workspace: files match recorded paths by their trailing components
    session_.resolver = nullptr;
    workspace_ready();
    return;
  }
  workspace_building_ = true;
  auto index = std::make_shared<WorkspaceIndex>();
  for (const std::string &r : roots) index->add_root(r);
  work_->queue([index] { index->build(); },
               [this, index, build, options, roots](const Failure *thrown) {
                 if (build == workspace_builds_) {
                   if (thrown) {
                     log("error", "indexing the workspace: " + thrown->message);
                   } else if (!exiting_) {
                     session_.resolver = std::make_shared<SourceResolver>(index, options);
                     log("info", "indexed " + std::to_string(index->size()) + " files under " +
                                     std::to_string(roots.size()) + " roots in " +
                                     std::to_string(index->build_seconds()) + " s");
                     for (const auto &[id, lp] : session_.profiles.all()) resolve_profile(id);
                   }
                   workspace_ready();
                 }
               });
}

void LspServer::workspace_ready() {
  workspace_building_ = false;
  std::vector<std::function<void()>> waiting;
  waiting.swap(after_workspace_);
  for (auto &w : waiting) w();
}

void LspServer::resolve_profile(const std::string &id) {
  const LoadedProfile *lp = session_.profiles.find(id);
  if (!lp || !session_.resolver) return;
  auto out = std::make_shared<std::shared_ptr<const ProfileResolution>>();
  work_->queue(
      [out, profile = lp->profile, resolver = session_.resolver] {
        *out = ProfileResolution::build(profile, *resolver);
      },
      [this, out, id, generation = lp->generation](const Failure *thrown) {
        if (thrown) return log("error", "resolving " + id + ": " + thrown->message);
        if (*out && session_.profiles.set_resolution(id, generation, *out)) annotations_changed();
      });
}

void LspServer::workspace_file_event(const std::string &path, bool removed) {
  if (!session_.resolver) return;
  auto copy = std::make_shared<WorkspaceIndex>(session_.resolver->index());
  bool changed = removed ? copy->remove_path(path) : copy->add_file(path);
  if (!changed) return;
  session_.resolver = std::make_shared<SourceResolver>(copy, session_.resolver->options());
  for (const auto &[id, lp] : session_.profiles.all()) resolve_profile(id);
}

const ProfileResolution &LspServer::resolution_of(const LoadedProfile &lp) {
  if (!lp.resolution)
    throw Failure::failed("no workspace is indexed: initialize with a rootUri or "
                          "workspaceFolders, or configure hotlines.sourceRoots");
  return *lp.resolution;
}

void LspServer::on_resolution_report(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id;
  int64_t top = 20;
  r.optional("profileId", &id);
  r.optional("top", &top, 1, 10000);
  if (!r.ok()) throw Failure::bad_params(r.error());
  const LoadedProfile &lp = session_.profile(id);
  View view = request_view(lp, params);
  resolution_of(lp);
  run_query(lp, reply,
            [views = lp.views, res = lp.resolution, view, top,
             cancel = reply.cancel_flag()]() -> Outcome {
              ViewResult v = views->get(view, cancel);
              if (!v.ok()) return Failure::failed(v.error);
              return resolution_report_json(
                  build_resolution_report(*res, *v.weights, static_cast<size_t>(top)));
            });
}

namespace {

json location(const std::string &path, int32_t line) {
  int64_t l = std::max<int64_t>(0, line - 1);
  return {{"uri", uri_of_path(path)},
          {"range",
           {{"start", {{"line", l}, {"character", 0}}}, {"end", {{"line", l}, {"character", 0}}}}}};
}

// The answer of resolveFrame for one frame.
json frame_answer(const Profile &p, const ProfileResolution &res, FrameId frame) {
  const Frame &fr = p.frames[frame];
  const Resolution &r = res.of(fr.function);
  json out = {{"function", std::string(p.str(p.functions[fr.function].name))},
              {"status", status_name(r.status)},
              {"rule", r.rule}};
  if (!r.recorded.empty()) out["recorded"] = r.recorded;
  if (r.status == ResolutionStatus::resolved) {
    int32_t line = res.line_of_frame(frame);
    out["location"] = location(std::string(r.path), line);
    out["line"] = line;
    if (r.tie) out["tie"] = true;
  }
  if (!r.reason.empty()) out["reason"] = r.reason;
  return out;
}

} // namespace

void LspServer::on_resolve_frame(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id, function;
  int64_t frame = -1, node = -1;
  r.optional("profileId", &id);
  r.optional("function", &function);
  r.optional("frame", &frame, 0, INT64_MAX);
  r.optional("nodeId", &node, 0, INT64_MAX);
  if (!r.ok()) throw Failure::bad_params(r.error());
  if (frame < 0 && node < 0 && function.empty())
    throw Failure::bad_params("params.nodeId, params.frame or params.function is required");
  const LoadedProfile &lp = session_.profile(id);
  const ProfileResolution &resolution = resolution_of(lp);
  const Profile &p = *lp.profile;
  if (frame >= static_cast<int64_t>(p.frames.size()))
    throw Failure::bad_params("params.frame " + std::to_string(frame) +
                              " is not a frame of the profile");
  if (frame >= 0) return reply(frame_answer(p, resolution, static_cast<FrameId>(frame)));
  View view = request_view(lp, params);
  Session::check_method(lp, view.grouping, "function", function);
  run_query(lp, reply,
            [views = lp.views, res = lp.resolution, view, node, function,
             cancel = reply.cancel_flag()]() -> Outcome {
              ViewResult v = views->get(view, cancel);
              if (!v.ok()) return Failure::failed(v.error);
              const Profile &prof = views->index().profile();
              if (!function.empty()) {
                // The function's heaviest frame: the top node of its callee tree.
                TreeOptions o;
                o.method = function;
                o.max_depth = 1;
                CallTree t = call_tree(*v.weights, o, cancel);
                if (t.nodes.empty())
                  return Failure::failed("no function of the profile is named '" + function + "'");
                return frame_answer(prof, *res, t.nodes[0].frame);
              }
              CallTree t = flame_graph(*v.weights, {}, cancel);
              for (const TreeNode &n : t.nodes)
                if (n.id == static_cast<uint64_t>(node)) return frame_answer(prof, *res, n.frame);
              return Failure::failed("no flame graph node " + std::to_string(node) +
                                     " in this view (node ids are those of hotlines/flameGraph)");
            });
}

void LspServer::on_workspace_symbol(const json &params, Reply reply) {
  FieldReader r(params);
  std::string query;
  r.optional("query", &query);
  if (!r.ok()) throw Failure::bad_params(r.error());
  const LoadedProfile *lp = session_.profiles.latest();
  if (!lp || !lp->resolution) return reply(json::array());
  View view = session_.view(*lp, "");
  run_query(*lp, reply,
            [views = lp->views, res = lp->resolution, view, query,
             cancel = reply.cancel_flag()]() -> Outcome {
              ViewResult v = views->get(view, cancel);
              if (!v.ok()) return Failure::failed(v.error);
              HotFunctions hot = hot_functions(*v.weights, HotOptions{});
              std::string q = query;
              std::transform(q.begin(), q.end(), q.begin(), ::tolower);
              json out = json::array();
              const FunctionKeys &keys = v.weights->functions();
              for (const FunctionRow &row : hot.rows) {
                if (row.self == 0 || out.size() >= 100) break;
                std::string name(row.name);
                std::string lower = name;
                std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
                if (!q.empty() && lower.find(q) == std::string::npos) continue;
                const Resolution &rs = res->of(keys.function(row.key));
                if (rs.status != ResolutionStatus::resolved) continue;
                out.push_back({{"name", name},
                               {"kind", 6}, // Method
                               {"containerName", share(row.self, hot.view_total) + " self \u00B7 " +
                                                     share(row.total, hot.view_total) + " total"},
                               {"location", location(std::string(rs.path), rs.line)}});
              }
              return out;
            });
}

} // namespace hotlines
