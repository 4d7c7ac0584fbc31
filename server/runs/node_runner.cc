// Choosing a JavaScript test file's runner (see node_runner.h).
#include "server/runs/node_runner.h"

#include "protocol/jsonrpc.h"

#include <cctype>
#include <vector>

namespace hotlines {

namespace {

constexpr struct {
  NodeRunner runner;
  const char *name;
} kRunners[] = {{NodeRunner::node, "node"},
                {NodeRunner::jest, "jest"},
                {NodeRunner::vitest, "vitest"},
                {NodeRunner::mocha, "mocha"},
                {NodeRunner::npm, "npm"}};

// The runner a module name stands for, or false.
bool runner_of_module(std::string_view module, NodeRunner *out) {
  if (module == "vitest")
    *out = NodeRunner::vitest;
  else if (module == "@jest/globals")
    *out = NodeRunner::jest;
  else if (module == "mocha")
    *out = NodeRunner::mocha;
  else if (module == "node:test")
    *out = NodeRunner::node;
  else
    return false;
  return true;
}

bool ident_char(char c) {
  return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// Whether `text` before `end` (spaces skipped) ends with the word `word`.
bool preceded_by(std::string_view text, size_t end, std::string_view word) {
  while (end > 0 && isspace(static_cast<unsigned char>(text[end - 1]))) end--;
  if (end < word.size() || text.substr(end - word.size(), word.size()) != word) return false;
  const size_t before = end - word.size();
  return before == 0 || !ident_char(text[before - 1]) || !ident_char(word[0]);
}

// The module of the first `from '…'`, `import '…'`, `require('…')` or `import('…')` that names
// a runner.
bool imported_runner(std::string_view text, std::string *module, NodeRunner *out) {
  for (size_t i = 0; i < text.size(); i++) {
    const char q = text[i];
    if (q != '\'' && q != '"') continue;
    const size_t close = text.find_first_of(std::string{q, '\n'}, i + 1);
    if (close == std::string_view::npos) break;
    const std::string_view literal = text.substr(i + 1, close - i - 1);
    const bool import = preceded_by(text, i, "from") || preceded_by(text, i, "import") ||
                        preceded_by(text, i, "require(") || preceded_by(text, i, "import(");
    if (import && runner_of_module(literal, out)) {
      *module = std::string(literal);
      return true;
    }
    i = close;
  }
  return false;
}

// Whether `text` uses `name.` as a global (`vi.fn()`, `jest.mock(…)`): not after a `.` or an
// identifier character.
bool uses_global(std::string_view text, std::string_view name) {
  const std::string member = std::string(name) + ".";
  for (size_t at = text.find(member); at != std::string_view::npos; at = text.find(member, at + 1))
    if (at == 0 || (!ident_char(text[at - 1]) && text[at - 1] != '.')) return true;
  return false;
}

// Whether `command` names `word` as a word ("vitest run", "npx jest --ci").
bool names_word(std::string_view command, std::string_view word) {
  for (size_t at = command.find(word); at != std::string_view::npos;
       at = command.find(word, at + 1)) {
    const size_t end = at + word.size();
    const bool left = at == 0 || !ident_char(command[at - 1]) || command[at - 1] == '/';
    const bool right = end == command.size() || !ident_char(command[end]);
    if (left && right) return true;
  }
  return false;
}

std::string string_map(const json &doc, const char *key, std::map<std::string, std::string> *out,
                       std::set<std::string> *names) {
  if (!doc.contains(key)) return "";
  const json &v = doc[key];
  if (!v.is_object()) return std::string("package.json: ") + key + " must be an object";
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!it->is_string())
      return std::string("package.json: ") + key + "." + it.key() + " must be a string";
    if (out) (*out)[it.key()] = it->get<std::string>();
    if (names) names->insert(it.key());
  }
  return "";
}

} // namespace

std::string parse_package_json(std::string_view text, PackageJson *out) {
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) return "package.json: not JSON";
  if (!doc.is_object()) return "package.json: not an object";
  out->found = true;
  std::string err = string_map(doc, "scripts", &out->scripts, nullptr);
  if (err.empty()) err = string_map(doc, "dependencies", nullptr, &out->dependencies);
  if (err.empty()) err = string_map(doc, "devDependencies", nullptr, &out->dependencies);
  return err;
}

RunnerChoice detect_node_runner(std::string_view test_text, const PackageJson &package) {
  RunnerChoice c;
  std::string module;
  if (imported_runner(test_text, &module, &c.runner)) {
    c.why = "the file imports " + module;
    return c;
  }
  if (uses_global(test_text, "vi")) return {NodeRunner::vitest, "the file uses vi."};
  if (uses_global(test_text, "jest")) return {NodeRunner::jest, "the file uses jest."};
  std::vector<NodeRunner> listed;
  for (NodeRunner r : {NodeRunner::jest, NodeRunner::vitest, NodeRunner::mocha})
    if (package.dependencies.count(runner_name(r))) listed.push_back(r);
  if (listed.size() == 1)
    return {listed[0], std::string("package.json's dependencies name ") + runner_name(listed[0]) +
                           " (no other runner)"};
  auto test = package.scripts.find("test");
  if (!listed.empty() && test != package.scripts.end()) {
    // The runner the script names first.
    size_t first = std::string::npos;
    for (NodeRunner r : listed)
      if (names_word(test->second, runner_name(r))) {
        const size_t at = test->second.find(runner_name(r));
        if (at < first) {
          first = at;
          c.runner = r;
        }
      }
    if (first != std::string::npos) {
      c.why = std::string("package.json's test script runs ") + runner_name(c.runner);
      return c;
    }
  }
  c.why = listed.empty() ? "no other runner in package.json"
                         : "package.json names several runners and its test script none";
  return c;
}

const char *runner_name(NodeRunner runner) {
  for (const auto &r : kRunners)
    if (r.runner == runner) return r.name;
  return "";
}

bool runner_named(std::string_view name, NodeRunner *out) {
  for (const auto &r : kRunners)
    if (name == r.name) {
      *out = r.runner;
      return true;
    }
  return false;
}

} // namespace hotlines
