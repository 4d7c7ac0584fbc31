// detect_node_runner and parse_package_json: which runner a JavaScript test file gets.
#include "server/runs/node_runner.h"

#include <gtest/gtest.h>

namespace hotlines {
namespace {

PackageJson package(const std::string &text) {
  PackageJson pkg;
  EXPECT_EQ(parse_package_json(text, &pkg), "");
  return pkg;
}

TEST(NodeRunner, ImportsDecideFirst) {
  const PackageJson all = package(R"({"scripts": {"test": "vitest run"},
      "devDependencies": {"jest": "29.7.0", "vitest": "2.1.9", "mocha": "10.8.2"}})");
  RunnerChoice c = detect_node_runner("import { test } from 'vitest';\n", all);
  EXPECT_EQ(c.runner, NodeRunner::vitest);
  EXPECT_EQ(c.why, "the file imports vitest");
  EXPECT_EQ(detect_node_runner("const { it } = require(\"mocha\");", all).runner,
            NodeRunner::mocha);
  EXPECT_EQ(detect_node_runner("import {expect} from '@jest/globals'", all).runner,
            NodeRunner::jest);
  EXPECT_EQ(detect_node_runner("const test = require('node:test');", all).runner, NodeRunner::node);
  // A string that is not an import names nothing.
  EXPECT_EQ(detect_node_runner("const s = 'mocha'; test('x', () => {})", all).runner,
            NodeRunner::vitest); // the test script's runner
  // Globals.
  EXPECT_EQ(detect_node_runner("test('x', () => { jest.fn(); })", all).runner, NodeRunner::jest);
  EXPECT_EQ(detect_node_runner("const f = vi.fn();", all).runner, NodeRunner::vitest);
  EXPECT_EQ(detect_node_runner("a.vi.fn(); myjest.x", package("{}")).runner, NodeRunner::node);
}

TEST(NodeRunner, PackageDecidesThen) {
  RunnerChoice c =
      detect_node_runner("it('x', () => {})", package(R"({"devDependencies": {"mocha": "10"}})"));
  EXPECT_EQ(c.runner, NodeRunner::mocha);
  EXPECT_EQ(c.why, "package.json's dependencies name mocha (no other runner)");
  c = detect_node_runner("", package(R"({"dependencies": {"jest": "29", "mocha": "10"},
      "scripts": {"test": "mocha && jest"}})"));
  EXPECT_EQ(c.runner, NodeRunner::mocha);
  EXPECT_EQ(c.why, "package.json's test script runs mocha");
  c = detect_node_runner("", package(R"({"dependencies": {"jest": "29", "mocha": "10"},
      "scripts": {"test": "node --test"}})"));
  EXPECT_EQ(c.runner, NodeRunner::node);
  EXPECT_EQ(c.why, "package.json names several runners and its test script none");
  EXPECT_EQ(detect_node_runner("", PackageJson{}).runner, NodeRunner::node);
}

TEST(NodeRunner, PackageJsonErrorsNameTheField) {
  PackageJson pkg;
  EXPECT_EQ(parse_package_json("[1]", &pkg), "package.json: not an object");
  EXPECT_EQ(parse_package_json("{", &pkg), "package.json: not JSON");
  EXPECT_EQ(parse_package_json(R"({"scripts": {"test": 1}})", &pkg),
            "package.json: scripts.test must be a string");
  EXPECT_EQ(parse_package_json(R"({"devDependencies": []})", &pkg),
            "package.json: devDependencies must be an object");
}

TEST(NodeRunner, Names) {
  NodeRunner r;
  ASSERT_TRUE(runner_named("vitest", &r));
  EXPECT_EQ(r, NodeRunner::vitest);
  EXPECT_STREQ(runner_name(NodeRunner::npm), "npm");
  EXPECT_FALSE(runner_named("junit4", &r));
}

} // namespace
} // namespace hotlines
