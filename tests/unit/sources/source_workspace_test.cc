// WorkspaceIndex (walk, skipped folders, suffix and folder lookups, case-insensitive suffix
// lookups, symlinks, file events, go.mod modules, Kotlin @file:JvmName), the recorded-path
// helpers and the declaration scanner.
#include "server/sources/source_path.h"
#include "server/sources/source_scan.h"
#include "server/sources/workspace_index.h"
#include "source_test_util.h"

#include <gtest/gtest.h>

namespace hotlines {
namespace {

using test::index_roots;
using test::TempTree;

std::vector<std::string> paths(const WorkspaceIndex &ix, const std::vector<WorkspaceFileId> &ids) {
  std::vector<std::string> out;
  for (WorkspaceFileId id : ids) out.push_back(ix.path(id));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> suffix(const WorkspaceIndex &ix, const std::string &path,
                                size_t *matched) {
  std::vector<std::string_view> comps = path_components(path);
  return paths(ix, ix.longest_suffix(comps, matched));
}

std::vector<std::string> suffix_ignoring_case(const WorkspaceIndex &ix, const std::string &path,
                                              size_t *matched) {
  std::vector<std::string_view> comps = path_components(path);
  return paths(ix, ix.longest_suffix_ignoring_case(comps, matched));
}

TEST(SourcePath, CleansRecordedPaths) {
  CleanPath w = clean_recorded_path("C:\\Users\\dev\\shop\\src\\Main.java");
  EXPECT_EQ(w.path, "/Users/dev/shop/src/Main.java");
  EXPECT_TRUE(w.absolute);
  EXPECT_TRUE(w.had_drive);
  CleanPath u = clean_recorded_path("file:///D:/work/a/b.go");
  EXPECT_EQ(u.path, "/work/a/b.go");
  EXPECT_TRUE(u.had_drive);
  CleanPath cwd = clean_recorded_path("/proc/self/cwd/src/net/./io/../conn.cc");
  EXPECT_EQ(cwd.path, "src/net/conn.cc");
  EXPECT_FALSE(cwd.absolute);
  EXPECT_TRUE(cwd.from_proc_cwd);
  EXPECT_EQ(clean_recorded_path("//build//x/../y.c").path, "/build/y.c");
  EXPECT_EQ(clean_recorded_path("rel\\dir\\f.c").path, "rel/dir/f.c");
  EXPECT_TRUE(w.windows);
  EXPECT_TRUE(u.windows);
  EXPECT_TRUE(clean_recorded_path("rel\\dir\\f.c").windows);
  EXPECT_FALSE(cwd.windows);
  EXPECT_FALSE(clean_recorded_path("/Build/GO-SHOP/a.go").windows);
}

TEST(SourcePath, RemapsOnComponentBoundaries) {
  std::string out;
  EXPECT_TRUE(
      apply_remap(clean_recorded_path("/build/proj/src/a.c"), {"/build/proj", "/ws"}, &out));
  EXPECT_EQ(out, "/ws/src/a.c");
  EXPECT_FALSE(
      apply_remap(clean_recorded_path("/build/project/a.c"), {"/build/proj", "/ws"}, &out));
  EXPECT_TRUE(
      apply_remap(clean_recorded_path("C:\\ci\\agent\\src\\a.c"), {"C:\\ci\\agent", "/ws"}, &out));
  EXPECT_EQ(out, "/ws/src/a.c");
  PathRemap r;
  EXPECT_TRUE(parse_remap("/a=/b/c", &r));
  EXPECT_EQ(r.from, "/a");
  EXPECT_EQ(r.to, "/b/c");
  EXPECT_FALSE(parse_remap("=/b", &r));
  EXPECT_FALSE(parse_remap("/a", &r));
  EXPECT_EQ(leading_path("/a/b/c", 2), "/a/b");
  EXPECT_EQ(leading_path("a/b/c", 1), "a");
  EXPECT_EQ(normal_absolute_path("x/../y", "/w"), "/w/y");
}

TEST(WorkspaceIndex, IndexesAndSkipsDefaultFolders) {
  TempTree t;
  t.write("src/main/java/org/acme/A.java");
  t.write("src/main/java/org/acme/B.java");
  t.write("target/classes/org/acme/A.java");
  t.write("build/gen/x.c");
  t.write(".git/HEAD");
  t.write("node_modules/m/index.js");
  t.write("web/out/o.js");
  t.write("lib/bin/tool.sh");
  t.write("README.md");
  auto ix = index_roots({t.path()});
  EXPECT_EQ(ix->size(), 3u);
  EXPECT_TRUE(ix->find(t.path("src/main/java/org/acme/A.java")));
  EXPECT_FALSE(ix->find(t.path("target/classes/org/acme/A.java")));
  EXPECT_EQ(ix->dirs_walked(), 8u); // root src main java org acme web lib
  size_t matched = 0;
  EXPECT_EQ(suffix(*ix, "/elsewhere/org/acme/A.java", &matched),
            std::vector<std::string>{t.path("src/main/java/org/acme/A.java")});
  EXPECT_EQ(matched, 3u);
  EXPECT_EQ(suffix(*ix, "/x/y/B.java", &matched).size(), 1u);
  EXPECT_EQ(matched, 1u);
  EXPECT_TRUE(suffix(*ix, "/x/Nope.java", &matched).empty());
  EXPECT_EQ(matched, 0u);

  WorkspaceOptions keep_target;
  keep_target.skip_dirs = {".git"};
  auto all = index_roots({t.path()}, keep_target);
  EXPECT_EQ(all->size(), 8u);
  EXPECT_EQ(suffix(*all, "/o/org/acme/A.java", &matched).size(), 2u);
}

TEST(WorkspaceIndex, FolderSuffixLookups) {
  TempTree t;
  t.write("a/src/main/kotlin/org/acme/util/Strings.kt");
  t.write("a/src/main/kotlin/org/acme/util/Numbers.kt");
  t.write("b/src/org/acme/Other.kt");
  auto ix = index_roots({t.path()});
  std::vector<std::string_view> pkg = {"org", "acme", "util"};
  EXPECT_EQ(paths(*ix, ix->in_dirs_ending_with(pkg)),
            (std::vector<std::string>{t.path("a/src/main/kotlin/org/acme/util/Numbers.kt"),
                                      t.path("a/src/main/kotlin/org/acme/util/Strings.kt")}));
  EXPECT_TRUE(ix->has_dir_ending_with(pkg));
  std::vector<std::string_view> acme = {"org", "acme"};
  EXPECT_EQ(paths(*ix, ix->in_dirs_ending_with(acme)),
            std::vector<std::string>{t.path("b/src/org/acme/Other.kt")});
  std::vector<std::string_view> none = {"com", "acme"};
  EXPECT_FALSE(ix->has_dir_ending_with(none));
}

TEST(WorkspaceIndex, SuffixLookupsIgnoringCase) {
  TempTree t;
  std::string lower = t.write("a/internal/shop/shop.go");
  std::string upper = t.write("b/Internal/Shop/Shop.go");
  t.write("c/other/Shop.go");
  auto ix = index_roots({t.path()});
  size_t matched = 0;
  // The most components ignoring case, then the most in exact case.
  EXPECT_EQ(suffix_ignoring_case(*ix, "/Build/GO-SHOP/Internal/Shop/Shop.go", &matched),
            std::vector<std::string>{upper});
  EXPECT_EQ(matched, 3u);
  EXPECT_EQ(suffix_ignoring_case(*ix, "/x/internal/shop/shop.go", &matched),
            std::vector<std::string>{lower});
  EXPECT_EQ(suffix_ignoring_case(*ix, "/X/INTERNAL/SHOP/SHOP.GO", &matched),
            (std::vector<std::string>{lower, upper}));
  EXPECT_EQ(matched, 3u);
  EXPECT_TRUE(suffix_ignoring_case(*ix, "/x/nowhere.go", &matched).empty());
  EXPECT_EQ(matched, 0u);
  // The exact lookup is unchanged.
  EXPECT_TRUE(suffix(*ix, "/X/INTERNAL/SHOP/SHOP.GO", &matched).empty());
  EXPECT_EQ(matched, 0u);
}

TEST(WorkspaceIndex, KotlinJvmNamesFollowFileEvents) {
  TempTree t;
  std::string util = t.write("src/Util.kt", "@file:JvmName(\"Bar\")\npackage org.acme\n");
  t.write("src/org/acme/Foo.kt", "package org.acme\nfun main() {}\n");
  t.write("src/org/acme/Bar.java", "@file:JvmName(\"Nope\")\n"); // Java: not read
  auto ix = index_roots({t.path()});
  EXPECT_EQ(paths(*ix, ix->kotlin_jvm_name_files("org/acme/Bar")), std::vector<std::string>{util});
  EXPECT_TRUE(ix->kotlin_jvm_name_files("org/acme/Nope").empty());
  EXPECT_TRUE(ix->kotlin_jvm_name_files("org/acme/FooKt").empty());
  std::string extra = t.write("src/more/Extra.kt", "@file:JvmName(\"Bar\")\npackage org.acme\n");
  EXPECT_TRUE(ix->add_file(extra));
  EXPECT_EQ(paths(*ix, ix->kotlin_jvm_name_files("org/acme/Bar")),
            (std::vector<std::string>{util, extra}));
  EXPECT_TRUE(ix->remove_path(util));
  EXPECT_EQ(paths(*ix, ix->kotlin_jvm_name_files("org/acme/Bar")), std::vector<std::string>{extra});
  EXPECT_TRUE(ix->remove_path(t.path("src/more")));
  EXPECT_TRUE(ix->kotlin_jvm_name_files("org/acme/Bar").empty());
}

TEST(SourceScan, KotlinJvmNameHeader) {
  EXPECT_EQ(kotlin_jvm_name("@file:JvmName(\"Bar\")\npackage org.acme\n\nfun work() {}\n"),
            "org/acme/Bar");
  EXPECT_EQ(kotlin_jvm_name("/*\n * Licensed under ...\n */\n"
                            "@file:Suppress(\"unused\")\n"
                            "@file:kotlin.jvm.JvmName( name = \"Baz\" )\r\n"
                            "\n"
                            "package org.acme.util;\n"),
            "org/acme/util/Baz");
  EXPECT_EQ(
      kotlin_jvm_name("\xEF\xBB\xBF@file:[JvmName(\"Multi\") JvmMultifileClass]\npackage a.b\n"),
      "a/b/Multi");
  EXPECT_EQ(kotlin_jvm_name("@file:JvmName(\"Top\")\n\nfun main() {}\n"), "Top");
  // Not a file annotation: after the package line, commented out, or absent.
  EXPECT_EQ(kotlin_jvm_name("package org.acme\n@file:JvmName(\"Late\")\n"), "");
  EXPECT_EQ(kotlin_jvm_name("// @file:JvmName(\"Gone\")\npackage org.acme\n"), "");
  EXPECT_EQ(kotlin_jvm_name("@file:Suppress(\"JvmName\")\npackage org.acme\n"), "");
  EXPECT_EQ(kotlin_jvm_name("package org.acme\n\nfun main() {}\n"), "");
}

TEST(WorkspaceIndex, SymlinkedRootsAndLoops) {
  TempTree t;
  t.write("real/proj/src/app/main.go", "package app\n");
  t.link("ws/proj", t.path("real/proj"));                // the root itself is a link
  t.link("real/proj/src/app/loop", t.path("real/proj")); // a loop back up
  t.link("real/proj/src/again", "app");                  // a second way into the same folder
  auto ix = index_roots({t.path("ws/proj")});
  EXPECT_EQ(ix->size(), 1u);
  EXPECT_EQ(ix->path(ix->all_files()[0]), t.path("ws/proj/src/app/main.go"));
  EXPECT_EQ(ix->roots()[0], t.path("ws/proj"));
}

TEST(WorkspaceIndex, NestedRootsIndexFilesOnce) {
  TempTree t;
  t.write("src/a.c");
  t.write("lib/b.c");
  auto ix = index_roots({t.path(), t.path("src")});
  EXPECT_EQ(ix->size(), 2u);
}

TEST(WorkspaceIndex, FileEventsKeepItCurrent) {
  TempTree t;
  t.write("src/a.c");
  auto ix = index_roots({t.path()});
  uint64_t g = ix->generation();
  std::string b = t.write("src/sub/b.c");
  EXPECT_TRUE(ix->add_file(b));
  EXPECT_FALSE(ix->add_file(b)); // already there
  EXPECT_GT(ix->generation(), g);
  EXPECT_TRUE(ix->find(b));
  size_t matched = 0;
  EXPECT_EQ(suffix(*ix, "/x/sub/b.c", &matched), std::vector<std::string>{b});
  EXPECT_EQ(matched, 2u);
  EXPECT_FALSE(ix->add_file(t.write("target/c.c"))); // skipped folder
  EXPECT_FALSE(ix->add_file("/not/under/a/root.c"));
  t.write("newdir/x/one.c");
  t.write("newdir/x/two.c");
  EXPECT_TRUE(ix->add_file(t.path("newdir")));
  EXPECT_EQ(ix->size(), 4u);
  EXPECT_TRUE(ix->remove_path(t.path("newdir")));
  EXPECT_EQ(ix->size(), 2u);
  EXPECT_TRUE(ix->remove_path(b));
  EXPECT_FALSE(ix->find(b));
  EXPECT_TRUE(suffix(*ix, "/x/sub/b.c", &matched).empty());
  EXPECT_FALSE(ix->remove_path(b));
  EXPECT_EQ(ix->size(), 1u);

  // Copy, mutate, swap: the shared snapshot does not change.
  WorkspaceIndex copy = *ix;
  EXPECT_TRUE(copy.add_file(b));
  EXPECT_TRUE(copy.find(b));
  EXPECT_FALSE(ix->find(b));
  EXPECT_EQ(copy.size(), 2u);
  EXPECT_EQ(ix->size(), 1u);
}

TEST(WorkspaceIndex, GoModules) {
  TempTree t;
  t.write("svc/go.mod", "// comment\nmodule example.com/svc // trailing\n\ngo 1.21\n");
  t.write("svc/tools/go.mod", "module \"example.com/svc/tools\"\n");
  t.write("other/go.mod", "go 1.20\n");
  auto ix = index_roots({t.path()});
  ASSERT_EQ(ix->go_modules().size(), 2u);
  EXPECT_EQ(ix->go_modules()[0].path, "example.com/svc/tools");
  EXPECT_EQ(ix->go_modules()[0].dir, t.path("svc/tools"));
  EXPECT_EQ(ix->go_modules()[1].path, "example.com/svc");
  EXPECT_EQ(ix->go_modules()[1].dir, t.path("svc"));
  EXPECT_TRUE(ix->remove_path(t.path("svc/tools/go.mod")));
  EXPECT_EQ(ix->go_modules().size(), 1u);
}

TEST(SourceScan, JavaDeclarations) {
  std::string java = "package org.acme.shop;\n"                                    // 1
                     "\n"                                                          // 2
                     "/* Pricing(int) is not\n"                                    // 3
                     "   a declaration */\n"                                       // 4
                     "public class Pricing {\n"                                    // 5
                     "    public Pricing() { init(); }\n"                          // 6
                     "    public double discount(int n) {\n"                       // 7
                     "        return helper(n) + Math.sin(n);\n"                   // 8
                     "    }\n"                                                     // 9
                     "    static class Inner {\n"                                  // 10
                     "        static long spin(long n) {\n"                        // 11
                     "            if (n > 0) { spin(n - 1); }\n"                   // 12
                     "            Runnable r = () -> discount(1);\n"               // 13
                     "            return n;\n"                                     // 14
                     "        }\n"                                                 // 15
                     "        double discount(int n) { return 0; }\n"              // 16
                     "    }\n"                                                     // 17
                     "    // void commented(int x) {\n"                            // 18
                     "    private <T> List<T> generic(T t) throws IOException {\n" // 19
                     "    }\n"                                                     // 20
                     "}\n";
  SourceScan s = scan_source(java, "java");
  EXPECT_EQ(s.package, "org.acme.shop");
  EXPECT_EQ(s.functions.at("discount"), (std::vector<int32_t>{7, 16}));
  EXPECT_EQ(s.functions.at("spin"), std::vector<int32_t>{11});
  EXPECT_EQ(s.functions.at("Pricing"), std::vector<int32_t>{6});
  EXPECT_EQ(s.functions.at("generic"), std::vector<int32_t>{19});
  EXPECT_EQ(s.functions.count("helper"), 0u);
  EXPECT_EQ(s.functions.count("commented"), 0u);
  EXPECT_EQ(s.functions.count("sin"), 0u);
  EXPECT_EQ(s.types.at("Pricing"), std::vector<int32_t>{5});
  EXPECT_EQ(s.types.at("Inner"), std::vector<int32_t>{10});

  std::vector<std::string_view> none, inner = {"Inner"}, anon = {"1"}, lambda = {"", "Lambda"};
  EXPECT_EQ(jvm_method_line(s, "Pricing", none, "discount"), 7);
  EXPECT_EQ(jvm_method_line(s, "Pricing", inner, "discount"), 16);
  EXPECT_EQ(jvm_method_line(s, "Pricing", inner, "spin"), 11);
  EXPECT_EQ(jvm_method_line(s, "Pricing", none, "<init>"), 6);
  EXPECT_EQ(jvm_method_line(s, "Pricing", inner, "<init>"), 10);
  EXPECT_EQ(jvm_method_line(s, "Pricing", none, "<clinit>"), 5);
  EXPECT_EQ(jvm_method_line(s, "Pricing", anon, "discount"), 7);
  EXPECT_EQ(jvm_method_line(s, "Pricing", none, "lambda$spin$0"), 11);
  EXPECT_EQ(jvm_method_line(s, "Pricing", lambda, "run"), 0);
  EXPECT_EQ(jvm_method_line(s, "Pricing", none, "missing"), 0);
}

TEST(SourceScan, KotlinScalaGoDeclarations) {
  std::string kt = "package org.acme.util\n"
                   "\n"
                   "fun main(args: Array<String>) {\n"
                   "    listOf(1).map { it + 1 }\n"
                   "}\n"
                   "internal fun <T> List<T>.second(): T = this[1]\n"
                   "data class Point(val x: Int)\n"
                   "object Registry {\n"
                   "    fun `weird name`() {}\n"
                   "}\n";
  SourceScan k = scan_source(kt, "kt");
  EXPECT_EQ(k.package, "org.acme.util");
  EXPECT_EQ(k.functions.at("main"), std::vector<int32_t>{3});
  EXPECT_EQ(k.functions.at("second"), std::vector<int32_t>{6});
  EXPECT_EQ(k.functions.at("weird name"), std::vector<int32_t>{9});
  EXPECT_EQ(k.types.at("Point"), std::vector<int32_t>{7});
  EXPECT_EQ(k.types.at("Registry"), std::vector<int32_t>{8});
  std::vector<std::string_view> lambda = {"main", "1"};
  EXPECT_EQ(jvm_method_line(k, "StringsKt", lambda, "invoke"), 3);
  std::vector<std::string_view> none;
  EXPECT_EQ(jvm_method_line(k, "StringsKt", none, "main$lambda$0"), 3);

  SourceScan sc =
      scan_source("package a.b\nobject Main {\n  def run(n: Int): Int = n\n}\n", "scala");
  EXPECT_EQ(sc.package, "a.b");
  EXPECT_EQ(sc.functions.at("run"), std::vector<int32_t>{3});

  std::string go = "package shop\n"
                   "\n"
                   "func Discount(n int) float64 {\n"
                   "\treturn 0\n"
                   "}\n"
                   "type spinner struct{}\n"
                   "func (s *spinner) Spin(n int) {}\n"
                   "func (t tree[K]) Spin() {}\n";
  SourceScan g = scan_source(go, "go");
  EXPECT_EQ(g.package, "shop");
  EXPECT_EQ(go_function_line(g, "example.com/gows/internal/shop.Discount"), 3);
  EXPECT_EQ(go_function_line(g, "example.com/gows/internal/shop.Discount.func1"), 3);
  EXPECT_EQ(go_function_line(g, "example.com/gows/internal/shop.(*spinner).Spin"), 7);
  EXPECT_EQ(go_function_line(g, "example.com/gows/internal/shop.tree[...].Spin"), 8);
  EXPECT_EQ(go_function_line(g, "shop.Missing"), 0);
}

// Code lenses and hovers place a function at its declaration nearest above its first profiled
// line, through the same scan resolution uses.
TEST(SourceScan, DeclarationAbove) {
  std::string java = "package org.acme.shop;\n"              // 1
                     "public class Pricing {\n"              // 2
                     "    public Pricing() {\n"              // 3
                     "        init();\n"                     // 4
                     "    }\n"                               // 5
                     "    double discount(int n) {\n"        // 6
                     "        return discount(n, 2);\n"      // 7
                     "    }\n"                               // 8
                     "    double discount(int n, int k) {\n" // 9
                     "        Runnable r = () -> spin(k);\n" // 10
                     "        return n * k;\n"               // 11
                     "    }\n"                               // 12
                     "    // double discount(long n) {\n"    // 13
                     "    void later() { discount(1); }\n"   // 14
                     "}\n";
  SourceScan s = scan_source(java, "java");
  EXPECT_FALSE(s.go);
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.discount", 7), 6);
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.discount", 11), 9); // the overload
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.discount(II)D", 10), 9);
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.lambda$discount$0", 10), 9);
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.<init>", 4), 3);
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.discount", 5), 0); // none above
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.discount", 14), 9);
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.discount", 9 + kDeclarationReach), 9);
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.discount", 10 + kDeclarationReach), 0);
  EXPECT_EQ(declaration_above(s, "org.acme.shop.Pricing.missing", 14), 0);

  std::vector<std::string> go = {"package shop",               // 1
                                 "func Spin(n int) {",         // 2
                                 "\tgo func() { Spin(n) }()",  // 3
                                 "}",                          // 4
                                 "func (s *spinner) Spin() {", // 5
                                 "\ts.n++",                    // 6
                                 "}"};                         // 7
  SourceScan g = scan_source(std::span<const std::string>(go), extension_of("/w/shop/spin.go"));
  EXPECT_TRUE(g.go);
  EXPECT_EQ(declaration_above(g, "example.com/shop.Spin", 3), 2);
  EXPECT_EQ(declaration_above(g, "example.com/shop.Spin.func1", 3), 2);
  EXPECT_EQ(declaration_above(g, "example.com/shop.(*spinner).Spin", 6), 5);
  EXPECT_EQ(declaration_above(g, "example.com/shop.(*spinner).Spin", 3), 0);
}

} // namespace
} // namespace hotlines
