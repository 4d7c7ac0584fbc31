// Recipes and run diagnosis (see run_recipes.h).
#include "server/runs/run_recipes.h"

#include "server/runs/node_recipes.h"

#include <uv.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace hotlines {

namespace fs = std::filesystem;

namespace {

bool contains(const std::string &s, std::string_view what) {
  return s.find(what) != std::string::npos;
}

std::string resolve(const std::string &base, const std::string &p) {
  if (p.empty()) return base;
  fs::path path(p);
  if (path.is_absolute() || base.empty()) return path.lexically_normal().string();
  return (fs::path(base) / path).lexically_normal().string();
}

std::string join(const std::vector<std::string> &parts, const std::string &sep) {
  std::string out;
  for (const std::string &p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// A file-name-safe version of a label.
std::string file_label(const std::string &label) {
  std::string out;
  for (char c : label) {
    bool ok = isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
    out.push_back(ok ? c : '_');
    if (out.size() >= 80) break;
  }
  return out.empty() ? "run" : out;
}

bool is_java_name(const std::string &s, bool dots) {
  if (s.empty()) return false;
  for (char c : s)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '$' && !(dots && c == '.') &&
        static_cast<unsigned char>(c) < 0x80)
      return false;
  return s.front() != '.' && s.back() != '.';
}

// A JUnit method: a name, optionally with JUnit 5 parameter types "name(int, String)".
bool is_test_method(const std::string &s) {
  size_t paren = s.find('(');
  if (paren == std::string::npos) return is_java_name(s, false);
  if (s.back() != ')' || !is_java_name(s.substr(0, paren), false)) return false;
  for (char c : s.substr(paren + 1, s.size() - paren - 2))
    if (!isalnum(static_cast<unsigned char>(c)) && !strchr("_$.,[] ", c)) return false;
  return true;
}

bool is_go_name(const std::string &s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_' && static_cast<unsigned char>(c) < 0x80)
      return false;
  return true;
}

// ^Name$ per '/'-separated level, so subtests "TestX/case" select exactly one.
std::string go_run_pattern(const std::string &name) {
  std::string out;
  size_t start = 0;
  while (true) {
    size_t slash = name.find('/', start);
    out += "^" + name.substr(start, slash - start) + "$";
    if (slash == std::string::npos) break;
    out += "/";
    start = slash + 1;
  }
  return out;
}

// $JAVA_HOME/bin/NAME when the run's env sets JAVA_HOME, else NAME on PATH.
std::string jdk_tool(const RunParams &p, const std::string &given, const char *name) {
  if (!given.empty()) return given;
  auto it = p.env.find("JAVA_HOME");
  if (it != p.env.end() && !it->second.empty()) return it->second + "/bin/" + name;
  return name;
}

std::string jvm_profiler_flags(const RunParams &p, const std::string &profile,
                               std::vector<std::string> *flags) {
  if (contains(profile, ","))
    return "the profile path must not contain ',' (it goes into a JVM option): " + profile;
  if (!p.async_profiler_path.empty()) {
    if (contains(p.async_profiler_path, ",") || contains(p.async_profiler_path, "="))
      return "params.asyncProfiler.path must not contain ',' or '='";
    flags->push_back("-agentpath:" + p.async_profiler_path +
                     "=start,event=" + p.async_profiler_event + ",file=" + profile + ",jfr");
  } else {
    if (p.jfr_settings.empty() || contains(p.jfr_settings, ","))
      return "params.jfrSettings must be a settings name or .jfc path without ','";
    flags->push_back("-XX:StartFlightRecording=filename=" + profile +
                     ",settings=" + p.jfr_settings + ",dumponexit=true");
  }
  flags->push_back("-XX:+UnlockDiagnosticVMOptions");
  flags->push_back("-XX:+DebugNonSafepoints");
  return "";
}

// Surefire splits argLine like a command line: quote what has spaces.
std::string arg_line(const std::vector<std::string> &flags) {
  std::string out;
  for (const std::string &f : flags) {
    if (!out.empty()) out += ' ';
    out += f.find_first_of(" \t\"'") == std::string::npos ? f : "\"" + f + "\"";
  }
  return out;
}

// FNV-1a of `s` as 16 hex digits: names a cache folder by its content.
std::string fnv_hex(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char buf[17];
  snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// The build of the project in `cwd`: "maven" (pom.xml), "gradle" (build.gradle[.kts],
// settings.gradle[.kts]) or "" (neither).
std::string detect_build(const RecipeContext &ctx, const std::string &cwd) {
  if (ctx.exists(cwd + "/pom.xml")) return "maven";
  for (const char *f :
       {"/build.gradle", "/build.gradle.kts", "/settings.gradle", "/settings.gradle.kts"})
    if (ctx.exists(cwd + f)) return "gradle";
  return "";
}

// params.maven, else the project's ./mvnw, else mvn on PATH; the same for Gradle.
std::string maven_tool(const RunParams &p, const RecipeContext &ctx, const std::string &cwd) {
  return !p.maven.empty() ? p.maven : ctx.exists(cwd + "/mvnw") ? cwd + "/mvnw" : "mvn";
}
std::string gradle_tool(const RunParams &p, const RecipeContext &ctx, const std::string &cwd) {
  return !p.gradle.empty() ? p.gradle : ctx.exists(cwd + "/gradlew") ? cwd + "/gradlew" : "gradle";
}

std::string plan_java_test(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  if (p.runner != "auto" && p.runner != "junit4" && p.runner != "junit5")
    return "params.runner for java-test must be one of auto, junit4, junit5 (got '" + p.runner +
           "')";
  if (!is_java_name(p.class_name, true))
    return p.class_name.empty() ? "params.class is required for java-test"
                                : "params.class is not a Java class name: '" + p.class_name + "'";
  if (!p.method.empty() && !is_test_method(p.method))
    return "params.method is not a Java method name: '" + p.method + "'";
  std::string build = p.build;
  if (build == "none")
    return "params.build 'none' is for java-main; java-test takes auto, maven, gradle or "
           "classpath";
  if (build == "auto") {
    build = !p.classpath.empty() ? "classpath" : detect_build(ctx, plan->cwd);
    if (build.empty())
      return "java-test: no pom.xml or build.gradle in " + plan->cwd +
             "; give params.classpath (a plain classpath build) or params.cwd";
  }
  plan->label = p.class_name + (p.method.empty() ? "" : "#" + p.method);
  std::vector<std::string> flags;
  std::string err = jvm_profiler_flags(p, plan->profile_path, &flags);
  if (!err.empty()) return err;
  flags.insert(flags.end(), p.jvm_args.begin(), p.jvm_args.end());
  RunStep step;
  if (build == "maven") {
    plan->family = RunFamily::maven;
    step.argv = {maven_tool(p, ctx, plan->cwd), "-B", "test", "-Dtest=" + plan->label,
                 "-DargLine=" + arg_line(flags)};
    step.argv.insert(step.argv.end(), p.build_args.begin(), p.build_args.end());
  } else if (build == "gradle") {
    plan->family = RunFamily::gradle;
    std::string gradle = gradle_tool(p, ctx, plan->cwd);
    std::vector<std::string> quoted;
    for (const std::string &f : flags) quoted.push_back(backslash_quoted(f, '\''));
    RunFile init{plan->output_dir + "/" + ctx.run_id + "-init.gradle",
                 "// Written by hotlines for run " + ctx.run_id +
                     ": profiles the Test tasks of every project.\n"
                     "allprojects {\n"
                     "  tasks.withType(Test) {\n"
                     "    jvmArgs([" +
                     join(quoted, ", ") +
                     "])\n"
                     "    maxParallelForks = 1\n"
                     "    outputs.upToDateWhen { false }\n"
                     "  }\n"
                     "}\n"};
    step.argv = {gradle,          "test",
                 "--tests",       p.class_name + (p.method.empty() ? "" : "." + p.method),
                 "--init-script", init.path,
                 "--no-daemon",   "--console=plain"};
    step.argv.insert(step.argv.end(), p.build_args.begin(), p.build_args.end());
    plan->remove_after.push_back(init.path);
    plan->files.push_back(std::move(init));
  } else {
    if (p.classpath.empty()) return "java-test with build 'classpath' needs params.classpath";
    std::string console = p.junit_console;
    std::vector<std::string> cp;
    for (const std::string &e : p.classpath) {
      if (fs::path(e).filename().string().rfind("junit-platform-console-standalone", 0) == 0) {
        if (console.empty()) console = e;
        continue;
      }
      cp.push_back(resolve(plan->cwd, e));
    }
    bool junit5 = p.runner == "junit5" || (p.runner == "auto" && !console.empty());
    std::string java = jdk_tool(p, p.java, "java");
    step.argv = {java};
    step.argv.insert(step.argv.end(), flags.begin(), flags.end());
    if (junit5) {
      if (console.empty())
        return "the JUnit 5 runner needs params.junitConsole "
               "(junit-platform-console-standalone.jar)";
      plan->family = RunFamily::junit5;
      for (std::string a : {"-jar", console.c_str(), "--disable-banner", "--disable-ansi-colors",
                            "--details=tree", "--fail-if-no-tests", "--class-path"})
        step.argv.push_back(a);
      step.argv.push_back(join(cp, ":"));
      if (p.method.empty()) {
        step.argv.push_back("--select-class");
        step.argv.push_back(p.class_name);
      } else {
        step.argv.push_back("--select-method");
        step.argv.push_back(p.class_name + "#" + p.method);
      }
    } else {
      if (contains(p.method, "(")) return "params.method: JUnit 4 methods take no parameter types";
      plan->family = RunFamily::junit4;
      // The launcher is compiled once per output folder and launcher version, by javac in a
      // step of its own, so the test's profile holds the test and not the compiler.
      std::string dir = plan->output_dir + "/junit4-launcher-" + fnv_hex(kJUnit4LauncherSource);
      std::string source = dir + "/HotlinesJUnit4.java";
      if (!ctx.exists(dir + "/HotlinesJUnit4.class")) {
        std::string javac = p.java.empty() ? jdk_tool(p, "", "javac")
                            : fs::path(p.java).has_parent_path()
                                ? (fs::path(p.java).parent_path() / "javac").string()
                                : "javac";
        plan->files.push_back({source, kJUnit4LauncherSource});
        plan->steps.push_back({{javac, "-d", dir, "-cp", join(cp, ":"), source}, 0, false});
      }
      step.argv.push_back("-cp");
      step.argv.push_back(dir + ":" + join(cp, ":"));
      step.argv.push_back("HotlinesJUnit4");
      step.argv.push_back(p.class_name);
      if (!p.method.empty()) step.argv.push_back(p.method);
    }
  }
  plan->steps.push_back(std::move(step));
  return "";
}

// java-main: with a Maven or Gradle build, first a build step that compiles the project's
// main classes, then java with them (and params.classpath) on the classpath.
std::string plan_java_main(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  if (p.main_class.empty() == p.jar.empty())
    return "java-main needs exactly one of params.mainClass and params.jar";
  if (!p.main_class.empty() && !is_java_name(p.main_class, true))
    return "params.mainClass is not a Java class name: '" + p.main_class + "'";
  std::string build = p.build;
  if (build == "classpath")
    return "params.build 'classpath' is for java-test; java-main takes auto, maven, gradle or "
           "none";
  if (build == "auto") {
    build = !p.classpath.empty() || !p.jar.empty() ? "none" : detect_build(ctx, plan->cwd);
    if (build.empty()) build = "none";
  }
  if (build != "none" && !p.jar.empty())
    return "params.jar runs as it is: java-main with a jar takes build 'auto' or 'none'";
  plan->family = RunFamily::java;
  plan->label = p.main_class.empty() ? fs::path(p.jar).stem().string() : p.main_class;
  std::vector<std::string> flags;
  std::string err = jvm_profiler_flags(p, plan->profile_path, &flags);
  if (!err.empty()) return err;
  std::vector<std::string> cp; // the build's classes first, then params.classpath
  if (build != "none") {
    RunStep compile;
    compile.build = true;
    if (build == "maven") {
      compile.argv = {maven_tool(p, ctx, plan->cwd), "-B", "compile"};
      cp.push_back(plan->cwd + "/target/classes");
    } else {
      compile.argv = {gradle_tool(p, ctx, plan->cwd), "classes", "--no-daemon", "--console=plain"};
      cp.push_back(plan->cwd + "/build/classes/java/main");
      cp.push_back(plan->cwd + "/build/resources/main");
    }
    compile.argv.insert(compile.argv.end(), p.build_args.begin(), p.build_args.end());
    plan->steps.push_back(std::move(compile));
  }
  for (const std::string &e : p.classpath) cp.push_back(resolve(plan->cwd, e));
  RunStep step;
  step.argv = {jdk_tool(p, p.java, "java")};
  step.argv.insert(step.argv.end(), flags.begin(), flags.end());
  step.argv.insert(step.argv.end(), p.jvm_args.begin(), p.jvm_args.end());
  if (!p.jar.empty()) {
    step.argv.push_back("-jar");
    step.argv.push_back(resolve(plan->cwd, p.jar));
  } else {
    if (!cp.empty()) {
      step.argv.push_back("-cp");
      step.argv.push_back(join(cp, ":"));
    }
    step.argv.push_back(p.main_class);
  }
  step.argv.insert(step.argv.end(), p.args.begin(), p.args.end());
  plan->steps.push_back(std::move(step));
  return "";
}

std::string plan_go(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  const bool bench = p.recipe == "go-bench";
  const std::string &name = bench ? p.bench : p.test;
  std::string check = name;
  for (char &c : check)
    if (c == '/') c = '_';
  if (!name.empty() && !is_go_name(check))
    return std::string("params.") + (bench ? "bench" : "test") + " is not a Go test name: '" +
           name + "'";
  if (p.package.empty() || p.package[0] == '-')
    return "params.package must be a package path such as ./internal/shop";
  plan->family = bench ? RunFamily::go_bench : RunFamily::go_test;
  plan->label = name.empty() ? (bench ? "benchmarks" : "tests") : name;
  std::string bin = plan->output_dir + "/" + ctx.run_id + ".test";
  RunStep step;
  step.argv = {p.go.empty() ? "go" : p.go, "test", "-count=1"};
  if (bench) {
    step.argv.insert(step.argv.end(),
                     {"-run", "^$", "-bench", name.empty() ? "." : go_run_pattern(name)});
  } else if (!name.empty()) {
    step.argv.insert(step.argv.end(), {"-run", go_run_pattern(name)});
  }
  step.argv.push_back("-" + p.profile + "profile");
  step.argv.push_back(plan->profile_path);
  step.argv.push_back("-o");
  step.argv.push_back(bin);
  step.argv.insert(step.argv.end(), p.go_args.begin(), p.go_args.end());
  step.argv.push_back(p.package);
  plan->remove_after.push_back(bin);
  plan->steps.push_back(std::move(step));
  return "";
}

// A program as a run starts it: a path with '/' relative to cwd, else the first match on the
// run's PATH (params.env's, else the server's); "" when none is found.
std::string find_program(const RunParams &p, const RecipeContext &ctx, const std::string &cwd,
                         const std::string &name) {
  if (name.find('/') != std::string::npos) return resolve(cwd, name);
  auto it = p.env.find("PATH");
  std::string path = it != p.env.end() ? it->second : ctx.path_env;
  for (size_t at = 0; at <= path.size();) {
    size_t colon = path.find(':', at);
    std::string dir = path.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    if (!dir.empty() && ctx.exists(dir + "/" + name)) return dir + "/" + name;
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  return "";
}

// `perf record` of `program_argv`, its stacks walked by frame pointers (-g) when `program` keeps
// them and by DWARF otherwise (params.callGraph overrides); a note says which and why.
std::string perf_record(const RunParams &p, const RecipeContext &ctx, const std::string &program,
                        const std::vector<std::string> &program_argv, RunPlan *plan) {
  std::string why;
  bool fp = p.call_graph == "fp";
  if (p.call_graph == "auto") {
    FramePointers has = FramePointers::unknown;
    if (program.empty())
      why = "the program that will run is not known in advance";
    else if (ctx.frame_pointers)
      has = ctx.frame_pointers(program, &why);
    fp = has == FramePointers::yes;
    plan->notes.push_back(
        fp ? "perf: " + program + " keeps frame pointers (" + why + "): perf record -g"
           : "perf: " +
                 (program.empty()
                      ? std::string("no frame pointers to rely on")
                      : program + (has == FramePointers::no ? " has no frame pointers"
                                                            : " may lack frame pointers")) +
                 " (" + why + "): perf record --call-graph dwarf");
  } else {
    plan->notes.push_back(std::string("perf: params.callGraph is ") + p.call_graph +
                          ": perf record " + (fp ? "-g" : "--call-graph dwarf"));
  }
  RunStep step;
  step.argv = {p.perf.empty() ? "perf" : p.perf, "record", "-e", "cpu-clock"};
  if (fp) {
    step.argv.push_back("-g");
  } else {
    step.argv.insert(step.argv.end(), {"--call-graph", "dwarf"});
    // Each DWARF sample copies 8 KiB of stack: at perf's default 4000 Hz a loaded 2-core
    // machine lost a third of them, and a test binary's mappings with them. perfArgs' own
    // frequency or period wins.
    const bool rate = std::any_of(p.perf_args.begin(), p.perf_args.end(), [](const auto &a) {
      return a.starts_with("-F") || a.starts_with("--freq") || a.starts_with("-c") ||
             a.starts_with("--count");
    });
    if (!rate) step.argv.insert(step.argv.end(), {"-F", "999"});
  }
  step.argv.insert(step.argv.end(), {"-o", plan->profile_path});
  step.argv.insert(step.argv.end(), p.perf_args.begin(), p.perf_args.end());
  step.argv.push_back("--");
  step.argv.insert(step.argv.end(), program_argv.begin(), program_argv.end());
  plan->steps.push_back(std::move(step));
  return "";
}

// gtest: one GoogleTest test, Suite.Name: its binary with --gtest_filter, or without a binary
// ctest -R in the CMake build folder (buildDir, else <cwd>/build); under perf record.
// The ctest -R regex for the tests gtest_discover_tests (CMake 3.25) registers for a gtest
// filter of the lenses' shapes, "" for another: `Suite.Name`; TEST_P's `*/Suite.Name/*`,
// registered as Prefix/Suite.Name/VALUE; TYPED_TEST's `Suite/*.Name`, registered as
// Suite.Name<TYPE>; TYPED_TEST_P's `*/Suite/*.Name`, registered as Prefix.Name<TYPE>, without
// the suite (so any typed suite's Name matches).
std::string gtest_ctest_regex(std::string_view test) {
  auto take = [&](std::string_view s) {
    bool at = test.substr(0, s.size()) == s;
    if (at) test.remove_prefix(s.size());
    return at;
  };
  const bool instantiated = take("*/");
  size_t dot = test.find('.');
  if (dot == std::string_view::npos) return {};
  std::string_view suite = test.substr(0, dot), name = test.substr(dot + 1);
  const bool typed = suite.size() > 2 && suite.substr(suite.size() - 2) == "/*";
  if (typed) suite.remove_suffix(2);
  const bool param = name.size() > 2 && name.substr(name.size() - 2) == "/*";
  if (param) name.remove_suffix(2);
  if (!is_go_name(std::string(suite)) || !is_go_name(std::string(name)) || (typed && param) ||
      (!typed && instantiated != param))
    return {};
  const std::string s(suite), n(name);
  if (param) return "^([^/]+/)?" + s + "\\." + n + "/";
  if (typed) return instantiated ? "^[^.]+\\." + n + "<" : "^" + s + "\\." + n + "<";
  return "^" + s + "\\." + n + "$";
}

std::string plan_gtest(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  const std::string regex = gtest_ctest_regex(p.test);
  if (regex.empty())
    return p.test.empty() ? "params.test (Suite.Name) is required for gtest"
                          : "params.test is not a GoogleTest name Suite.Name (or */Suite.Name/*, "
                            "Suite/*.Name, */Suite/*.Name): '" +
                                p.test + "'";
  plan->family = RunFamily::gtest;
  plan->label = p.test;
  if (!p.binary.empty()) {
    std::string bin = find_program(p, ctx, plan->cwd, p.binary);
    if (bin.empty()) bin = p.binary;
    return perf_record(p, ctx, bin, {bin, "--gtest_filter=" + p.test}, plan);
  }
  std::string dir = p.build_dir.empty() ? plan->cwd + "/build" : resolve(plan->cwd, p.build_dir);
  if (!ctx.exists(dir + "/CTestTestfile.cmake"))
    return "gtest: no params.binary and no CMake build with tests in " + dir +
           " (no CTestTestfile.cmake); build the project, or give params.binary or "
           "params.buildDir";
  return perf_record(p, ctx, "", {"ctest", "--test-dir", dir, "-R", regex, "--output-on-failure"},
                     plan);
}

std::string plan_command(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  if (p.argv.empty()) return "params.argv is required for the command recipe";
  plan->family = RunFamily::command;
  plan->label = fs::path(p.argv[0]).filename().string();
  if (p.profiler == "perf") {
    for (const std::string &a : p.argv)
      if (a.find("{profile}") != std::string::npos)
        return "params.argv: with profiler 'perf' the profile is perf's; {profile} has no place";
    return perf_record(p, ctx, find_program(p, ctx, plan->cwd, p.argv[0]), p.argv, plan);
  }
  RunStep step;
  bool placeholder = false;
  for (std::string a : p.argv) {
    for (size_t at; (at = a.find("{profile}")) != std::string::npos;) {
      a.replace(at, 9, plan->profile_path);
      placeholder = true;
    }
    step.argv.push_back(std::move(a));
  }
  if (!placeholder)
    return "params.argv must contain {profile} where the command is told to write its profile";
  plan->steps.push_back(std::move(step));
  return "";
}

std::string plan_attach(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  if (p.pid <= 0) return "params.pid is required for attach-jvm";
  if (p.jfr_settings.empty() || p.jfr_settings.find_first_of(" \t\"") != std::string::npos)
    return "params.jfrSettings must be a settings name or .jfc path without spaces";
  plan->family = RunFamily::attach;
  plan->label = "pid " + std::to_string(p.pid);
  std::string jcmd = jdk_tool(p, p.jcmd, "jcmd"), pid = std::to_string(p.pid);
  std::string name = "name=hotlines-" + ctx.run_id;
  std::string file = plan->profile_path.find_first_of(" \t") == std::string::npos
                         ? plan->profile_path
                         : "\"" + plan->profile_path + "\"";
  plan->steps.push_back({{jcmd, pid, "JFR.start", name, "settings=" + p.jfr_settings}, 0, false});
  plan->steps.push_back({{jcmd, pid, "JFR.dump", name, "filename=" + file}, p.duration_ms, false});
  plan->steps.push_back({{jcmd, pid, "JFR.stop", name}, 0, true});
  return "";
}

const char *profile_extension(const RunParams &p) {
  if (p.recipe == "go-test" || p.recipe == "go-bench") return ".pprof";
  if (p.recipe.rfind("node-", 0) == 0) return ".cpuprofiles"; // a folder
  if (p.recipe == "gtest" || p.profiler == "perf") return ".perf.data";
  if (p.recipe == "command")
    return p.format == "pprof"        ? ".pprof"
           : p.format == "collapsed"  ? ".collapsed"
           : p.format == "jfr"        ? ".jfr"
           : p.format == "cpuprofile" ? ".cpuprofile"
                                      : ".profile";
  return ".jfr";
}

std::string hint_for(const std::string &tool) {
  std::string name = fs::path(tool).filename().string();
  if (name == "java" || name == "jcmd")
    return " (install a JDK, e.g. openjdk-17-jdk, set JAVA_HOME in params.env, or params." + name +
           ")";
  if (name == "go") return " (install golang-go, or set params.go or PATH in params.env)";
  if (name == "node" || name == "npm") return " (install nodejs and npm, or set params.node)";
  if (name == "mvn") return " (install maven, or set params.maven)";
  if (name == "gradle") return " (install Gradle, add a gradlew wrapper, or set params.gradle)";
  if (name == "perf") return " (install linux-perf, or set params.perf)";
  return " (check PATH in params.env)";
}

// Drops terminal escape sequences (ESC [ … final byte), which builds print even in batch mode.
std::string without_ansi_escapes(const std::string &s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      i += 2;
      while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7e)) i++;
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

bool any_of(const std::string &out, std::initializer_list<std::string_view> markers) {
  for (std::string_view m : markers)
    if (contains(out, m)) return true;
  return false;
}

bool has_line_starting(const std::string &out, std::string_view prefix) {
  for (size_t at = 0; at < out.size();) {
    if (out.compare(at, prefix.size(), prefix) == 0) return true;
    size_t nl = out.find('\n', at);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return false;
}

// Whether a Jest, Vitest or Mocha summary says that no test ran: `Tests:  2 skipped, 2 total`
// (Jest), `Tests  2 skipped (2)` (Vitest), `0 passing` (Mocha), and nothing failed.
bool ran_no_test(const std::string &out) {
  bool none = false;
  for (size_t at = 0; at < out.size();) {
    size_t nl = out.find('\n', at);
    std::string_view line(out.data() + at, (nl == std::string::npos ? out.size() : nl) - at);
    at = nl == std::string::npos ? out.size() : nl + 1;
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    const bool counts = line.rfind("Tests:", 0) == 0 || line.rfind("Tests  ", 0) == 0;
    if (counts && line.find("passed") == std::string_view::npos &&
        line.find("failed") == std::string_view::npos)
      none = true;
    if (line.rfind("0 passing", 0) == 0) none = true;
    if (line.find(" failing") != std::string_view::npos ||
        line.find(" failed") != std::string_view::npos)
      return false; // a test or a suite failed: not a missing test
  }
  return none;
}

} // namespace

std::string backslash_quoted(const std::string &s, char quote) {
  std::string out(1, quote);
  for (char c : s) {
    if (c == '\\' || c == quote) out += '\\';
    out += c;
  }
  return out + quote;
}

std::string build_run_plan(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  const std::string &root = ctx.workspace_root;
  plan->cwd = resolve(root, p.cwd);
  if (plan->cwd.empty()) return "params.cwd is required: the client sent no workspace root";
  if (!fs::path(plan->cwd).is_absolute())
    return "params.cwd must be an absolute path: the client sent no workspace root";
  plan->default_output_dir = p.output_dir.empty();
  plan->output_dir = plan->default_output_dir
                         ? (fs::path(root.empty() ? plan->cwd : root) / ".hotlines").string()
                         : resolve(plan->cwd, p.output_dir);
  plan->env = p.env;
  plan->format = p.recipe == "command"             ? p.format
                 : p.recipe.rfind("go-", 0) == 0   ? "pprof"
                 : p.recipe.rfind("node-", 0) == 0 ? "cpuprofile"
                 : p.recipe == "gtest"             ? ""
                                                   : "jfr";
  // The label names the file; recipes set the display label afterwards.
  std::string base =
      p.recipe == "java-test" ? p.class_name + (p.method.empty() ? "" : "." + p.method)
      : p.recipe == "java-main"
          ? (p.main_class.empty() ? fs::path(p.jar).stem().string() : p.main_class)
      : p.recipe == "go-test"     ? (p.test.empty() ? "tests" : p.test) + "-" + p.profile
      : p.recipe == "go-bench"    ? (p.bench.empty() ? "benchmarks" : p.bench) + "-" + p.profile
      : p.recipe == "attach-jvm"  ? "pid" + std::to_string(p.pid)
      : p.recipe == "node-test"   ? (p.test.empty() ? "tests" : p.test)
      : p.recipe == "node-script" ? fs::path(p.file).filename().string()
      : p.recipe == "gtest"       ? p.test
      : p.argv.empty()            ? "command"
                                  : fs::path(p.argv[0]).filename().string();
  plan->profile_path = plan->output_dir + "/" + file_label(base) + "-" + ctx.stamp + "-" +
                       ctx.run_id + profile_extension(p);
  if (p.recipe == "java-test") return plan_java_test(p, ctx, plan);
  if (p.recipe == "java-main") return plan_java_main(p, ctx, plan);
  if (p.recipe == "go-test" || p.recipe == "go-bench") return plan_go(p, ctx, plan);
  if (p.recipe == "command") return plan_command(p, ctx, plan);
  if (p.recipe == "gtest") return plan_gtest(p, ctx, plan);
  if (p.recipe == "attach-jvm") return plan_attach(p, ctx, plan);
  if (p.recipe == "node-test" || p.recipe == "node-script") return plan_node(p, ctx, plan);
  return "unknown recipe '" + p.recipe + "'";
}

std::string last_lines(const std::string &text, size_t n) {
  size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') end--;
  size_t start = end;
  for (size_t lines = 0; start > 0; start--) {
    if (text[start - 1] == '\n' && ++lines == n) break;
  }
  return text.substr(start, end - start);
}

std::optional<RunError> diagnose_run(const RunPlan &plan, const RunOutcome &o,
                                     bool profile_written) {
  auto error = [&](const char *kind, std::string message) {
    return RunError{kind, std::move(message), without_ansi_escapes(last_lines(o.output, 20))};
  };
  const std::string &out = o.output;
  const std::string &what = plan.label;
  if (o.cancelled) return error("cancelled", "the run of " + what + " was cancelled");
  if (o.timed_out)
    return error("timeout", "the run of " + what + " timed out after " +
                                std::to_string(o.duration_ms) + " ms and was stopped");
  if (o.spawn_error == UV_ENOENT)
    return error("toolNotFound", "'" + o.spawn_file + "' was not found" + hint_for(o.spawn_file));
  if (o.spawn_error)
    return error("spawnFailed",
                 "cannot start '" + o.spawn_file + "': " + uv_strerror(o.spawn_error));
  const bool failed = (o.exit_code && *o.exit_code != 0) || o.signal != 0;
  // A build step before the program (java-main's mvn compile, gradle classes) that failed:
  // the program never started.
  if (o.failed_step >= 0 && static_cast<size_t>(o.failed_step) < plan.steps.size() &&
      plan.steps[o.failed_step].build && o.signal == 0) {
    const std::string tool = fs::path(plan.steps[o.failed_step].argv[0]).filename().string();
    bool compile = any_of(out, {"COMPILATION ERROR", "Compilation failure", "Compilation failed",
                                "compileJava FAILED"});
    bool build = compile || any_of(out, {"BUILD FAILURE", "FAILED"});
    return error("buildFailed", std::string(compile ? "the project did not compile"
                                            : build ? "the build failed"
                                                    : "the build step failed") +
                                    " (" + tool + " exited with code " +
                                    std::to_string(o.exit_code.value_or(-1)) + "); " + what +
                                    " did not start");
  }
  const bool jvm = plan.family == RunFamily::maven || plan.family == RunFamily::gradle ||
                   plan.family == RunFamily::junit4 || plan.family == RunFamily::junit5 ||
                   plan.family == RunFamily::java;
  const bool go = plan.family == RunFamily::go_test || plan.family == RunFamily::go_bench;
  switch (plan.family) {
  case RunFamily::maven:
    if (any_of(out, {"No tests were executed", "No tests matching pattern", "No tests to run"}))
      return error("testNotFound", "Maven ran no test matching " + what);
    if (any_of(out, {"COMPILATION ERROR", "Compilation failure"}))
      return error("buildFailed", "the Maven build failed to compile");
    if (any_of(out, {"The forked VM terminated without properly saying goodbye",
                     "ExecutionException The forked VM terminated"}))
      return error("crashed", "the test JVM crashed or exited during " + what);
    break;
  case RunFamily::gradle:
    if (contains(out, "No tests found for given includes"))
      return error("testNotFound", "Gradle found no test matching " + what);
    if (any_of(out, {"Compilation failed", "compileJava FAILED", "compileTestJava FAILED",
                     "compileKotlin FAILED", "compileTestKotlin FAILED"}))
      return error("buildFailed", "the Gradle build failed to compile");
    break;
  case RunFamily::junit4:
    if (any_of(out, {"hotlines: test class not found", "hotlines: no test named"}))
      return error("testNotFound", "JUnit found no test " + what + " on the classpath");
    if (contains(out, "HotlinesJUnit4.java:") && contains(out, "error:"))
      return error("buildFailed", "the JUnit 4 launcher did not compile against the classpath "
                                  "(is junit4.jar on it?)");
    break;
  case RunFamily::junit5:
    if (failed && any_of(out, {" 0 tests found", "Could not load class with name",
                               "No tests found matching", "Could not find method"}))
      return error("testNotFound", "the JUnit console launcher found no test " + what);
    break;
  case RunFamily::java:
    if (any_of(out, {"Could not find or load main class", "Unable to access jarfile",
                     "no main manifest attribute"}))
      return error("testNotFound", "cannot start " + what + ": no such main class or jar");
    break;
  case RunFamily::go_test:
  case RunFamily::go_bench:
    if (any_of(out, {"[build failed]", "[setup failed]"}))
      return error("buildFailed", "the Go package did not build");
    if (any_of(out, {"matched no packages", "no Go files in", "cannot find package",
                     "is not in std", "directory not found", "no required module provides",
                     "go.mod file not found", "cannot find main module"}))
      return error("testNotFound", "no Go package to test: " + last_lines(out, 1));
    if (plan.family == RunFamily::go_test && contains(out, "no tests to run"))
      return error("testNotFound", "go test found no test matching " + what);
    if (plan.family == RunFamily::go_bench && !failed && !has_line_starting(out, "Benchmark"))
      return error("testNotFound", "go test ran no benchmark matching " + what);
    break;
  case RunFamily::attach:
    if (any_of(out,
               {"No such process", "AttachNotSupportedException", "Unable to open socket file"}))
      return error("testNotFound", "no JVM to attach to at " + what);
    break;
  case RunFamily::node:
    if (any_of(out, {"Cannot find module", "ERR_MODULE_NOT_FOUND"}) && failed)
      return error("testNotFound", "node could not find " + what + ": " + last_lines(out, 1));
    if (plan.label != "tests" && has_line_starting(out, "# pass 0") &&
        has_line_starting(out, "# fail 0"))
      return error("testNotFound", "node --test found no test named " + what);
    if (plan.label != "tests" && ran_no_test(out))
      return error("testNotFound", "the test runner found no test named " + what);
    if (contains(out, "error TS")) return error("buildFailed", "the TypeScript build failed");
    break;
  case RunFamily::gtest:
    if (any_of(out, {"No tests were found!!!", "0 tests from 0 test suites ran"}))
      return error("testNotFound", "no GoogleTest test " + what + " ran");
    [[fallthrough]];
  case RunFamily::command:
    if (any_of(out, {"perf_event_paranoid", "Permission denied"}) && contains(out, "perf") &&
        !profile_written)
      return error("spawnFailed", "perf cannot record here (see kernel.perf_event_paranoid in "
                                  "its output)");
    break;
  }
  if (jvm &&
      any_of(out, {"Could not create the Java Virtual Machine", "Could not find agent library",
                   "Error occurred during initialization of VM"}))
    return error("spawnFailed", "the JVM did not start (see its output)");
  if (jvm && contains(out, "A fatal error has been detected by the Java Runtime Environment"))
    return error("crashed", "the JVM crashed while running " + what);
  if (go && failed && any_of(out, {"panic: ", "fatal error: "}))
    return error("crashed", what + " crashed (a Go panic or fatal error)");
  if (o.signal != 0) {
    const char *name = sigabbrev_np(o.signal);
    return error("crashed",
                 what + " was killed by " +
                     (name ? "SIG" + std::string(name) : "signal " + std::to_string(o.signal)));
  }
  if (!profile_written) {
    if (failed)
      return error(plan.family == RunFamily::maven || plan.family == RunFamily::gradle
                       ? "buildFailed"
                       : "noProfile",
                   what + " exited with code " + std::to_string(o.exit_code.value_or(-1)) +
                       " and wrote no profile at " + plan.profile_path);
    return error("noProfile", what + " finished but wrote no profile at " + plan.profile_path);
  }
  return std::nullopt;
}

std::vector<JvmInfo> parse_jcmd_list(const std::string &output) {
  std::vector<JvmInfo> jvms;
  size_t at = 0;
  while (at < output.size()) {
    size_t nl = output.find('\n', at);
    std::string line = output.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? output.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    size_t digits = 0;
    while (digits < line.size() && isdigit(static_cast<unsigned char>(line[digits]))) digits++;
    if (digits == 0 || digits > 10 || (digits < line.size() && line[digits] != ' ')) continue;
    JvmInfo j;
    j.pid = std::stoll(line.substr(0, digits));
    std::string rest = digits < line.size() ? line.substr(digits + 1) : "";
    size_t space = rest.find(' ');
    j.main_class = rest.substr(0, space);
    j.args = space == std::string::npos ? "" : rest.substr(space + 1);
    if (contains(j.main_class, "sun.tools.jcmd.JCmd")) continue;
    jvms.push_back(std::move(j));
  }
  return jvms;
}

const char kJUnit4LauncherSource[] =
    R"java(// Written by hotlines: runs one JUnit 4 test class or method with JUnitCore.
// Usage: java -cp CLASSPATH THIS_FILE.java TestClass [method]
import org.junit.internal.TextListener;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.notification.Failure;

public class HotlinesJUnit4 {
  public static void main(String[] args) {
    Class<?> type;
    try {
      type = Class.forName(args[0], false, HotlinesJUnit4.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      System.err.println("hotlines: test class not found: " + args[0] + " (" + e + ")");
      System.exit(3);
      return;
    }
    Request request = Request.aClass(type);
    if (args.length > 1) {
      final String method = args[1];
      request = request.filterWith(new Filter() {
        @Override public boolean shouldRun(Description d) {
          if (d.isTest()) {
            String m = d.getMethodName();
            return m != null && (m.equals(method) || m.startsWith(method + "["));
          }
          for (Description child : d.getChildren())
            if (shouldRun(child)) return true;
          return false;
        }
        @Override public String describe() { return "method " + method; }
      });
    }
    JUnitCore core = new JUnitCore();
    core.addListener(new TextListener(System.out));
    Result result = core.run(request);
    for (Failure f : result.getFailures()) {
      String m = f.getMessage();
      if (m != null && m.startsWith("No tests found matching")) {
        System.err.println("hotlines: no test named " + args[1] + " in " + args[0]);
        System.exit(3);
      }
    }
    System.exit(result.wasSuccessful() ? 0 : 1);
  }
}
)java";

} // namespace hotlines
