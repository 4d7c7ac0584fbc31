// Shared CLI plumbing (see input.h).
// Threading: Single-threaded (the CLI's main thread); view computation uses both cores.
#include "server/cli/input.h"

#include "formats/loader.h"
#include "server/engine/query_hot.h"
#include "server/engine/units.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace hotlines {

int cli_workspace(const CliFlags &f, std::shared_ptr<WorkspaceIndex> *workspace,
                  ResolverOptions *options) {
  WorkspaceOptions wo;
  if (f.has("skip")) wo.skip_dirs = f.extra().at("skip");
  *workspace = std::make_shared<WorkspaceIndex>(wo);
  if (f.has("root"))
    for (const std::string &root : f.extra().at("root")) (*workspace)->add_root(root);
  else
    (*workspace)->add_root(".");
  if (f.has("remap"))
    for (const std::string &text : f.extra().at("remap")) {
      PathRemap r;
      if (!parse_remap(text, &r))
        return cli_fail(kExitUsage, "--remap wants FROM=TO, got '" + text + "'", f.json);
      options->remaps.push_back(r);
    }
  return kExitOk;
}

int cli_fail(int code, const std::string &message, bool json, Json extra) {
  fprintf(stderr, "hotlines: %s\n", message.c_str());
  if (json) {
    Json j;
    j["error"] = message;
    j["exit_code"] = code;
    for (auto &[k, v] : extra.items()) j[k] = v;
    print_json(j);
  }
  return code;
}

bool CliInput::load(const std::string &path, const CliFlags &flags, bool one_event,
                    CliReads reads) {
  path_ = path;
  json_ = flags.json;
  LoadOptions options;
  options.limits = flags.limits;
  if (one_event) {
    options.only_event = flags.event;
    options.sample_threads = reads.threads || !flags.threads.empty();
    options.sample_times = reads.times || !flags.from.empty() || !flags.to.empty();
    options.merge_samples = true; // when neither is read
  }
  LoadResult r = load_profile_file(path, options);
  if (!r.ok()) {
    cli_fail(kExitInput, r.describe(), json_);
    return false;
  }
  // One question per run: the index builds only what the command's view reads.
  index_ =
      ProfileIndex::build(std::shared_ptr<const Profile>(std::move(r.profile)), nullptr, 0, false);
  return true;
}

int CliInput::open(const CliFlags &flags, std::shared_ptr<const ViewWeights> *out, CliReads reads) {
  if (!load(flags.files[0], flags, !reads.other_events, reads)) return kExitInput;
  return view(flags, out);
}

int CliInput::view(const CliFlags &flags, std::shared_ptr<const ViewWeights> *out,
                   const std::string *from, const std::string *to) const {
  View v;
  std::string err;
  if (!make_view(flags, *index_, &v, &err, from, to)) return cli_fail(kExitUsage, err, json_);
  if (!flags.method.empty() && !index_->functions(v.grouping).check_method(flags.method, &err))
    return cli_fail(kExitUsage, "-m: " + err, json_);
  ViewResult r = compute_view(*index_, v);
  if (!r.ok()) return cli_fail(kExitInput, path_ + ": " + r.error, json_);
  *out = r.weights;
  return 0;
}

int cli_need_totals(const ViewWeights &view, bool json) {
  const std::string why = totals_unavailable(view.profile());
  return why.empty() ? 0 : cli_fail(kExitInput, why, json);
}

int cli_no_match(const ViewWeights &view, const std::string &pattern, bool json) {
  std::vector<std::string> close = closest_function_names(view, pattern);
  std::string msg = "no function matches '" + pattern + "'";
  if (!close.empty()) {
    msg += "; closest:";
    for (const std::string &c : close) msg += "\n  " + c;
  }
  Json extra;
  extra["pattern"] = pattern;
  extra["closest"] = close;
  return cli_fail(kExitInput, msg, json, extra);
}

bool any_function_matches(const ViewWeights &view, const std::string &pattern) {
  HotOptions any;
  any.method = pattern;
  return hot_functions(view, any).matched > 0;
}

Json view_json(const ViewWeights &v, const std::string &path) {
  Json j;
  j["file"] = path;
  j["event"] = std::string(v.event_name());
  j["measure"] = v.measure == Measure::count ? "count" : "value";
  j["unit"] = std::string(v.unit());
  j["total"] = v.total;
  j["samples"] = v.samples;
  Json f = Json::object();
  const View &w = v.view;
  if (!w.threads.empty()) {
    Json t = Json::array();
    for (const auto &s : w.threads.names) t.push_back(s);
    for (const auto &s : w.threads.patterns) t.push_back(s);
    for (int64_t id : w.threads.ids) t.push_back(std::to_string(id));
    f["threads"] = t;
  }
  if (!w.states.empty()) f["states"] = w.states;
  if (w.from_ns) f["from_ns"] = *w.from_ns;
  if (w.to_ns) f["to_ns"] = *w.to_ns;
  if (!w.include.empty()) f["include"] = w.include;
  if (!w.exclude.empty()) f["exclude"] = w.exclude;
  if (!w.hide.empty()) f["hide"] = w.hide;
  if (w.no_idle) f["no_idle"] = true;
  if (w.grouping == FunctionGrouping::fqn) f["fqn"] = true;
  j["filters"] = f;
  return j;
}

std::string view_header(const ViewWeights &v, const std::string &path) {
  std::string s = "event " + std::string(v.event_name()) + ", " + format_weight(v.total, v.unit());
  if (v.unit() == "samples" || v.measure == Measure::count)
    s += " samples";
  else if (v.unit() == "count")
    s += " (count)";
  std::string filters;
  const View &w = v.view;
  for (const auto &t : w.threads.patterns) filters += "  thread~" + t;
  for (int64_t id : w.threads.ids) filters += "  thread=" + std::to_string(id);
  for (const auto &st : w.states) filters += "  state=" + st;
  if (w.from_ns || w.to_ns)
    filters += "  window [" + (w.from_ns ? format_seconds(*w.from_ns) : std::string("start")) +
               ", " + (w.to_ns ? format_seconds(*w.to_ns) : std::string("end")) + ")";
  for (const auto &p : w.include) filters += "  include " + p;
  for (const auto &p : w.exclude) filters += "  exclude " + p;
  for (const auto &p : w.hide) filters += "  hide " + p;
  if (w.no_idle) filters += "  no-idle";
  return s + filters + "  (" + path + ")\n";
}

void print_json(const Json &j) {
  std::string s = j.dump(2, ' ', false, Json::error_handler_t::replace);
  fwrite(s.data(), 1, s.size(), stdout);
  fputc('\n', stdout);
}

std::string base_name(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void print_output(bool json, const Json &j, const std::string &text) {
  if (json)
    print_json(j);
  else
    fputs(text.c_str(), stdout);
}

bool write_output(const std::string &path, const std::string &bytes, std::string *error) {
  FILE *f = path == "-" ? stdout : fopen(path.c_str(), "wb");
  if (!f) {
    *error = "cannot write " + path + ": " + strerror(errno);
    return false;
  }
  bool ok = fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (path == "-" ? fflush(f) == 0 : fclose(f) == 0) && ok;
  if (!ok) *error = "cannot write " + path + ": " + strerror(errno);
  return ok;
}

} // namespace hotlines
