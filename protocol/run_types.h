// Profiled-run message types: hotlines/run params (every recipe's parameters in one struct),
// hotlines/runOutput and hotlines/runFinished notifications, hotlines/cancelRun,
// hotlines/listJvms and hotlines/testsInFile, each with its JSON conversion. Mirrors the
// "Profiled runs" section of protocol/README.md: change the two together. Ranges are LSP
// ranges (0-based lines and UTF-16 columns; hotlines counts columns in bytes for ASCII code).
#pragma once

#include "protocol/jsonrpc.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hotlines {

// hotlines/run (and workspace/executeCommand hotlines.run). Fields not used by the recipe
// are ignored; run_recipes.h checks what each recipe needs.
struct RunParams {
  std::string recipe; // java-test, java-main, go-test, go-bench, node-test, node-script, command,
                      // attach-jvm, gtest
  std::string cwd;    // "" = the workspace root
  std::map<std::string, std::string> env; // added to (or replacing in) the server's environment
  std::string output_dir;                 // "" = <workspace root>/.hotlines
  int64_t timeout_ms = 0;                 // 0 = none

  // java-test
  std::string class_name, method;
  std::string build = "auto"; // auto | maven | gradle | classpath (java-test) | none (java-main)
  std::vector<std::string> classpath;
  std::string runner = "auto"; // auto | junit4 | junit5 (java-test, classpath build);
                               // auto | node | jest | vitest | mocha | npm (node-test)
  std::string junit_console;   // the JUnit 5 console launcher jar
  // java-main (also build, classpath: added after the build's classes)
  std::string main_class, jar;
  std::vector<std::string> args;
  // java-test, java-main
  std::vector<std::string> jvm_args, build_args;
  std::string java, maven, gradle; // executables ("" = java / mvn / gradle on PATH)
  std::string async_profiler_path; // asyncProfiler.path; "" = JDK Flight Recorder
  std::string async_profiler_event = "cpu";
  std::string jfr_settings = "profile";
  // go-test, go-bench
  std::string package = ".", test, bench, profile = "cpu", go;
  std::vector<std::string> go_args;
  // node-test (also test: the test's name, its full name "suite test" for Jest, Vitest and
  // Mocha; runner; args: after the runner's own), node-script (also args)
  std::string file, node; // the test file or script; the node executable ("" = node on PATH)
  std::vector<std::string> node_args;
  // command
  std::vector<std::string> argv;
  std::string format; // jfr | pprof | collapsed ("" = detected when loading)
  // command with profiler "perf" (argv runs under perf record), gtest (always perf)
  std::string profiler;               // "" (argv writes {profile} itself) | perf
  std::string perf;                   // the perf executable ("" = perf on PATH)
  std::string call_graph = "auto";    // auto (fp when the binary has frame pointers) | fp | dwarf
  std::vector<std::string> perf_args; // more perf record options (-F 999, -e cycles)
  // gtest: `test` is Suite.Name; a GoogleTest `binary` (relative to cwd), else ctest in buildDir
  std::string binary, build_dir;
  // attach-jvm
  int64_t pid = 0;
  int64_t duration_ms = 10000;
  std::string jcmd;
};
std::string parse_params(const json &params, RunParams *out);

// Result of hotlines/run.
struct RunStarted {
  std::string run_id, profile_path;
  std::vector<std::vector<std::string>> commands; // what runs, in order
};
json to_json(const RunStarted &r);

// hotlines/runOutput notification. stream: stdout | stderr | hotlines (the server's own
// lines: each command before it starts, waits).
struct RunOutput {
  std::string run_id, stream, text;
};
json to_json(const RunOutput &o);

// The `error` of hotlines/runFinished. kind: toolNotFound, testNotFound, buildFailed,
// crashed, noProfile, timeout, cancelled, spawnFailed, loadFailed.
struct RunError {
  std::string kind, message;
  std::string output; // the last lines of output
};

// hotlines/runFinished notification.
struct RunFinished {
  std::string run_id;
  std::optional<int64_t> exit_code; // of the last command that ran; none if killed or not started
  std::string signal;               // "SIGKILL" etc. when a signal ended it, else ""
  std::string profile_path;
  std::string profile_id; // "" when nothing was loaded
  int64_t duration_ms = 0;
  std::optional<RunError> error;
};
json to_json(const RunFinished &f);

// hotlines/cancelRun {runId}
struct CancelRunParams {
  std::string run_id;
};
std::string parse_params(const json &params, CancelRunParams *out);

// hotlines/listJvms {jcmd?} -> {jvms: [{pid, mainClass, args}]}
struct ListJvmsParams {
  std::string jcmd; // "" = jcmd of the JDK on PATH
};
std::string parse_params(const json &params, ListJvmsParams *out);
struct JvmInfo {
  int64_t pid = 0;
  std::string main_class, args;
};
json to_json(const std::vector<JvmInfo> &jvms);

// hotlines/testsInFile {textDocument: {uri}}
struct TestsInFileParams {
  std::string uri;
};
std::string parse_params(const json &params, TestsInFileParams *out);
struct Position {
  int64_t line = 0, character = 0;
};
struct Range {
  Position start, end;
};
json to_json(const Range &r);

// A test, or (in TestsInFileResult::mains) a program's main method, or (in ::classes) a test
// class.
struct TestEntry {
  std::string kind; // junit | goTest | goBenchmark | javaMain | junitClass | gtest
  std::string name; // Class#method, TestXxx, BenchmarkXxx, Suite.Name; the class for javaMain…
  Range range;      // annotations, modifiers (mains) or func through the closing brace
  Range selection_range; // the method or function name
  json run;              // params for hotlines/run that profile this test (null if unknown)
};
struct TestsInFileResult {
  std::string uri, language; // java | go | cpp | "" (not a test file hotlines knows)
  std::vector<TestEntry> tests;
  std::vector<TestEntry> mains;   // Java main methods (any .java file)
  std::vector<TestEntry> classes; // Java classes declaring JUnit tests (the whole class runs)
};
json to_json(const TestsInFileResult &r);

} // namespace hotlines
