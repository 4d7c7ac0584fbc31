// LspServer: the hotlines/* query requests for rich clients — events, threads, flameGraph,
// callTree, callers, callees, timeline and diff. Each takes the session view (configuration)
// with per-request overrides (event, measure, threads, from/to, hide, include, exclude,
// noIdle) and runs on a worker; answers for a profile reloaded meanwhile are ContentModified.
#include "protocol/json_fields.h"
#include "server/engine/line_keys.h"
#include "server/engine/query_diff.h"
#include "server/engine/query_events.h"
#include "server/engine/query_threads.h"
#include "server/engine/query_timeline.h"
#include "server/engine/query_tree.h"
#include "server/engine/view_filter.h"
#include "server/engine/view_spec.h"
#include "server/lsp/annotations.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"

namespace hotlines {

namespace {

json weight_pair(int64_t count, int64_t value) {
  return {{"count", count}, {"value", value}};
}

std::vector<std::string> string_list(const json &v) {
  std::vector<std::string> out;
  if (v.is_string()) out.push_back(v.get<std::string>());
  if (!v.is_array()) return out;
  for (const json &e : v) {
    if (e.is_string())
      out.push_back(e.get<std::string>());
    else if (e.is_number_integer())
      out.push_back(std::to_string(e.get<int64_t>()));
  }
  return out;
}

json tree_nodes(const ViewWeights &value, const ProfileResolution *res, const CallTree &tree,
                const CallTree &count_tree) {
  const Profile &p = value.profile();
  const LineKeys &lk = value.lines();
  // The count tree has the same shape (same view but for the measure): match by node id.
  std::unordered_map<uint64_t, const TreeNode *> counts;
  for (const TreeNode &n : count_tree.nodes) counts[n.id] = &n;
  json out = json::array();
  for (const TreeNode &n : tree.nodes) {
    const Frame &fr = p.frames[n.frame];
    uint32_t file = lk.file_of_function(fr.function);
    auto c = counts.find(n.id);
    int64_t cs = c == counts.end() ? 0 : c->second->self,
            ct = c == counts.end() ? 0 : c->second->total;
    json node = {{"id", n.id},
                 {"parent", n.parent == kNoNode ? json(nullptr) : json(n.parent)},
                 {"depth", n.depth},
                 {"name", value.functions().label(n.function_key)},
                 {"kind", frame_kind_name(fr.kind)},
                 {"frame", n.frame},
                 {"self", weight_pair(cs, n.self)},
                 {"total", weight_pair(ct, n.total)}};
    if (file != kNoKey) node["file"] = lk.file_name(file);
    if (n.line > 0) node["line"] = n.line;
    if (res && res->of(fr.function).status == ResolutionStatus::resolved)
      node["uri"] = uri_of_path(std::string(res->of(fr.function).path));
    out.push_back(std::move(node));
  }
  return out;
}

} // namespace

View LspServer::request_view(const LoadedProfile &lp, const json &params) const {
  std::string event;
  if (params.is_object() && params.contains("event") && params["event"].is_string())
    event = params["event"].get<std::string>();
  Session::check_event(*lp.profile, event);
  View view = session_.view(lp, event);
  if (!params.is_object()) return view;
  if (params.contains("measure")) {
    const json &m = params["measure"];
    if (m != "count" && m != "value")
      throw Failure::bad_params("params.measure must be \"count\" or \"value\"");
    view.measure = m == "count" ? Measure::count : Measure::value;
  }
  ViewSpec spec;
  bool overridden = false;
  if (params.contains("threads")) {
    spec.threads = string_list(params["threads"]);
    view.threads = {};
    overridden = true;
  }
  if (params.contains("from") || params.contains("to")) {
    auto str = [&](const char *k) {
      if (!params.contains(k) || params[k].is_null()) return std::string();
      return params[k].is_string() ? params[k].get<std::string>() : dump_json(params[k]);
    };
    spec.from = str("from");
    spec.to = str("to");
    view.from_ns.reset();
    view.to_ns.reset();
    overridden = true;
  }
  if (overridden) {
    View extra;
    std::string error;
    if (!make_view(spec, *lp.index, &extra, &error)) throw Failure::bad_params(error);
    if (params.contains("threads")) view.threads = extra.threads;
    if (extra.from_ns) view.from_ns = extra.from_ns;
    if (extra.to_ns) view.to_ns = extra.to_ns;
  }
  if (params.contains("states")) view.states = string_list(params["states"]);
  if (params.contains("hide")) view.hide = string_list(params["hide"]);
  if (params.contains("include")) view.include = string_list(params["include"]);
  if (params.contains("exclude")) view.exclude = string_list(params["exclude"]);
  if (params.contains("noIdle") && params["noIdle"].is_boolean())
    view.no_idle = params["noIdle"].get<bool>();
  std::string error;
  if (!check_view_patterns(view, &error)) throw Failure::bad_params("params." + error);
  if (params.contains("states")) {
    const Profile &p = *lp.profile;
    const int e = view.event.empty() ? p.metadata.default_event : p.find_event(view.event);
    if (e >= 0 && !check_view_states(p, static_cast<EventId>(e), view.states, &error))
      throw Failure::bad_params("params.states: " + error);
  }
  return view;
}

namespace {
// An event's thread states, most samples first: [{name, samples, total: {count, value}}].
json states_json(const std::vector<StateRow> &states) {
  json out = json::array();
  for (const StateRow &s : states)
    out.push_back(
        {{"name", s.name}, {"samples", s.samples}, {"total", weight_pair(s.count, s.value)}});
  return out;
}
} // namespace

void LspServer::on_events(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id;
  r.optional("profileId", &id);
  if (!r.ok()) throw Failure::bad_params(r.error());
  const LoadedProfile *lp = &session_.profile(id);
  json events = json::array();
  for (const EventRow &e : list_events(*lp->profile))
    events.push_back({{"name", e.name},
                      {"unit", e.unit},
                      {"total", weight_pair(e.count, e.value)},
                      {"samples", e.samples},
                      {"hasTime", e.has_time},
                      {"default", e.is_default},
                      {"sources", e.sources},
                      {"rule", e.rule},
                      {"states", states_json(e.states)}});
  reply({{"profileId", lp->id}, {"events", events}});
}

void LspServer::on_threads(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id;
  bool grouped = true;
  r.optional("profileId", &id);
  r.optional("grouped", &grouped);
  if (!r.ok()) throw Failure::bad_params(r.error());
  const LoadedProfile *lp = &session_.profile(id);
  View view = request_view(*lp, params);
  run_query(
      *lp, reply, [index = lp->index, view, grouped, cancel = reply.cancel_flag()]() -> Outcome {
        ThreadsResult t = thread_weights(*index, view, grouped, cancel);
        if (!t.error.empty()) return Failure::failed(t.error);
        json rows = json::array();
        for (const ThreadRow &row : t.rows) {
          json j = {{"name", row.name}, {"weight", row.weight}, {"threads", row.members.size()}};
          if (row.os_tid >= 0) j["osTid"] = row.os_tid;
          if (row.java_tid >= 0) j["javaTid"] = row.java_tid;
          rows.push_back(j);
        }
        const int e = view.event.empty() ? index->profile().metadata.default_event
                                         : index->profile().find_event(view.event);
        json states = json::array();
        if (e >= 0)
          states = states_json(list_events(index->profile())[static_cast<size_t>(e)].states);
        return json{{"total", t.view_total}, {"threads", rows}, {"states", states}};
      });
}

void LspServer::on_tree(const json &params, Reply reply, const char *kind) {
  FieldReader r(params);
  std::string id, function, file, uri;
  int64_t line = 0, depth = 0, max_nodes = 0;
  double min_percent = -1;
  bool lines = false;
  r.optional("profileId", &id);
  r.optional("lines", &lines);
  r.optional("function", &function);
  r.optional("file", &file);
  r.optional("uri", &uri);
  r.optional("line", &line, 0, INT32_MAX);
  r.optional("maxDepth", &depth, 0, 100000);
  r.optional("maxNodes", &max_nodes, 0, 10'000'000);
  if (params.is_object() && params.contains("minPercent")) {
    if (!params["minPercent"].is_number())
      throw Failure::bad_params("params.minPercent must be a number");
    min_percent = params["minPercent"].get<double>();
  }
  if (!r.ok()) throw Failure::bad_params(r.error());
  const std::string what = kind;
  const bool flame = what == "flameGraph";
  const bool anchored = !function.empty() || line > 0;
  if ((what == "callers" || what == "callees") && !anchored)
    throw Failure::bad_params("params.function, or params.uri/file with params.line, is required");
  if (line > 0 && file.empty() && uri.empty())
    throw Failure::bad_params("params.line needs params.uri or params.file");
  const LoadedProfile *lp = &session_.profile(id);
  if (std::string why = totals_unavailable(lp->views->index().profile()); !why.empty())
    throw Failure::failed(why);
  View view = request_view(*lp, params);
  Session::check_method(*lp, view.grouping, "function", function);
  TreeOptions o;
  o.direction = what == "callers" ? TreeDirection::callers : TreeDirection::callees;
  o.method = function;
  o.line = static_cast<int32_t>(line);
  o.lines = lines;
  o.max_depth = static_cast<uint32_t>(depth);
  // A flame graph of a 10M-sample profile must fit in one message: by default nodes below
  // 0.01% are dropped and at most 20,000 nodes sent.
  o.min_pct = min_percent >= 0 ? min_percent : flame ? 0.01 : 0;
  o.max_nodes = max_nodes > 0 ? static_cast<size_t>(max_nodes) : flame ? 20000 : 5000;
  std::string path = uri.empty() ? std::string() : path_of_uri(uri);
  run_query(*lp, reply,
            [views = lp->views, res = lp->resolution, view, o, file, path, flame,
             cancel = reply.cancel_flag()]() mutable -> Outcome {
              View count_view = view;
              count_view.measure = view.measure == Measure::value ? Measure::count : Measure::value;
              ViewResult v = views->get(view, cancel), c = views->get(count_view, cancel);
              if (!v.ok() || !c.ok()) return Failure::failed(v.ok() ? c.error : v.error);
              const ViewWeights &value = view.measure == Measure::value ? *v.weights : *c.weights;
              const ViewWeights &count = view.measure == Measure::value ? *c.weights : *v.weights;
              std::vector<std::string> keys;
              if (!file.empty()) keys.push_back(file);
              if (!path.empty())
                keys = recorded_keys_for_path(res.get(), views->index().lines(), path);
              if (o.line > 0 && keys.empty())
                return Failure::failed("no frame of the profile is in that file");
              CallTree tree, count_tree;
              if (flame) {
                tree = flame_graph(value, o, cancel);
                count_tree = flame_graph(count, o, cancel);
              } else if (keys.empty()) {
                tree = call_tree(value, o, cancel);
                count_tree = call_tree(count, o, cancel);
              } else {
                // A line anchor: the first recorded file that has frames on the line.
                for (const std::string &k : keys) {
                  o.file = k;
                  tree = call_tree(value, o, cancel);
                  if (tree.anchor_found) break;
                }
                count_tree = call_tree(count, o, cancel);
              }
              if (cancel && cancel->load()) return Failure::cancelled();
              if (tree.anchored && !tree.anchor_found)
                return Failure::failed("nothing in the profile matches the anchor");
              return json{{"event", value.event_name()},
                          {"unit", value.unit()},
                          {"total", weight_pair(count.total, value.total)},
                          {"nodes", tree_nodes(value, res.get(), tree, count_tree)}};
            });
}

void LspServer::on_flame_graph(const json &params, Reply reply) {
  on_tree(params, reply, "flameGraph");
}
void LspServer::on_call_tree(const json &params, Reply reply) {
  on_tree(params, reply, "callTree");
}
void LspServer::on_callers(const json &params, Reply reply) {
  on_tree(params, reply, "callers");
}
void LspServer::on_callees(const json &params, Reply reply) {
  on_tree(params, reply, "callees");
}

void LspServer::on_timeline(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id, compare;
  int64_t buckets = 0, resolution_ms = 0;
  r.optional("profileId", &id);
  r.optional("compareEvent", &compare);
  r.optional("buckets", &buckets, 0, 100000);
  r.optional("resolutionMs", &resolution_ms, 0, INT32_MAX);
  if (!r.ok()) throw Failure::bad_params(r.error());
  const LoadedProfile *lp = &session_.profile(id);
  View view = request_view(*lp, params);
  if (!compare.empty()) Session::check_event(*lp->profile, compare);
  TimelineOptions o;
  o.buckets = static_cast<uint32_t>(buckets);
  o.resolution_ns = resolution_ms * 1'000'000;
  o.compare_event = compare;
  run_query(*lp, reply, [index = lp->index, view, o, cancel = reply.cancel_flag()]() -> Outcome {
    Timeline t = timeline(*index, view, o, cancel);
    if (!t.error.empty()) return Failure::failed(t.error);
    json buckets = json::array();
    for (const TimelineBucket &b : t.buckets) {
      json j = {{"start", b.start_ns}, {"end", b.end_ns}, {"weight", b.weight}, {"peak", b.peak}};
      if (!t.compare_event.empty()) j["compareWeight"] = b.compare_weight;
      if (b.hot_key != kNoKey) j["hot"] = {{"name", b.hot_name}, {"self", b.hot_self}};
      buckets.push_back(j);
    }
    json out = {{"event", t.event},   {"unit", t.unit},          {"from", t.from_ns},
                {"to", t.to_ns},      {"bucketNs", t.bucket_ns}, {"total", t.total},
                {"median", t.median}, {"buckets", buckets}};
    if (!t.compare_event.empty()) {
      out["compareEvent"] = t.compare_event;
      out["compareUnit"] = t.compare_unit;
      out["compareTotal"] = t.compare_total;
    }
    return out;
  });
}

void LspServer::on_diff(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id, baseline, uri, sort = "self";
  int64_t top = 100;
  r.optional("profileId", &id);
  r.optional("baselineId", &baseline);
  r.optional("uri", &uri);
  r.optional("sort", &sort);
  r.optional("limit", &top, 0, 1'000'000);
  if (!r.ok()) throw Failure::bad_params(r.error());
  if (baseline.empty()) baseline = session_.baseline_id;
  if (baseline.empty())
    throw Failure::bad_params("params.baselineId is required (or set a baseline first)");
  const LoadedProfile *after = &session_.profile(id);
  const LoadedProfile *before = &session_.profile(baseline);
  View va = request_view(*after, params), vb = request_view(*before, params);
  DiffOptions o;
  o.measure = sort == "total" ? SortBy::total : SortBy::self;
  o.top = static_cast<size_t>(top);
  std::string path = path_of_uri(uri);
  run_query(
      *after, reply,
      [a = after->views, b = before->views, res = after->resolution, va, vb, o, path,
       cancel = reply.cancel_flag()]() -> Outcome {
        ViewResult ra = a->get(va, cancel), rb = b->get(vb, cancel);
        if (!ra.ok() || !rb.ok()) return Failure::failed(ra.ok() ? rb.error : ra.error);
        Diff d;
        std::string file;
        if (path.empty()) {
          d = diff_functions(*rb.weights, *ra.weights, o);
        } else {
          std::vector<std::string> keys =
              recorded_keys_for_path(res.get(), a->index().lines(), path);
          if (keys.empty()) return Failure::failed("no frame of the profile is in that file");
          file = keys[0];
          d = diff_lines(*rb.weights, *ra.weights, file, o);
        }
        json rows = json::array();
        for (const DiffRow &row : d.rows) {
          json j = {{"name", row.name},
                    {"before", row.before},
                    {"after", row.after},
                    {"beforePercent", row.before_pct},
                    {"afterPercent", row.after_pct},
                    {"delta", row.delta_pct},
                    {"status", diff_status_name(row.status)}};
          if (row.line > 0) j["line"] = row.line;
          rows.push_back(j);
        }
        json out = {{"beforeTotal", d.before_total}, {"afterTotal", d.after_total}, {"rows", rows}};
        if (!file.empty()) out["file"] = file;
        return out;
      });
}

} // namespace hotlines
