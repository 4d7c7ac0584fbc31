// Tests in a file: JUnit methods with their classes, Java main methods, and Go tests and
// benchmarks, with ranges; and OutputDecoder's UTF-8 chunking and escape dropping of streamed
// process output.
#include "server/runs/output_decoder.h"
#include "server/runs/tests_in_file.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace hotlines {
namespace {

std::string where(const SourceRange &r) {
  return std::to_string(r.start.line) + ":" + std::to_string(r.start.character) + "-" +
         std::to_string(r.end.line) + ":" + std::to_string(r.end.character);
}

TEST(TestsInFile, Languages) {
  EXPECT_EQ(test_language("/a/PricingTest.java"), TestLanguage::java);
  EXPECT_EQ(test_language("/a/shop_test.go"), TestLanguage::go);
  EXPECT_EQ(test_language("/a/shop.go"), TestLanguage::none);
  EXPECT_EQ(test_language("/a/pricing_test.cc"), TestLanguage::cpp);
  EXPECT_EQ(test_language("/a/pricing.cpp"), TestLanguage::cpp);
  EXPECT_EQ(test_language("/a/pricing.h"), TestLanguage::none);
}

TEST(TestsInFile, FixtureGoogleTest) {
  std::string file = test::fixture_path("native-shop/test/pricing_test.cc");
  auto tests = find_tests(TestLanguage::cpp, test::read_file(file));
  ASSERT_EQ(tests.size(), 3u);
  EXPECT_EQ(tests[0].kind, FoundTest::Kind::gtest);
  EXPECT_EQ(tests[0].class_name, "Pricing");
  EXPECT_EQ(tests[0].name, "DiscountIsFinite");
  EXPECT_EQ(where(tests[0].range), "23:0-23:92");
  EXPECT_EQ(where(tests[0].selection), "23:14-23:30");
  EXPECT_EQ(tests[1].class_name, "PricingFixture");
  EXPECT_EQ(tests[1].name, "LabelsAreCounted");
  EXPECT_EQ(where(tests[1].range), "25:0-29:1");
  EXPECT_EQ(tests[0].gtest_filter, "Pricing.DiscountIsFinite");
  EXPECT_EQ(tests[1].gtest_filter, "PricingFixture.LabelsAreCounted");
  EXPECT_EQ(tests[2].gtest_filter, "*/Rates.AreFinite/*");
  EXPECT_EQ(where(tests[2].range), "35:0-35:88");
  // Not tests: a declaration without a body, a macro in a comment or string, another macro.
  auto none =
      find_tests(TestLanguage::cpp, "// TEST(A, B) {}\nconst char *s = \"TEST(A, B) {}\";\n"
                                    "TEST(A, B);\nTEST_Q(A, B) {}\nTYPED_TEST_SUITE_P(A);\n");
  EXPECT_TRUE(none.empty());
}

TEST(TestsInFile, ParameterizedAndTypedGoogleTests) {
  auto tests =
      find_tests(TestLanguage::cpp, "TEST_P(Rates, AreFinite) {\n}\n"
                                    "INSTANTIATE_TEST_SUITE_P(Some, Rates, Values(1, 2));\n"
                                    "TYPED_TEST(Sizes, AreCounted) { TypeParam x{}; }\n"
                                    "TYPED_TEST_P(Shapes, Fit) {}\n");
  // Suite, name, gtest filter, range and selection of each.
  std::vector<std::string> found;
  for (const FoundTest &t : tests)
    found.push_back(t.class_name + " " + t.name + " " + t.gtest_filter + " " + where(t.range) +
                    " " + where(t.selection) + (t.kind == FoundTest::Kind::gtest ? "" : " ?"));
  EXPECT_EQ(found, (std::vector<std::string>{
                       "Rates AreFinite */Rates.AreFinite/* 0:0-1:1 0:14-0:23",
                       "Sizes AreCounted Sizes/*.AreCounted 3:0-3:48 3:18-3:28",
                       "Shapes Fit */Shapes/*.Fit 4:0-4:28 4:21-4:24",
                   }));
}

TEST(TestsInFile, FixtureJUnit4) {
  std::string text = test::fixture_path("java-shop/src/test/java/org/acme/shop/PricingTest.java");
  auto tests = find_tests(TestLanguage::java, test::read_file(text));
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0].class_name, "org.acme.shop.PricingTest");
  EXPECT_EQ(tests[0].name, "discountIsFinite");
  EXPECT_EQ(where(tests[0].range), "7:4-15:5");      // @Test .. closing brace
  EXPECT_EQ(where(tests[0].selection), "8:16-8:32"); // discountIsFinite
  EXPECT_EQ(tests[1].name, "labelsAreUnique");
  EXPECT_EQ(where(tests[1].range), "17:4-21:5");
}

TEST(TestsInFile, TestClasses) {
  std::string fixture =
      test::fixture_path("java-shop/src/test/java/org/acme/shop/PricingTest.java");
  auto classes = find_test_classes(TestLanguage::java, test::read_file(fixture));
  ASSERT_EQ(classes.size(), 1u);
  EXPECT_EQ(classes[0].kind, FoundTest::Kind::junit_class);
  EXPECT_EQ(classes[0].class_name, "org.acme.shop.PricingTest");
  EXPECT_EQ(classes[0].name, "PricingTest");
  EXPECT_EQ(where(classes[0].range), "6:0-22:1");      // public class .. closing brace
  EXPECT_EQ(where(classes[0].selection), "6:13-6:24"); // PricingTest

  const char *src = R"(package a;
@RunWith(X.class)
public class OuterTest {
  static class Helper { void run() {} }
  @Nested
  class InnerTest {
    @Test void inner() {}
  }
  class OnlyNested {
    class Deep { @Test void deep() {} }
  }
  @Test
  void outer() {}
}
class NoTests { void plain() {} }
)";
  classes = find_test_classes(TestLanguage::java, src);
  ASSERT_EQ(classes.size(), 3u);
  // Declaration order: a class starts before the classes it holds.
  EXPECT_EQ(classes[0].class_name, "a.OuterTest");
  EXPECT_EQ(where(classes[0].range), "1:0-13:1"); // from @RunWith
  EXPECT_EQ(where(classes[0].selection), "2:13-2:22");
  EXPECT_EQ(classes[1].class_name, "a.OuterTest$InnerTest");
  EXPECT_EQ(where(classes[1].range), "4:2-7:3"); // from @Nested
  EXPECT_EQ(classes[2].class_name, "a.OuterTest$OnlyNested$Deep");
  EXPECT_TRUE(find_test_classes(TestLanguage::go, "func TestX(t *testing.T) {}").empty());
}

TEST(TestsInFile, JavaEdgeCases) {
  const char *src = R"(package a.b;
/* @Test void commented() {} */
@RunWith(X.class)
public class OuterTest {
  String s = "@Test void inString() {";
  @org.junit.jupiter.api.Test
  @DisplayName("é { tricky")
  void plain() { Runnable r = new Runnable() { public void run() {} }; }

  void helper() {}

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void param(int x) {}

  @Nested
  class InnerTest {
    @Test void deep() {}
  }

  @Test
  abstract void declared();

  @Override public String toString() { return "x"; }
}
@interface Test {}
)";
  auto tests = find_tests(TestLanguage::java, src);
  ASSERT_EQ(tests.size(), 4u);
  EXPECT_EQ(tests[0].name, "plain");
  EXPECT_EQ(tests[0].class_name, "a.b.OuterTest");
  EXPECT_EQ(where(tests[0].range), "5:2-7:72");
  EXPECT_EQ(tests[1].name, "param");
  EXPECT_EQ(where(tests[1].range), "11:2-13:22");
  EXPECT_EQ(tests[2].name, "deep");
  EXPECT_EQ(tests[2].class_name, "a.b.OuterTest$InnerTest");
  EXPECT_EQ(tests[3].name, "declared");
  EXPECT_EQ(where(tests[3].range), "20:2-21:27");
}

TEST(TestsInFile, FixtureJavaMain) {
  std::string path = test::fixture_path("java-shop/src/main/java/org/acme/shop/Main.java");
  std::string text = test::read_file(path);
  auto mains = find_mains(TestLanguage::java, text);
  ASSERT_EQ(mains.size(), 1u);
  EXPECT_EQ(mains[0].kind, FoundTest::Kind::java_main);
  EXPECT_EQ(mains[0].class_name, "org.acme.shop.Main");
  EXPECT_EQ(mains[0].name, "main");
  EXPECT_EQ(where(mains[0].range), "3:4-28:5");      // public .. closing brace
  EXPECT_EQ(where(mains[0].selection), "3:23-3:27"); // main
  EXPECT_TRUE(find_tests(TestLanguage::java, text).empty());
  // A test file has tests and no main; a main is Java only.
  std::string test_file =
      test::fixture_path("java-shop/src/test/java/org/acme/shop/PricingTest.java");
  EXPECT_TRUE(find_mains(TestLanguage::java, test::read_file(test_file)).empty());
  EXPECT_TRUE(find_mains(TestLanguage::go, "package main\nfunc main() {}\n").empty());
  EXPECT_TRUE(find_mains(TestLanguage::none, text).empty());
}

TEST(TestsInFile, JavaMainVariants) {
  const char *src = R"(package a.b;
// public static void main(String[] args) {}
public final class App {
  String s = "public static void main(String[] x) {";
  static public void main(final String... argv) { run(); }

  static final class Nested {
    @SuppressWarnings("unused")
    public static synchronized void main(java.lang.String words[]) {}
    class Deeper { public static void main(@Deprecated String[] a) {} }
  }
  public static void main(String[] a, int extra) {}
  public static int main(String[] a) { return 0; }
  private static void main(String[] a) {}
  public void main(String[] a) {}
  public static void mainly(String[] a) {}
  void body() {
    class Local { public static void main(String[] a) {} }
    Runnable r = new Runnable() { public static void main(String[] a) {} public void run() {} };
  }
  interface Tool { public static void main(String[] a) {} }
  enum Mode { A, B; public static void main(String[] args) {} }
}
class Second {
  public static void main(String[] args) throws Exception {
  }
}
)";
  auto mains = find_mains(TestLanguage::java, src);
  ASSERT_EQ(mains.size(), 6u);
  EXPECT_EQ(mains[0].class_name, "a.b.App");
  EXPECT_EQ(where(mains[0].range), "4:2-4:58");
  EXPECT_EQ(where(mains[0].selection), "4:21-4:25");
  EXPECT_EQ(mains[1].class_name, "a.b.App$Nested");
  EXPECT_EQ(where(mains[1].range), "7:4-8:69"); // from the annotation
  EXPECT_EQ(mains[2].class_name, "a.b.App$Nested$Deeper");
  EXPECT_EQ(where(mains[2].selection), "9:38-9:42");
  EXPECT_EQ(mains[3].class_name, "a.b.App$Tool");
  EXPECT_EQ(mains[4].class_name, "a.b.App$Mode");
  EXPECT_EQ(mains[5].class_name, "a.b.Second");
  EXPECT_EQ(where(mains[5].range), "24:2-25:3");
  // Mains do not count as tests.
  EXPECT_TRUE(find_tests(TestLanguage::java, src).empty());
}

TEST(TestsInFile, FixtureGo) {
  std::string path = test::fixture_path("go-shop/internal/shop/shop_test.go");
  auto tests = find_tests(TestLanguage::go, test::read_file(path));
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0].name, "TestWorkload");
  EXPECT_EQ(tests[0].kind, FoundTest::Kind::go_test);
  EXPECT_EQ(where(tests[0].range), "4:0-14:1");
  EXPECT_EQ(where(tests[0].selection), "4:5-4:17");
  EXPECT_EQ(tests[1].name, "TestContention");
}

TEST(TestsInFile, GoEdgeCases) {
  const char *src = "package x\n"
                    "import tt \"testing\"\n"
                    "var s = `func TestRaw(t *testing.T) {}`\n"
                    "func Testlower(t *testing.T) {}\n"
                    "func TestMain(m *tt.M) {}\n"
                    "func (s *S) TestMethod(t *tt.T) {}\n"
                    "func helper() { f := func(t *tt.T) {}; _ = f }\n"
                    "func Test(t *tt.T) { t.Run(\"}\", func(t *tt.T) {}) }\n"
                    "// π\n"
                    "func BenchmarkSpin(b *tt.B) {\n\tfor i := 0; i < b.N; i++ {}\n}\n";
  auto tests = find_tests(TestLanguage::go, src);
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0].name, "Test");
  EXPECT_EQ(where(tests[0].range), "7:0-7:51");
  EXPECT_EQ(tests[1].name, "BenchmarkSpin");
  EXPECT_EQ(tests[1].kind, FoundTest::Kind::go_benchmark);
  EXPECT_EQ(where(tests[1].range), "9:0-11:1");
}

TEST(TestsInFile, Utf16Columns) {
  // "é" is one UTF-16 unit, "😀" two.
  auto tests = find_tests(TestLanguage::go, "package x\n/*é😀*/ func TestA(t *testing.T) {}\n");
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_EQ(where(tests[0].selection), "1:13-1:18");
}

TEST(OutputDecoderText, SplitsAndRepairsUtf8) {
  OutputDecoder out;
  EXPECT_EQ(out.feed(0, "caf\xC3"), "caf"); // é split across reads
  EXPECT_EQ(out.feed(1, "err"), "err");     // the other stream is independent
  EXPECT_EQ(out.feed(0, "\xA9 ok\n"), "\xC3\xA9 ok\n");
  EXPECT_EQ(out.feed(0, "bad \xFF\xC0 x"), "bad \xEF\xBF\xBD\xEF\xBF\xBD x");
  EXPECT_EQ(out.feed(0, "\xF0\x9F"), "");
  EXPECT_EQ(out.finish(0), "\xEF\xBF\xBD");
  EXPECT_EQ(out.tail(), "caferr\xC3\xA9 ok\nbad \xEF\xBF\xBD\xEF\xBF\xBD x\xEF\xBF\xBD");
}

// What Vitest prints under CI=1: colors, a cursor move, a link (OSC 8) and a charset switch,
// with sequences split across reads; none reaches the text, the characters around them do.
TEST(OutputDecoderText, DropsTerminalEscapes) {
  OutputDecoder out;
  EXPECT_EQ(
      out.feed(0, "\x1B[2m      Tests \x1B[22m \x1B[1m\x1B[32m2 passed\x1B[39m\x1B[22m (2)\n"),
      "      Tests  2 passed (2)\n");
  EXPECT_EQ(out.feed(0, "a\x1B"), "a");
  EXPECT_EQ(out.feed(0, "[3"), "");
  EXPECT_EQ(out.feed(0, "8;5;1mred\x1B[0m \x1B[2K\x1B[1A"), "red ");
  EXPECT_EQ(out.feed(0, "\x1B]8;;file:///a.js\x07"
                        "a.js\x1B]8;;\x1B\\ \x1B(Bok"),
            "a.js ok");
  EXPECT_EQ(out.feed(1, "caf\xC3\x1B[0m"), "caf\xEF\xBF\xBD");
  EXPECT_EQ(out.feed(0, "\x1B]0;title never ended"), "");
  EXPECT_EQ(out.finish(0), ""); // an unfinished escape is dropped, not shown as U+FFFD
  // A sequence longer than any real one is cut, not held back without end.
  EXPECT_EQ(out.feed(1, "\x1B]" + std::string(5000, 'x') + "\x07z"),
            std::string(5000 - 4094, 'x') + "\x07z");
  EXPECT_EQ(out.tail().find('\x1B'), std::string::npos);
}

TEST(OutputDecoderText, TailKeepsTheEnd) {
  OutputDecoder out(16);
  for (int i = 0; i < 10; i++) out.feed(0, "line " + std::to_string(i) + "\n");
  EXPECT_LE(out.tail().size(), 24u);
  EXPECT_EQ(out.tail().substr(out.tail().size() - 7), "line 9\n");
}

} // namespace
} // namespace hotlines

namespace hotlines {

TEST(TestsInFile, JavaScriptTestsItsAndDescribes) {
  EXPECT_EQ(test_language("/w/shop/test/cart.test.ts"), TestLanguage::javascript);
  EXPECT_EQ(test_language("/w/shop/src/cart.spec.js"), TestLanguage::javascript);
  EXPECT_EQ(test_language("/w/shop/src/cart.ts"), TestLanguage::none);
  EXPECT_EQ(test_language("/w/shop/test/types.d.ts"), TestLanguage::none);
  const std::string text = "import { test } from 'node:test';\n"
                           "test(\"total is stable\", () => {\n"
                           "  x.test('not a test');\n"
                           "});\n"
                           "describe('receipt', () => {\n"
                           "  it.only(`has a line`, () => {});\n"
                           "  it(`dyn ${x}`, () => {});\n"
                           "});\n";
  std::vector<FoundTest> t = find_tests(TestLanguage::javascript, text);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].name, "total is stable");
  EXPECT_EQ(t[0].kind, FoundTest::Kind::node_test);
  EXPECT_EQ(t[0].range.start.line, 1);
  EXPECT_EQ(t[0].range.end.line, 3);
  EXPECT_EQ(t[1].name, "receipt");
  EXPECT_EQ(t[1].range.end.line, 7);
  EXPECT_EQ(t[2].name, "has a line");
  EXPECT_EQ(t[2].selection.start.character, 2);
  EXPECT_EQ(t[0].suite, "");
  EXPECT_EQ(t[1].suite, "");
  EXPECT_EQ(t[2].suite, "receipt");
}

// The suite of a test is the describe blocks around it, outermost first; a block that closed
// is not the suite of the next one.
TEST(TestsInFile, JavaScriptSuites) {
  const std::string text = "describe('cart', () => {\n"
                           "  describe('totals', () => {\n"
                           "    it('adds (tax)?', () => {});\n"
                           "  });\n"
                           "  test('empty', () => {});\n"
                           "});\n"
                           "it('alone', () => {});\n";
  std::vector<std::pair<std::string, std::string>> suites_and_names;
  for (const FoundTest &f : find_tests(TestLanguage::javascript, text))
    suites_and_names.emplace_back(f.suite, f.name);
  EXPECT_EQ(suites_and_names,
            (std::vector<std::pair<std::string, std::string>>{{"", "cart"},
                                                              {"cart", "totals"},
                                                              {"cart totals", "adds (tax)?"},
                                                              {"cart", "empty"},
                                                              {"", "alone"}}));
}

} // namespace hotlines
