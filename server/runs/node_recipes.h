// The Node.js recipes: node-test (`node --test` with a test name pattern, after the package's
// `build` script when package.json has one: TypeScript compiled with source maps) and
// node-script (`node FILE ARGS`). Both run node with `--cpu-prof --cpu-prof-dir=DIR`: the test
// runner hands those flags to each test file's process (Node refuses --cpu-prof in
// NODE_OPTIONS), every process writes its own .cpuprofile into DIR, and the run loads DIR, the
// profiles of the processes that ran project code (v8_profile_dir.h). Pure functions (file
// existence and package.json come in through RecipeContext); thread-safe.
#pragma once

#include "server/runs/run_recipes.h"

#include <string>

namespace hotlines {

// Fills *plan for params.recipe node-test or node-script, or returns why it cannot run.
std::string plan_node(const RunParams &params, const RecipeContext &ctx, RunPlan *plan);

// A regular expression matching exactly `name` (node's --test-name-pattern).
std::string exact_name_pattern(const std::string &name);

} // namespace hotlines
