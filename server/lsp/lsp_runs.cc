// LspServer handlers for profiled runs: hotlines/run (also workspace/executeCommand
// hotlines.run), hotlines/cancelRun, hotlines/listJvms and hotlines/testsInFile. Recipes
// build argv plans (run_recipes.h), RunManager runs them, and the profile a run wrote is
// loaded through load_profile when it ends. Threading: loop thread; whatever touches the disk
// (planning a run, which reads package.json and the program's ELF; the run's folders and files;
// what it wrote; a file's tests) runs on a worker.
#include "formats/file_reader.h"
#include "protocol/run_types.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/runs/run_recipes.h"
#include "server/runs/tests_in_file.h"

#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace hotlines {

namespace fs = std::filesystem;

namespace {

// Source files past this are not scanned for tests (no test file is 64 MiB).
constexpr uint64_t kMaxSourceBytes = uint64_t(64) << 20;

std::string now_stamp() {
  time_t t = time(nullptr);
  struct tm tm;
  localtime_r(&t, &tm);
  char buf[32];
  strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

std::string signal_name(int sig) {
  if (sig == 0) return "";
  const char *abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

bool write_file(const std::string &path, const std::string &content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  return static_cast<bool>(out);
}

// The package.json of folder `dir`: found = false when there is none; an error naming the file
// when it cannot be read or is not a package.json.
PackageJson read_package_json(const std::string &dir) {
  PackageJson pkg;
  const std::string path = dir + "/package.json";
  std::error_code ec;
  if (!fs::exists(path, ec)) return pkg;
  FileBytes bytes;
  std::string err;
  ReadFileOptions o;
  o.max_bytes = kMaxSourceBytes;
  if (read_regular_file(path, &bytes, &err, o) != ReadStatus::ok)
    pkg.error = "cannot read " + path + ": " + err;
  else if (err = parse_package_json(bytes.view(), &pkg); !err.empty())
    pkg.error = dir + "/" + err;
  return pkg;
}

// The nearest directory from `dir` up that holds one of `names` ("" if none).
std::string find_up(fs::path dir, std::initializer_list<const char *> names) {
  std::error_code ec;
  for (; !dir.empty(); dir = dir.parent_path()) {
    for (const char *n : names)
      if (fs::exists(dir / n, ec)) return dir.string();
    if (dir == dir.parent_path()) break;
  }
  return "";
}

// A found test's kind as testsInFile names it.
const char *entry_kind(FoundTest::Kind kind) {
  switch (kind) {
  case FoundTest::Kind::junit:
    return "junit";
  case FoundTest::Kind::go_test:
    return "goTest";
  case FoundTest::Kind::go_benchmark:
    return "goBenchmark";
  case FoundTest::Kind::java_main:
    return "javaMain";
  case FoundTest::Kind::junit_class:
    return "junitClass";
  case FoundTest::Kind::node_test:
    return "nodeTest";
  case FoundTest::Kind::gtest:
    return "gtest";
  }
  return "";
}

// Class#method for a JUnit test, the class for a main or a test class, else the function.
std::string entry_name(const FoundTest &t) {
  switch (t.kind) {
  case FoundTest::Kind::junit:
    return t.class_name + "#" + t.name;
  case FoundTest::Kind::java_main:
  case FoundTest::Kind::junit_class:
    return t.class_name;
  case FoundTest::Kind::gtest:
    return t.class_name + "." + t.name;
  default:
    return t.name;
  }
}

// `runner`: a JavaScript file's (detect_node_runner).
json run_params_for(const FoundTest &t, const std::string &file, NodeRunner runner) {
  fs::path dir = fs::path(file).parent_path();
  json run;
  if (t.kind == FoundTest::Kind::junit || t.kind == FoundTest::Kind::java_main ||
      t.kind == FoundTest::Kind::junit_class) {
    run = t.kind == FoundTest::Kind::junit
              ? json{{"recipe", "java-test"}, {"class", t.class_name}, {"method", t.name}}
          : t.kind == FoundTest::Kind::junit_class
              ? json{{"recipe", "java-test"}, {"class", t.class_name}}
              : json{{"recipe", "java-main"}, {"mainClass", t.class_name}};
    std::string root = find_up(dir, {"pom.xml", "build.gradle", "build.gradle.kts",
                                     "settings.gradle", "settings.gradle.kts"});
    if (!root.empty()) run["cwd"] = root;
    return run;
  }
  if (t.kind == FoundTest::Kind::node_test) {
    // In the package's folder: node --test (after its build script) finds the compiled tests;
    // Jest, Vitest and Mocha take the file and the test's full name.
    const bool full = runner != NodeRunner::node;
    run = {{"recipe", "node-test"},
           {"runner", runner_name(runner)},
           {"test", full && !t.suite.empty() ? t.suite + " " + t.name : t.name},
           {"file", file}};
    std::string package = find_up(dir, {"package.json"});
    run["cwd"] = package.empty() ? dir.string() : package;
    return run;
  }
  if (t.kind == FoundTest::Kind::gtest) {
    // ctest in the build of the outermost CMake project holding the file.
    run = {{"recipe", "gtest"}, {"test", t.gtest_filter}};
    fs::path project = find_up(dir, {"CMakeLists.txt"});
    std::error_code ec;
    while (!project.empty() && project != project.parent_path() &&
           fs::exists(project.parent_path() / "CMakeLists.txt", ec))
      project = project.parent_path();
    if (!project.empty()) run["cwd"] = project.string();
    return run;
  }
  bool bench = t.kind == FoundTest::Kind::go_benchmark;
  run = {{"recipe", bench ? "go-bench" : "go-test"}, {bench ? "bench" : "test", t.name}};
  std::string module = find_up(dir, {"go.mod"});
  if (!module.empty()) {
    std::string rel = dir.lexically_relative(module).string();
    run["cwd"] = module;
    run["package"] = rel.empty() || rel == "." ? "." : "./" + rel;
  } else {
    run["cwd"] = dir.string();
    run["package"] = ".";
  }
  return run;
}

// Plans the run and makes its folders and files. Runs on a worker.
std::optional<Failure> prepare_run(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  std::string err = build_run_plan(p, ctx, plan);
  if (!err.empty()) return Failure::bad_params(err);
  std::error_code ec;
  if (!fs::is_directory(plan->cwd, ec))
    return Failure::bad_params("params.cwd is not a directory: " + plan->cwd);
  fs::create_directories(plan->output_dir, ec);
  if (!fs::is_directory(plan->output_dir, ec))
    return Failure::failed("cannot create the output directory " + plan->output_dir);
  const std::string ignore = plan->output_dir + "/.gitignore";
  if (plan->default_output_dir && !fs::exists(ignore, ec) && !write_file(ignore, "*\n"))
    return Failure::failed("cannot write " + ignore);
  for (const RunFile &f : plan->files) {
    fs::create_directories(fs::path(f.path).parent_path(), ec);
    if (!write_file(f.path, f.content)) return Failure::failed("cannot write " + f.path);
  }
  fs::remove(plan->profile_path, ec);
  return std::nullopt;
}

} // namespace

RunManager &LspServer::runs() {
  if (!runs_) runs_ = std::make_unique<RunManager>(work_->loop());
  return *runs_;
}

bool LspServer::runs_still_running() {
  if (!runs_ || runs_->active() == 0) return false;
  if (exiting_) runs_->kill_all(); // nothing outlives the server: kill, then wait for their exit
  return runs_->active() > 0;
}

std::string LspServer::workspace_root() const {
  if (!init_.root_uri.empty()) return path_of_uri(init_.root_uri);
  if (!init_.workspace_folders.empty()) return path_of_uri(init_.workspace_folders[0].uri);
  return "";
}

void LspServer::on_run(const RunParams &params, Reply reply) {
  // Planning reads files (package.json, the program's ELF) and writes the output folder: a
  // worker's job. The run starts on the loop thread once its plan is ready.
  struct Job {
    RunParams params;
    RecipeContext ctx;
    RunPlan plan;
    std::optional<Failure> failure;
  };
  auto job = std::make_shared<Job>();
  job->params = params;
  if (!job->params.cwd.empty()) job->params.cwd = path_of_uri(job->params.cwd);
  RecipeContext &ctx = job->ctx;
  ctx.workspace_root = workspace_root();
  ctx.run_id = runs().new_id();
  ctx.stamp = now_stamp();
  ctx.exists = [](const std::string &f) {
    std::error_code ec;
    return fs::exists(f, ec);
  };
  ctx.package_json = [](const std::string &dir) { return read_package_json(dir); };
  ctx.read_source = [](const std::string &path) -> std::optional<std::string> {
    FileBytes bytes;
    std::string err;
    ReadFileOptions o;
    o.max_bytes = kMaxSourceBytes;
    if (read_regular_file(path, &bytes, &err, o) != ReadStatus::ok) return std::nullopt;
    return std::string(bytes.view());
  };
  ctx.frame_pointers = [](const std::string &path, std::string *why) {
    return frame_pointers(path, why);
  };
  if (const char *path = getenv("PATH")) ctx.path_env = path;
  if (const char *options = getenv("NODE_OPTIONS")) ctx.node_options = options;
  work_->queue([job] { job->failure = prepare_run(job->params, job->ctx, &job->plan); },
               [this, job, reply](const Failure *thrown) {
                 if (thrown) return reply.fail(*thrown);
                 if (job->failure) return reply.fail(*job->failure);
                 if (reply.cancelled()) return reply.fail(Failure::cancelled()); // never started
                 if (exiting_)
                   return reply.fail({Failure::Kind::bad_request, "the server is exiting"});
                 start_run(job->ctx.run_id, job->params.recipe, job->params.timeout_ms, job->plan,
                           reply);
               });
}

void LspServer::start_run(const std::string &id, const std::string &recipe, int64_t timeout_ms,
                          const RunPlan &plan, Reply reply) {
  RunStarted started{id, plan.profile_path, {}};
  for (const RunStep &s : plan.steps) started.commands.push_back(s.argv);
  log("info", "run " + id + " (" + recipe + "): " + plan.label);
  RunManager::Callbacks callbacks;
  // Output the client cannot take as fast as the run writes is dropped, not queued without
  // bound (nor does the run wait for it: a profiled program blocked on its stdout would
  // profile the wait): while the transport holds over kRunOutputBacklog unread bytes, stdout
  // and stderr text is counted instead of sent, and a line says how much once it sends again
  // (or when the run ends). The server's own lines always go.
  auto dropped = std::make_shared<uint64_t>(0);
  auto say_dropped = [this, id, dropped] {
    if (*dropped == 0 || exiting_) return;
    send_notification("hotlines/runOutput",
                      to_json(RunOutput{id, "hotlines",
                                        "[hotlines: " + std::to_string(*dropped) +
                                            " bytes of output dropped: the editor read it more "
                                            "slowly than the run wrote it]\n"}));
    *dropped = 0;
  };
  callbacks.output = [this, id, dropped, say_dropped](const std::string &stream,
                                                      const std::string &text) {
    if (exiting_) return;
    if (stream != "hotlines" && send_backlog && send_backlog() > kRunOutputBacklog) {
      *dropped += text.size();
      return;
    }
    say_dropped();
    send_notification("hotlines/runOutput", to_json(RunOutput{id, stream, text}));
  };
  callbacks.finished = [this, id, plan, say_dropped](RunOutcome outcome) {
    say_dropped();
    finish_run(id, plan, outcome);
  };
  runs().start(id, plan, timeout_ms, std::move(callbacks)); // calls back later, never now
  reply(to_json(started));
}

void LspServer::finish_run(const std::string &id, const RunPlan &plan, const RunOutcome &o) {
  // Removing the run's own files and looking at what it wrote touch the disk: a worker's job.
  auto written = std::make_shared<bool>(false);
  work_->queue(
      [plan, written] {
        std::error_code ec;
        for (const std::string &f : plan.remove_after) fs::remove(f, ec);
        // A folder (the node recipes: a .cpuprofile per process) is written when it has a file.
        *written = fs::is_directory(plan.profile_path, ec)
                       ? !fs::is_empty(plan.profile_path, ec) && !ec
                       : fs::file_size(plan.profile_path, ec) > 0 && !ec;
      },
      [this, id, plan, o, written](const Failure *) { report_run(id, plan, o, *written); });
}

void LspServer::report_run(const std::string &id, const RunPlan &plan, const RunOutcome &o,
                           bool written) {
  RunFinished f;
  f.run_id = id;
  f.exit_code = o.exit_code;
  f.signal = signal_name(o.signal);
  f.profile_path = plan.profile_path;
  f.duration_ms = o.duration_ms;
  f.error = diagnose_run(plan, o, written);
  if (f.error || exiting_) {
    if (f.error) log("info", "run " + id + " failed (" + f.error->kind + "): " + f.error->message);
    if (!exiting_) send_notification("hotlines/runFinished", to_json(f));
    return finish_if_done();
  }
  log("info", "run " + id + " finished in " + std::to_string(o.duration_ms) + " ms");
  std::string tail = last_lines(o.output, 20);
  load_profile(plan.profile_path, nullptr, nullptr,
               [this, f, tail](const LoadedProfile *lp, const Failure *failure) mutable {
                 if (failure)
                   f.error = RunError{"loadFailed", failure->message, tail};
                 else
                   f.profile_id = lp->id;
                 if (!exiting_) send_notification("hotlines/runFinished", to_json(f));
               });
}

void LspServer::on_cancel_run(const CancelRunParams &p, Reply reply) {
  bool cancelled = runs_ && runs_->cancel(p.run_id);
  if (cancelled) log("info", "run " + p.run_id + " cancelled");
  reply({{"cancelled", cancelled}});
}

void LspServer::on_list_jvms(const ListJvmsParams &p, Reply reply) {
  RunPlan plan;
  plan.label = "jcmd -l";
  std::string root = workspace_root();
  std::error_code ec;
  plan.cwd = !root.empty() && fs::is_directory(root, ec) ? root : "/";
  plan.steps.push_back({{p.jcmd.empty() ? "jcmd" : p.jcmd, "-l"}, 0, false});
  auto out = std::make_shared<std::string>();
  RunManager::Callbacks callbacks;
  callbacks.output = [out](const std::string &stream, const std::string &text) {
    if (stream == "stdout") *out += text;
  };
  callbacks.finished = [this, out, reply](RunOutcome o) {
    if (o.spawn_error)
      reply.fail(Failure::failed("cannot run jcmd: " + std::string(uv_strerror(o.spawn_error)) +
                                 " (install a JDK, or pass params.jcmd)"));
    else if (o.timed_out || o.cancelled || !o.exit_code || *o.exit_code != 0)
      reply.fail(Failure::failed("jcmd -l failed: " + last_lines(o.output, 5)));
    else
      reply(to_json(parse_jcmd_list(*out)));
    finish_if_done();
  };
  runs().start(runs().new_id(), std::move(plan), 15000, std::move(callbacks));
}

void LspServer::tests_in_file(const std::string &uri, TestsDone done) {
  struct Job {
    TestsInFileResult result;
    std::string text, error;
    bool have_text = false;
  };
  auto job = std::make_shared<Job>();
  const std::string path = path_of_uri(uri);
  job->result.uri = uri;
  TestLanguage lang = test_language(path);
  job->result.language = lang == TestLanguage::java         ? "java"
                         : lang == TestLanguage::go         ? "go"
                         : lang == TestLanguage::javascript ? "javascript"
                         : lang == TestLanguage::cpp        ? "cpp"
                                                            : "";
  if (lang == TestLanguage::none) return done(job->result, job->error);
  if (const TextDocument *doc = session_.document(uri)) { // unsaved edits included
    for (const std::string &line : doc->lines()) job->text += line + "\n";
    job->have_text = true;
  }
  work_->queue(
      [job, path, lang] {
        FileBytes bytes;
        std::string_view text = job->text;
        if (!job->have_text) {
          ReadFileOptions o;
          o.max_bytes = kMaxSourceBytes;
          if (read_regular_file(path, &bytes, &job->error, o) != ReadStatus::ok) {
            job->error = "cannot read " + path + ": " + job->error;
            return;
          }
          text = bytes.view();
        }
        NodeRunner runner = NodeRunner::node;
        if (lang == TestLanguage::javascript) {
          const std::string package = find_up(fs::path(path).parent_path(), {"package.json"});
          runner =
              detect_node_runner(text, package.empty() ? PackageJson{} : read_package_json(package))
                  .runner;
        }
        auto entry = [&](const FoundTest &t) {
          TestEntry e;
          e.kind = entry_kind(t.kind);
          e.name = entry_name(t);
          e.range = {{t.range.start.line, t.range.start.character},
                     {t.range.end.line, t.range.end.character}};
          e.selection_range = {{t.selection.start.line, t.selection.start.character},
                               {t.selection.end.line, t.selection.end.character}};
          e.run = run_params_for(t, path, runner);
          return e;
        };
        TestsInFileResult &r = job->result;
        for (const FoundTest &t : find_tests(lang, text)) r.tests.push_back(entry(t));
        for (const FoundTest &t : find_mains(lang, text)) r.mains.push_back(entry(t));
        for (const FoundTest &t : find_test_classes(lang, text)) r.classes.push_back(entry(t));
      },
      [job, done](const Failure *thrown) {
        if (thrown) return done({}, thrown->message);
        done(job->result, job->error);
      });
}

void LspServer::on_tests_in_file(const TestsInFileParams &p, Reply reply) {
  tests_in_file(p.uri, [reply](const TestsInFileResult &result, const std::string &error) {
    if (!error.empty()) return reply.fail(Failure::failed(error));
    reply(to_json(result));
  });
}

} // namespace hotlines
