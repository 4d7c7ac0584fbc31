// Profiled-run types and their JSON (see run_types.h and protocol/README.md).
#include "protocol/run_types.h"

#include "protocol/json_fields.h"

namespace hotlines {

namespace {

// A string array field; with `split_colons` one string is accepted too, split at ':'.
std::string string_list(const json &obj, const char *key, std::vector<std::string> *out,
                        bool split_colons = false) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return "";
  std::string where = std::string("params.") + key;
  if (split_colons && it->is_string()) {
    const std::string s = it->get<std::string>();
    out->clear();
    size_t start = 0;
    for (size_t p; (p = s.find(':', start)) != std::string::npos; start = p + 1)
      if (p > start) out->push_back(s.substr(start, p - start));
    if (start < s.size()) out->push_back(s.substr(start));
    return "";
  }
  if (!it->is_array())
    return where + (split_colons ? " must be a string or an array of strings"
                                 : " must be an array of strings");
  out->clear();
  for (size_t i = 0; i < it->size(); i++) {
    if (!(*it)[i].is_string()) return where + "[" + std::to_string(i) + "] must be a string";
    out->push_back((*it)[i].get<std::string>());
  }
  return "";
}

std::string one_of(const std::string &where, const std::string &value,
                   std::initializer_list<const char *> allowed) {
  std::string list;
  for (const char *a : allowed) {
    if (value == a) return "";
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  return where + " must be one of " + list + " (got '" + value + "')";
}

} // namespace

std::string parse_params(const json &params, RunParams *out) {
  FieldReader r(params);
  r.required("recipe", &out->recipe);
  r.optional("cwd", &out->cwd);
  r.optional("outputDir", &out->output_dir);
  r.optional("timeoutMs", &out->timeout_ms, 0, int64_t(1) << 40);
  r.optional("class", &out->class_name);
  r.optional("method", &out->method);
  r.optional("build", &out->build);
  r.optional("runner", &out->runner);
  r.optional("junitConsole", &out->junit_console);
  r.optional("mainClass", &out->main_class);
  r.optional("jar", &out->jar);
  r.optional("java", &out->java);
  r.optional("maven", &out->maven);
  r.optional("gradle", &out->gradle);
  r.optional("jfrSettings", &out->jfr_settings);
  r.optional("package", &out->package);
  r.optional("test", &out->test);
  r.optional("bench", &out->bench);
  r.optional("profile", &out->profile);
  r.optional("go", &out->go);
  r.optional("format", &out->format);
  r.optional("pid", &out->pid, 1, int64_t(1) << 31);
  r.optional("durationMs", &out->duration_ms, 1, int64_t(1) << 40);
  r.optional("jcmd", &out->jcmd);
  r.optional("file", &out->file);
  r.optional("node", &out->node);
  r.optional("profiler", &out->profiler);
  r.optional("perf", &out->perf);
  r.optional("callGraph", &out->call_graph);
  r.optional("binary", &out->binary);
  r.optional("buildDir", &out->build_dir);
  const json &env = r.object("env");
  const json &ap = r.object("asyncProfiler");
  if (!r.ok()) return r.error();
  for (auto it = env.begin(); it != env.end(); ++it) {
    if (!it->is_string()) return "params.env." + it.key() + " must be a string";
    out->env[it.key()] = it->get<std::string>();
  }
  FieldReader a(ap, "params.asyncProfiler");
  a.optional("path", &out->async_profiler_path);
  a.optional("event", &out->async_profiler_event);
  if (!a.ok()) return a.error();
  struct ListField {
    const char *key;
    std::vector<std::string> *out;
    bool colons;
  };
  for (const ListField &f :
       {ListField{"classpath", &out->classpath, true}, ListField{"args", &out->args, false},
        ListField{"jvmArgs", &out->jvm_args, false},
        ListField{"buildArgs", &out->build_args, false}, ListField{"goArgs", &out->go_args, false},
        ListField{"nodeArgs", &out->node_args, false}, ListField{"argv", &out->argv, false},
        ListField{"perfArgs", &out->perf_args, false}}) {
    std::string err = string_list(params, f.key, f.out, f.colons);
    if (!err.empty()) return err;
  }
  std::string err = one_of("params.recipe", out->recipe,
                           {"java-test", "java-main", "go-test", "go-bench", "node-test",
                            "node-script", "command", "attach-jvm", "gtest"});
  if (err.empty())
    err = one_of("params.build", out->build, {"auto", "maven", "gradle", "classpath", "none"});
  if (err.empty())
    err = one_of("params.runner", out->runner,
                 {"auto", "junit4", "junit5", "node", "jest", "vitest", "mocha", "npm"});
  if (err.empty()) err = one_of("params.profile", out->profile, {"cpu", "mem", "block", "mutex"});
  if (err.empty() && !out->format.empty())
    err = one_of("params.format", out->format, {"jfr", "pprof", "collapsed", "cpuprofile"});
  if (err.empty() && !out->profiler.empty())
    err = one_of("params.profiler", out->profiler, {"perf"});
  if (err.empty()) err = one_of("params.callGraph", out->call_graph, {"auto", "fp", "dwarf"});
  if (err.empty())
    err = one_of("params.asyncProfiler.event", out->async_profiler_event,
                 {"cpu", "wall", "alloc", "lock", "itimer", "cpu-clock"});
  return err;
}

json to_json(const RunStarted &r) {
  return {{"runId", r.run_id}, {"profilePath", r.profile_path}, {"commands", r.commands}};
}

json to_json(const RunOutput &o) {
  return {{"runId", o.run_id}, {"stream", o.stream}, {"text", o.text}};
}

json to_json(const RunFinished &f) {
  json j = {{"runId", f.run_id},
            {"exitCode", f.exit_code ? json(*f.exit_code) : json(nullptr)},
            {"signal", f.signal.empty() ? json(nullptr) : json(f.signal)},
            {"profilePath", f.profile_path},
            {"profileId", f.profile_id.empty() ? json(nullptr) : json(f.profile_id)},
            {"durationMs", f.duration_ms}};
  if (f.error)
    j["error"] = {
        {"kind", f.error->kind}, {"message", f.error->message}, {"output", f.error->output}};
  return j;
}

std::string parse_params(const json &params, CancelRunParams *out) {
  FieldReader r(params);
  r.required("runId", &out->run_id);
  return r.error();
}

std::string parse_params(const json &params, ListJvmsParams *out) {
  FieldReader r(params);
  r.optional("jcmd", &out->jcmd);
  return r.error();
}

json to_json(const std::vector<JvmInfo> &jvms) {
  json list = json::array();
  for (const JvmInfo &j : jvms)
    list.push_back({{"pid", j.pid}, {"mainClass", j.main_class}, {"args", j.args}});
  return {{"jvms", list}};
}

std::string parse_params(const json &params, TestsInFileParams *out) {
  FieldReader r(params);
  const json &doc = r.object("textDocument");
  if (!r.ok()) return r.error();
  FieldReader d(doc, "params.textDocument");
  d.required("uri", &out->uri);
  return d.error();
}

json to_json(const Range &r) {
  return {{"start", {{"line", r.start.line}, {"character", r.start.character}}},
          {"end", {{"line", r.end.line}, {"character", r.end.character}}}};
}

json to_json(const TestsInFileResult &r) {
  auto entries = [](const std::vector<TestEntry> &list) {
    json out = json::array();
    for (const TestEntry &t : list)
      out.push_back({{"kind", t.kind},
                     {"name", t.name},
                     {"range", to_json(t.range)},
                     {"selectionRange", to_json(t.selection_range)},
                     {"run", t.run}});
    return out;
  };
  return {{"uri", r.uri},
          {"language", r.language},
          {"tests", entries(r.tests)},
          {"mains", entries(r.mains)},
          {"classes", entries(r.classes)}};
}

} // namespace hotlines
