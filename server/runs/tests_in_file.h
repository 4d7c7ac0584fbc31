// Finds the tests and programs in a source file, for "Profile" code lenses and
// hotlines/testsInFile: JUnit methods (@Test, @ParameterizedTest, @RepeatedTest) in .java
// files with their fully-qualified class (nested classes as Outer$Inner), Java
// `public static void main(String[] args)` methods of such classes, and Go
// `func TestXxx(t *testing.T)` and `func BenchmarkXxx(b *testing.B)` in _test.go files,
// JavaScript/TypeScript `test("name", …)`, `it(…)`, `describe(…)` calls (node:test, Jest,
// Vitest, Mocha; also `.only`/`.skip`/`.todo`) in test files; GoogleTest `TEST(Suite, Name)`,
// `TEST_F`, `TEST_P`, `TYPED_TEST` and `TYPED_TEST_P` in C++ files. A tokenizer that skips
// comments, strings and character literals, not a parser. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

// LSP positions: 0-based line, column in UTF-16 code units.
struct SourcePos {
  int64_t line = 0, character = 0;
};
struct SourceRange {
  SourcePos start, end;
};

struct FoundTest {
  enum class Kind { junit, go_test, go_benchmark, java_main, junit_class, node_test, gtest };
  Kind kind = Kind::junit;
  std::string class_name; // Java: package.Outer$Inner; GoogleTest: the suite; Go: ""
  // The method or function name ("main" for java_main; the class's own for junit_class).
  // JavaScript: the test's name as written in its string.
  std::string name;
  // JavaScript: the names of the describe (test, it) calls around it, outermost first, joined
  // by spaces: `suite + " " + name` is the full name Jest, Vitest and Mocha match.
  std::string suite;
  SourceRange range;     // first annotation, modifier or `func` (the call) through the closing
                         // brace (parenthesis)
  SourceRange selection; // the name (`test`, `it`, `describe`)
  // GoogleTest: the --gtest_filter that runs it: `Suite.Name`, `*/Suite.Name/*` (TEST_P),
  // `Suite/*.Name` (TYPED_TEST), `*/Suite/*.Name` (TYPED_TEST_P).
  std::string gtest_filter;
};

enum class TestLanguage { none, java, go, javascript, cpp };

// By file name: *.java -> java, *_test.go -> go; .js/.mjs/.cjs/.jsx/.ts/.mts/.cts/.tsx files named
// *.test.* / *.spec.* or under a test, tests or __tests__ folder -> javascript; *.cc, *.cpp,
// *.cxx, *.c++ -> cpp.
TestLanguage test_language(std::string_view file_name);

// The tests in `text`, in source order.
std::vector<FoundTest> find_tests(TestLanguage language, std::string_view text);

// The Java main methods in `text` (kind java_main), in source order: `public static void
// main(String[] args)`, also `String... a`, `String a[]`, `final`, annotations, in top-level
// and nested classes (not local or anonymous ones). Empty for other languages.
std::vector<FoundTest> find_mains(TestLanguage language, std::string_view text);

// The Java classes that declare JUnit tests themselves (kind junit_class), in source order;
// `range` runs from the class's first annotation or modifier through its closing brace. Empty
// for other languages.
std::vector<FoundTest> find_test_classes(TestLanguage language, std::string_view text);

} // namespace hotlines
