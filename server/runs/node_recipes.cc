// Node.js recipes (see node_recipes.h).
#include "server/runs/node_recipes.h"

#include "server/runs/node_preload.h"

#include <filesystem>

namespace hotlines {

namespace fs = std::filesystem;

namespace {

// node_modules/.bin/NAME of `cwd` or of the nearest folder above it that has one; "" if none.
std::string runner_bin(const RecipeContext &ctx, const std::string &cwd, const char *name) {
  for (fs::path d = cwd; !d.empty(); d = d.parent_path()) {
    const std::string bin = (d / "node_modules" / ".bin" / name).string();
    if (ctx.exists && ctx.exists(bin)) return bin;
    if (d == d.parent_path()) break;
  }
  return "";
}

// params.runner, or (auto) the runner detect_node_runner picks for params.file: `npm test` when
// neither a file nor a test is given and package.json has a test script.
std::string choose_runner(const RunParams &p, const RecipeContext &ctx, const PackageJson &pkg,
                          RunnerChoice *out) {
  if (p.runner != "auto") {
    if (!runner_named(p.runner, &out->runner))
      return "params.runner for node-test must be one of auto, node, jest, vitest, mocha, npm "
             "(got '" +
             p.runner + "')";
    out->why = "params.runner";
    return "";
  }
  if (p.file.empty() && p.test.empty() && pkg.scripts.count("test")) {
    *out = {NodeRunner::npm, "no test file or name: the package's test script"};
    return "";
  }
  std::optional<std::string> text;
  if (!p.file.empty() && ctx.read_source) text = ctx.read_source(p.file);
  *out = detect_node_runner(text ? *text : "", pkg);
  return "";
}

// `node --cpu-prof --test`: node:test hands --cpu-prof to each test file's process.
void plan_node_test(const RunParams &p, const std::string &node, RunStep *step, RunPlan *plan) {
  step->argv = {node, "--cpu-prof", "--cpu-prof-dir=" + plan->profile_path};
  step->argv.insert(step->argv.end(), p.node_args.begin(), p.node_args.end());
  step->argv.push_back("--test");
  if (!p.test.empty()) step->argv.push_back("--test-name-pattern=" + exact_name_pattern(p.test));
  // A compiled language's test file is found by node --test among the compiled ones.
  const std::string ext = fs::path(p.file).extension().string();
  if (!p.file.empty() && (ext == ".js" || ext == ".mjs" || ext == ".cjs"))
    step->argv.push_back(p.file);
}

// The project's Jest, Vitest or Mocha (or npm test) with the preload in NODE_OPTIONS.
std::string plan_preloaded(const RunParams &p, const RecipeContext &ctx, NodeRunner runner,
                           const std::string &node, RunStep *step, RunPlan *plan) {
  const std::string preload = plan->output_dir + "/" + ctx.run_id + "-cpuprofile-preload.js";
  plan->files.push_back({preload, std::string(reinterpret_cast<const char *>(kNodeProfilePreload),
                                              kNodeProfilePreloadSize)});
  plan->remove_after.push_back(preload);
  auto given = p.env.find("NODE_OPTIONS");
  const std::string base = given != p.env.end() ? given->second : ctx.node_options;
  plan->env["NODE_OPTIONS"] =
      base + (base.empty() ? "" : " ") + "--require " + backslash_quoted(preload, '"');
  plan->env["HOTLINES_CPUPROFILE_DIR"] = plan->profile_path;
  if (runner == NodeRunner::npm) {
    step->argv = {"npm", "test"};
    if (!p.args.empty()) step->argv.push_back("--");
    step->argv.insert(step->argv.end(), p.args.begin(), p.args.end());
    return "";
  }
  const char *name = runner_name(runner);
  const std::string bin = runner_bin(ctx, plan->cwd, name);
  if (bin.empty())
    return std::string(name) + " is not installed for " + plan->cwd + ": no node_modules/.bin/" +
           name + " there or above (npm install it, or give params.runner)";
  if (p.file.empty()) return std::string("params.file (the test file) is required for ") + name;
  step->argv = {node};
  step->argv.insert(step->argv.end(), p.node_args.begin(), p.node_args.end());
  step->argv.push_back(bin);
  const std::string pattern = p.test.empty() ? "" : name_prefix_pattern(p.test);
  if (runner == NodeRunner::jest) step->argv.insert(step->argv.end(), {"--runTestsByPath"});
  if (runner == NodeRunner::vitest) step->argv.push_back("run");
  step->argv.push_back(p.file);
  if (!pattern.empty())
    step->argv.insert(step->argv.end(),
                      {runner == NodeRunner::mocha ? "--grep" : "--testNamePattern", pattern});
  step->argv.insert(step->argv.end(), p.args.begin(), p.args.end());
  return "";
}

} // namespace

std::string exact_name_pattern(const std::string &name) {
  return name_prefix_pattern(name, "$");
}

std::string name_prefix_pattern(const std::string &name, const std::string &end) {
  std::string out = "^";
  for (char c : name) {
    if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out + end;
}

std::string plan_node(const RunParams &p, const RecipeContext &ctx, RunPlan *plan) {
  const bool test = p.recipe == "node-test";
  if (!test && p.file.empty()) return "params.file (the script to run) is required for node-script";
  if (!p.file.empty() && p.file[0] == '-') return "params.file must be a file, not an option";
  const std::string node = p.node.empty() ? "node" : p.node;
  plan->family = RunFamily::node;
  plan->label = test ? (p.test.empty() ? "tests" : p.test) : fs::path(p.file).filename().string();
  const PackageJson pkg = test && ctx.package_json ? ctx.package_json(plan->cwd) : PackageJson{};
  RunnerChoice runner;
  if (!pkg.error.empty()) return pkg.error;
  if (test) {
    if (std::string err = choose_runner(p, ctx, pkg, &runner); !err.empty()) return err;
    plan->notes.push_back(std::string("runner: ") + runner_name(runner.runner) + " (" + runner.why +
                          ")");
  }
  // The package's build (tsc) first, so that node runs what the sources say (Jest, Vitest and
  // Mocha compile or run the sources themselves).
  const bool builds = runner.runner == NodeRunner::node || runner.runner == NodeRunner::npm;
  if (test && builds && pkg.scripts.count("build")) {
    RunStep build;
    build.argv = {"npm", "run", "--silent", "build"};
    build.build = true;
    plan->steps.push_back(std::move(build));
  }
  // Set when the editor itself was started from a node:test run (as this project's VS Code
  // test starts it): node --test would take itself for a test file's process and run nothing.
  plan->unset_env.push_back("NODE_TEST_CONTEXT");
  RunStep step;
  if (!test) {
    step.argv = {node, "--cpu-prof", "--cpu-prof-dir=" + plan->profile_path};
    step.argv.insert(step.argv.end(), p.node_args.begin(), p.node_args.end());
    step.argv.push_back(p.file);
    step.argv.insert(step.argv.end(), p.args.begin(), p.args.end());
  } else if (runner.runner == NodeRunner::node) {
    plan_node_test(p, node, &step, plan);
  } else if (std::string err = plan_preloaded(p, ctx, runner.runner, node, &step, plan);
             !err.empty()) {
    return err;
  }
  plan->steps.push_back(std::move(step));
  return "";
}

} // namespace hotlines
