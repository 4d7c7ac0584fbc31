// What a profiled run executes (RunPlan: argv steps, files to write, where the profile goes)
// and what came of it (RunOutcome). Recipes build plans (run_recipes.h), RunManager executes
// them (run_manager.h). Plain data; no threads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hotlines {

struct RunStep {
  std::vector<std::string> argv; // argv[0] is looked up on the run's PATH
  int64_t delay_ms = 0;          // wait this long before starting (attach: the recording time)
  bool cleanup = false;          // also runs after a failure, cancel or timeout (JFR.stop)
  bool build = false;            // compiles the project: its failure is buildFailed
};

struct RunFile {
  std::string path, content;
};

// How a recipe's output is read when it fails (see diagnose_run).
enum class RunFamily {
  maven,
  gradle,
  junit4,
  junit5,
  java,
  go_test,
  go_bench,
  node,
  command,
  attach,
  gtest
};

struct RunPlan {
  RunFamily family = RunFamily::command;
  std::string label; // what runs, for messages: "org.acme.PricingTest#discountIsFinite"
  std::string cwd;
  std::map<std::string, std::string> env; // additions to the server's environment
  std::vector<std::string> unset_env;     // names taken out of it
  std::vector<RunStep> steps;
  std::vector<RunFile> files;            // written before the first step
  std::vector<std::string> remove_after; // scratch files deleted when the run ends
  std::string profile_path, format;      // format "" = detected when loading; a folder for node
                                         // (one .cpuprofile per process)
  std::string output_dir;
  bool default_output_dir = false; // <root>/.hotlines: gets a .gitignore
  std::vector<std::string> notes;  // said on the run's output before its first command
};

struct RunOutcome {
  bool cancelled = false, timed_out = false;
  int spawn_error = 0;              // libuv error code of a step that did not start (UV_ENOENT…)
  std::string spawn_file;           // that step's argv[0]
  std::optional<int64_t> exit_code; // of the last non-cleanup step that ran to its end
  int64_t failed_step = -1;         // the non-cleanup step that failed (exit != 0, signal)
  int signal = 0;                   // the signal that ended it, 0 if none
  std::string output;               // the tail of stdout and stderr, interleaved
  int64_t duration_ms = 0;
};

} // namespace hotlines
