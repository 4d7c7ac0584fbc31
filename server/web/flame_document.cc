// The web view's data document (see flame_document.h).
// Threading: Runs on the calling thread; reads the shared, immutable index only.
#include "server/web/flame_document.h"

#include "server/engine/callee_shape.h"
#include "server/engine/function_keys.h"
#include "server/engine/query_tree.h"
#include "server/engine/view_filter.h"
#include "server/engine/view_weights.h"
#include "server/sources/profile_resolution.h"

#include <algorithm>
#include <unordered_map>

namespace hotlines {

using Json = nlohmann::ordered_json;

namespace {

constexpr int64_t kNoRowNode = -1; // samples with an empty stack

struct RowKey {
  uint32_t node, thread, bucket;
  bool operator==(const RowKey &) const = default;
};
struct RowKeyHash {
  size_t operator()(const RowKey &k) const {
    uint64_t h = (static_cast<uint64_t>(k.node) << 32 | k.thread) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>((h ^ (h >> 29)) + k.bucket * 0xC2B2AE3D27D4EB4Full);
  }
};

struct Row {
  uint32_t event, node, thread, bucket; // node kNoNode: empty stack
  int64_t count, value;
};

// Sample rows of every event, aggregated per (node, thread, bucket).
std::vector<Row> aggregate_rows(const Profile &p, const CalleeShape &shape, int64_t bucket_ns,
                                uint32_t buckets) {
  std::vector<Row> rows;
  std::unordered_map<RowKey, size_t, RowKeyHash> at;
  for (uint32_t e = 0; e < p.events.size(); e++) {
    const SampleColumns &c = p.events[e].samples;
    at.clear();
    const size_t first = rows.size();
    for (size_t i = 0; i < c.size(); i++) {
      StackId s = c.stack_at(i);
      uint32_t node = s == kNoStack ? kNoNode : shape.of_node[s];
      uint32_t bucket = 0;
      if (bucket_ns > 0 && c.has_time())
        bucket = static_cast<uint32_t>(std::min<int64_t>(c.time.at(i) / bucket_ns, buckets - 1));
      RowKey k{node, c.thread_at(i), bucket};
      auto [it, inserted] = at.try_emplace(k, rows.size());
      if (inserted) rows.push_back(Row{e, node, k.thread, bucket, 0, 0});
      Row &r = rows[it->second];
      r.count = saturating_add(r.count, c.count_at(i));
      r.value = saturating_add(r.value, c.value_at(i));
    }
    std::sort(rows.begin() + static_cast<ptrdiff_t>(first), rows.end(),
              [](const Row &a, const Row &b) {
                // Empty stacks (kNoNode) sort last within the event.
                if (a.node != b.node) return a.node < b.node;
                if (a.thread != b.thread) return a.thread < b.thread;
                return a.bucket < b.bucket;
              });
  }
  return rows;
}

// The heaviest frame merged into each result node: by the initial event's cumulative weight
// (as the query engine picks it), and for nodes without weight there, the other events'.
std::vector<FrameId> heaviest_frames(const ProfileIndex &index, const CalleeShape &shape,
                                     EventId initial, Measure measure) {
  const Profile &p = index.profile();
  const size_t n = shape.size();
  std::vector<FrameId> best(n, 0);
  std::vector<int64_t> best_w(n, -1);
  std::vector<uint8_t> decided(n, 0);
  std::vector<EventId> order{initial};
  for (EventId e = 0; e < p.events.size(); e++)
    if (e != initial) order.push_back(e);
  for (EventId e : order) {
    std::shared_ptr<const ViewWeights> v =
        index.unfiltered(e, e == initial ? measure : Measure::value);
    if (!v || !v->tree->is_profile_tree()) continue;
    const NodeTotals &cum = v->cum();
    std::vector<int64_t> w(n, -1);
    std::vector<FrameId> f(n, 0);
    for (size_t s = 0; s < p.stack_count(); s++) {
      uint32_t r = shape.of_node[s];
      if (decided[r] || cum[s] <= 0) continue;
      FrameId frame = p.stack_frame[s];
      if (cum[s] > w[r] || (cum[s] == w[r] && frame < f[r])) {
        w[r] = cum[s];
        f[r] = frame;
      }
    }
    for (size_t r = 0; r < n; r++)
      if (!decided[r] && w[r] > 0) {
        best[r] = f[r];
        best_w[r] = w[r];
        decided[r] = 1;
      }
  }
  // Nodes no sample weighs (none are emitted) keep frame 0; fall back to any merged frame.
  for (size_t s = 0; s < p.stack_count(); s++) {
    uint32_t r = shape.of_node[s];
    if (best_w[r] < 0) {
      best[r] = p.stack_frame[s];
      best_w[r] = 0;
    }
  }
  return best;
}

Json baseline_json(const ProfileIndex &base, std::string_view event, Measure measure,
                   const std::string &title, std::string *error) {
  const Profile &p = base.profile();
  int e = p.find_event(event);
  if (e < 0) {
    *error = "the baseline has no event '" + std::string(event) + "'";
    return {};
  }
  std::shared_ptr<const ViewWeights> v = base.unfiltered(static_cast<EventId>(e), measure);
  CallTree t = flame_graph(*v);
  Json ids = Json::array(), self = Json::array(), total = Json::array();
  for (const TreeNode &n : t.nodes) {
    ids.push_back(n.id);
    self.push_back(n.self);
    total.push_back(n.total);
  }
  Json j;
  j["title"] = title;
  j["event"] = std::string(event);
  j["measure"] = measure == Measure::count ? "count" : "value";
  j["total"] = v->total;
  j["nodes"] = {{"id", ids}, {"self", self}, {"total", total}};
  return j;
}

// What the page shows as a frame's file: the recorded path; for a JVM class the resolved
// file's last components, as many as the class has (`org/acme/shop/Pricing.java`, or `.kt`),
// or the `.java` guess when it did not resolve.
std::string source_file_label(const Function &f, const Resolution &r) {
  std::string_view rec = r.recorded;
  if (f.file != 0 || rec.find('.') != std::string_view::npos) return std::string(rec);
  if (r.path.empty()) return std::string(rec) + ".java";
  size_t parts = 1 + static_cast<size_t>(std::count(rec.begin(), rec.end(), '/'));
  size_t at = r.path.size();
  for (size_t i = 0; i < parts && at != std::string_view::npos && at > 0; i++)
    at = r.path.rfind('/', at - 1);
  return std::string(at == std::string_view::npos ? r.path : r.path.substr(at + 1));
}

// The initial event: the one options name, else the profile's default. False with *error
// when the profile has no such event, or none at all.
bool initial_event(const Profile &p, const std::string &event, EventId *initial,
                   std::string *error) {
  *initial = static_cast<EventId>(std::max(0, p.metadata.default_event));
  if (!event.empty()) {
    int e = p.find_event(event);
    if (e < 0) {
      *error = unknown_event_error(p, event);
      return false;
    }
    *initial = static_cast<EventId>(e);
  }
  if (p.events.empty()) {
    *error = "the profile has no events";
    return false;
  }
  return true;
}

// The sample rows, in timeline buckets coarser until the rows fit: *bucket_ns is 0 (and
// *buckets 1) for a profile without timestamps.
std::vector<Row> fitting_rows(const ProfileIndex &index, const CalleeShape &shape,
                              const FlameDocumentOptions &o, int64_t *bucket_ns,
                              uint32_t *buckets) {
  const Profile &p = index.profile();
  *bucket_ns = 0;
  *buckets = 1;
  if (index.has_time()) {
    *bucket_ns = flame_bucket_ns(index.end_ns(), o.buckets);
    *buckets =
        static_cast<uint32_t>(std::max<int64_t>(1, (index.end_ns() + *bucket_ns - 1) / *bucket_ns));
  }
  std::vector<Row> rows = aggregate_rows(p, shape, *bucket_ns, *buckets);
  while (*bucket_ns > 0 && *buckets > 1 && rows.size() > o.max_rows) {
    *bucket_ns *= 4;
    *buckets =
        static_cast<uint32_t>(std::max<int64_t>(1, (index.end_ns() + *bucket_ns - 1) / *bucket_ns));
    rows = aggregate_rows(p, shape, *bucket_ns, *buckets);
  }
  return rows;
}

// The nodes some sample weighs, with their ancestors, renumbered in shape order (parents
// before children).
struct OutputNodes {
  std::vector<uint32_t> out_id;    // by shape node; kNoNode when not output
  std::vector<uint32_t> functions; // function keys in output order
  Json columns;                    // parent, fn, kind, line, id
};

OutputNodes output_nodes(const ProfileIndex &index, const CalleeShape &shape,
                         const FunctionKeys &fk, const std::vector<Row> &rows, EventId initial,
                         Measure measure) {
  const Profile &p = index.profile();
  const size_t n = shape.size();
  OutputNodes out;
  out.out_id.assign(n, kNoNode);
  std::vector<uint8_t> used(n, 0);
  for (const Row &r : rows)
    for (uint32_t x = r.node; x != kNoNode && x != kTopParent && !used[x]; x = shape.parent[x])
      used[x] = 1;
  std::vector<FrameId> frame = heaviest_frames(index, shape, initial, measure);
  std::vector<uint32_t> fn_out(fk.size(), kNoNode);
  Json parent = Json::array(), fn = Json::array(), kind = Json::array(), line = Json::array(),
       id = Json::array();
  uint32_t count = 0;
  for (uint32_t r = 0; r < n; r++) {
    if (!used[r]) continue;
    out.out_id[r] = count++;
    uint32_t key = shape.key[r];
    if (fn_out[key] == kNoNode) {
      fn_out[key] = static_cast<uint32_t>(out.functions.size());
      out.functions.push_back(key);
    }
    const Frame &f = p.frames[frame[r]];
    parent.push_back(
        shape.parent[r] == kTopParent ? -1 : static_cast<int64_t>(out.out_id[shape.parent[r]]));
    fn.push_back(fn_out[key]);
    kind.push_back(static_cast<int>(f.kind));
    line.push_back(f.line);
    id.push_back(shape.ids[r]);
  }
  out.columns = {{"parent", parent}, {"fn", fn}, {"kind", kind}, {"line", line}, {"id", id}};
  return out;
}

Json events_json(const Profile &p) {
  Json events = Json::array();
  for (const Event &e : p.events) {
    std::string_view unit = p.str(e.unit);
    events.push_back({{"name", std::string(p.str(e.name))},
                      {"unit", unit.empty() ? "samples" : std::string(unit)},
                      {"total_count", e.total_count},
                      {"total_value", e.total_value},
                      {"timed", e.samples.has_time()}});
  }
  return events;
}

// The profile's threads; *selected gets the ones the initial selection picks (none when it
// is empty).
Json threads_json(const Profile &p, const ThreadFilter &initial, Json *selected) {
  Json threads = Json::array();
  std::vector<uint8_t> picked;
  if (!initial.empty()) picked = threads_matching(p, initial);
  for (size_t t = 0; t < p.threads.size(); t++) {
    const Thread &th = p.threads[t];
    Json tj = {{"name", std::string(p.str(th.name))}};
    if (th.os_tid >= 0) tj["tid"] = th.os_tid;
    if (th.java_tid >= 0) tj["java_tid"] = th.java_tid;
    threads.push_back(tj);
    if (!picked.empty() && picked[t]) selected->push_back(t);
  }
  return threads;
}

// The output functions with their source files, or why they have none.
Json functions_json(const Profile &p, const FunctionKeys &fk,
                    const std::vector<uint32_t> &functions, const ProfileResolution *sources) {
  Json fns = Json::array();
  for (uint32_t key : functions) {
    FunctionId fid = fk.function(key);
    Json fj = {{"name", fk.label(key)}};
    if (!sources) {
      fj["status"] = "unresolved";
      fj["why"] = "sources were not looked up";
    } else {
      const Resolution &r = sources->of(fid);
      if (!r.recorded.empty()) fj["file"] = source_file_label(p.functions[fid], r);
      fj["status"] = std::string(status_name(r.status));
      if (r.status == ResolutionStatus::resolved)
        fj["path"] = std::string(r.path);
      else
        fj["why"] = std::string(r.reason.empty() ? r.rule : r.reason);
    }
    fns.push_back(fj);
  }
  return fns;
}

// The rows as columns, nodes by their output ids; `value` only when some row's differs from
// its count.
Json rows_json(const std::vector<Row> &rows, const std::vector<uint32_t> &out_id) {
  Json rev = Json::array(), rnode = Json::array(), rthread = Json::array(), rbucket = Json::array(),
       rcount = Json::array(), rvalue = Json::array();
  bool values_differ = false;
  for (const Row &r : rows) values_differ |= r.count != r.value;
  for (const Row &r : rows) {
    rev.push_back(r.event);
    rnode.push_back(r.node == kNoNode ? kNoRowNode : static_cast<int64_t>(out_id[r.node]));
    rthread.push_back(r.thread);
    rbucket.push_back(r.bucket);
    rcount.push_back(r.count);
    if (values_differ) rvalue.push_back(r.value);
  }
  Json rj = {
      {"event", rev}, {"node", rnode}, {"thread", rthread}, {"bucket", rbucket}, {"count", rcount}};
  if (values_differ) rj["value"] = rvalue;
  return rj;
}

} // namespace

int64_t flame_bucket_ns(int64_t end_ns, uint32_t buckets) {
  if (buckets == 0) buckets = 1;
  int64_t want = std::max<int64_t>(1, (end_ns + buckets - 1) / buckets);
  for (int64_t scale = 1;; scale *= 10) {
    for (int64_t m : {1, 2, 5})
      if (m * scale >= want) return m * scale;
    if (scale > INT64_MAX / 100) return want;
  }
}

bool build_flame_document(const ProfileIndex &index, const FlameDocumentOptions &o, Json *out,
                          std::string *error) {
  const Profile &p = index.profile();
  if (std::string why = totals_unavailable(p); !why.empty()) return *error = why, false;
  EventId initial;
  if (!initial_event(p, o.event, &initial, error)) return false;
  std::shared_ptr<const CalleeShape> shape = index.callee_shape(false);
  const FunctionKeys &fk = index.functions(FunctionGrouping::name);
  int64_t bucket_ns;
  uint32_t buckets;
  std::vector<Row> rows = fitting_rows(index, *shape, o, &bucket_ns, &buckets);
  OutputNodes nodes = output_nodes(index, *shape, fk, rows, initial, o.measure);

  Json j;
  j["format"] = "hotlines-flame";
  j["version"] = 1;
  j["title"] = o.title;
  j["profile"] = {{"format", p.metadata.format},
                  {"producer", p.metadata.producer},
                  {"start_time_ns", p.metadata.start_time_ns},
                  {"duration_ns", p.metadata.duration_ns}};
  j["events"] = events_json(p);
  Json selected = Json::array();
  j["threads"] = threads_json(p, o.threads, &selected);
  j["initial"] = {{"event", initial},
                  {"measure", o.measure == Measure::count ? "count" : "value"},
                  {"threads", selected}};
  j["kinds"] = Json::array();
  for (int k = 0; k <= static_cast<int>(FrameKind::kernel); k++)
    j["kinds"].push_back(std::string(frame_kind_name(static_cast<FrameKind>(k))));
  j["functions"] = functions_json(p, fk, nodes.functions, o.sources);
  j["nodes"] = std::move(nodes.columns);
  j["rows"] = rows_json(rows, nodes.out_id);
  if (bucket_ns > 0)
    j["timeline"] = {{"bucket_ns", bucket_ns}, {"buckets", buckets}};
  else
    j["timeline"] = nullptr;
  Json roots = Json::array();
  if (o.sources)
    for (const std::string &r : o.sources->workspace().roots()) roots.push_back(r);
  j["link"] = {{"scheme", o.link}, {"roots", roots}};
  if (o.baseline) {
    Json b = baseline_json(*o.baseline, p.str(p.events[initial].name), o.measure, o.baseline_title,
                           error);
    if (!error->empty()) return false;
    j["baseline"] = b;
  }
  *out = std::move(j);
  return true;
}

} // namespace hotlines
