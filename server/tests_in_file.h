// Finds the tests in a source file, for "Profile" code lenses and hotlines/testsInFile:
// JUnit methods (@Test, @ParameterizedTest, @RepeatedTest) in .java files with their
// fully-qualified class (nested classes as Outer$Inner), and Go `func TestXxx(t *testing.T)`
// and `func BenchmarkXxx(b *testing.B)` in _test.go files. A tokenizer that skips comments,
// strings and character literals, not a parser. Pure functions; thread-safe.
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
  enum class Kind { junit, go_test, go_benchmark };
  Kind kind = Kind::junit;
  std::string class_name; // Java: package.Outer$Inner; Go: ""
  std::string name;       // the method or function name
  SourceRange range;      // first annotation (or `func`) through the closing brace
  SourceRange selection;  // the name
};

enum class TestLanguage { none, java, go };

// By file name: *.java -> java, *_test.go -> go.
TestLanguage test_language(std::string_view file_name);

// The tests in `text`, in source order.
std::vector<FoundTest> find_tests(TestLanguage language, std::string_view text);

} // namespace hotlines
