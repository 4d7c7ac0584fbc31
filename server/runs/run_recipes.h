// Recipes: hotlines/run params -> a RunPlan of argv arrays (never a shell string), and the
// diagnosis of a finished run (which failure, from the exit status and the output's last
// lines). Also the `jcmd -l` parser. Pure functions (file existence comes in through
// RecipeContext so tests can fake it); thread-safe.
#pragma once

#include "protocol/run_types.h"
#include "server/runs/frame_pointers.h"
#include "server/runs/node_runner.h"
#include "server/runs/run_plan.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hotlines {

struct RecipeContext {
  std::string workspace_root; // "" when the client sent none
  std::string run_id;         // names files: "r1"
  std::string stamp;          // names files: "20250101-120000"
  std::function<bool(const std::string &path)> exists;
  // The package.json in a folder (found = false when none or unreadable).
  std::function<PackageJson(const std::string &dir)> package_json;
  // A source file's text (a test file, for its runner), or nullopt.
  std::function<std::optional<std::string>(const std::string &path)> read_source;
  // Whether a program keeps frame pointers (perf runs; frame_pointers.h); null: unknown.
  std::function<FramePointers(const std::string &path, std::string *why)> frame_pointers;
  std::string path_env;     // the server's PATH, where a program without a '/' is looked up
  std::string node_options; // the server's NODE_OPTIONS (node runs add to it)
};

// Fills *plan or returns why the params cannot run (an InvalidParams message).
std::string build_run_plan(const RunParams &params, const RecipeContext &ctx, RunPlan *plan);

// Why the run failed, or nullopt when its profile should be loaded. `profile_written`: the
// profile file exists and is not empty.
std::optional<RunError> diagnose_run(const RunPlan &plan, const RunOutcome &outcome,
                                     bool profile_written);

// `s` between two `quote` characters, `quote` and `\` escaped with a backslash: a Groovy
// string ('…'), a NODE_OPTIONS value ("…", which node splits at spaces outside quotes).
std::string backslash_quoted(const std::string &s, char quote);

// The last `n` lines of `text` (without a trailing empty line).
std::string last_lines(const std::string &text, size_t n);

// `jcmd -l` output -> JVMs, without jcmd itself.
std::vector<JvmInfo> parse_jcmd_list(const std::string &output);

// The JUnit 4 launcher (java -cp … HotlinesJUnit4 Class [method]): JUnitCore with a method
// filter; exit 3 with a "hotlines:" line when nothing matches. Compiled by the recipe's first
// run into <outputDir>/junit4-launcher-<hash>/ and reused.
extern const char kJUnit4LauncherSource[];

} // namespace hotlines
