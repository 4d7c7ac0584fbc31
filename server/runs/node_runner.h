// Which runner runs a JavaScript/TypeScript test file: node:test, Jest, Vitest or Mocha (or the
// package's `npm test` as a whole), chosen from the file's imports and globals and its
// package.json (dependencies, devDependencies, the `test` script); and the package.json facts
// that choice needs. Pure functions; thread-safe.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace hotlines {

enum class NodeRunner { node, jest, vitest, mocha, npm };

// What hotlines reads of a package.json.
struct PackageJson {
  bool found = false;                         // a package.json was read
  std::map<std::string, std::string> scripts; // name -> command
  std::set<std::string> dependencies;         // names in dependencies and devDependencies
  std::string error;                          // why it could not be read ("" when fine)
};

// Parses package.json text into *out (found = true); returns "" or what is wrong, naming the
// field ("package.json: scripts.test must be a string").
std::string parse_package_json(std::string_view text, PackageJson *out);

struct RunnerChoice {
  NodeRunner runner = NodeRunner::node;
  std::string why; // "imports vitest", "package.json's devDependencies name jest only", …
};

// The runner of a test file with text `test_text` in the package `package`. In order: an import
// or require of vitest, @jest/globals, mocha or node:test; the globals `vi.` (Vitest) or
// `jest.` (Jest); the one runner among the package's dependencies; of several, the first one the
// `test` script names; else node:test.
RunnerChoice detect_node_runner(std::string_view test_text, const PackageJson &package);

// "node", "jest", "vitest", "mocha", "npm" (params.runner's values).
const char *runner_name(NodeRunner runner);
// The runner named `name`, or false.
bool runner_named(std::string_view name, NodeRunner *out);

} // namespace hotlines
