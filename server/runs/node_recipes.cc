// Node.js recipes (see node_recipes.h).
#include "server/runs/node_recipes.h"

#include <filesystem>

namespace hotlines {

namespace fs = std::filesystem;

std::string exact_name_pattern(const std::string &name) {
  std::string out = "^";
  for (char c : name) {
    if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out + "$";
}

std::string plan_node(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  const bool test = p.recipe == "node-test";
  if (!test && p.file.empty()) return "params.file (the script to run) is required for node-script";
  if (!p.file.empty() && p.file[0] == '-') return "params.file must be a file, not an option";
  const std::string node = p.node.empty() ? "node" : p.node;
  plan->family = RunFamily::node;
  plan->label = test ? (p.test.empty() ? "tests" : p.test) : fs::path(p.file).filename().string();
  // The package's build (tsc) first, so that the tests run what the sources say.
  if (test && ctx.package_scripts && ctx.package_scripts(plan->cwd).count("build")) {
    RunStep build;
    build.argv = {"npm", "run", "--silent", "build"};
    build.build = true;
    plan->steps.push_back(std::move(build));
  }
  // Set when the editor itself was started from a node:test run (as this project's VS Code
  // test starts it): node --test would take itself for a test file's process and run nothing.
  plan->unset_env.push_back("NODE_TEST_CONTEXT");
  RunStep step;
  step.argv = {node, "--cpu-prof", "--cpu-prof-dir=" + plan->profile_path};
  step.argv.insert(step.argv.end(), p.node_args.begin(), p.node_args.end());
  if (test) {
    step.argv.push_back("--test");
    if (!p.test.empty()) step.argv.push_back("--test-name-pattern=" + exact_name_pattern(p.test));
    // A compiled language's test file is found by node --test among the compiled ones.
    const std::string ext = fs::path(p.file).extension().string();
    if (!p.file.empty() && (ext == ".js" || ext == ".mjs" || ext == ".cjs"))
      step.argv.push_back(p.file);
  } else {
    step.argv.push_back(p.file);
    step.argv.insert(step.argv.end(), p.args.begin(), p.args.end());
  }
  plan->steps.push_back(std::move(step));
  return "";
}

} // namespace hotlines
