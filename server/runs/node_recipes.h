// The Node.js recipes: node-test and node-script (`node FILE ARGS`). node-test runs the test
// file's runner (params.runner, or the one node_runner.h detects): node:test as `node --test`
// with a test name pattern, after the package's `build` script when package.json has one
// (TypeScript compiled with source maps); the project's own Jest, Vitest or Mocha
// (node_modules/.bin) on the file with the test's full name as pattern; or `npm test`.
// node:test and node-script run node with `--cpu-prof --cpu-prof-dir=DIR` (node --test hands it
// to each test file's process; Node refuses --cpu-prof in NODE_OPTIONS); the others get the
// hotlines preload (node_preload.h) through NODE_OPTIONS, which every node process of the run
// inherits. Each process writes its own .cpuprofile into DIR, and the run loads DIR, the
// profiles of the processes that ran project code (v8_profile_dir.h). Pure functions (file
// existence, package.json and the test file come in through RecipeContext); thread-safe.
#pragma once

#include "server/runs/run_recipes.h"

#include <string>

namespace hotlines {

// Fills *plan for params.recipe node-test or node-script, or returns why it cannot run.
std::string plan_node(const RunParams &params, const RecipeContext &ctx, RunPlan *plan);

// A regular expression matching exactly `name` (node's --test-name-pattern).
std::string exact_name_pattern(const std::string &name);

// `^name` with the regular expression's specials escaped, then `end`: by default `( |$)`, a
// test's full name ("suite test", as Jest, Vitest and Mocha match -t and --grep) or every test
// under a suite of that name.
std::string name_prefix_pattern(const std::string &name, const std::string &end = "( |$)");

} // namespace hotlines
