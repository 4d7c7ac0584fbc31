// Frame -> source rules on hand-built trees: multi-module Maven layouts, Kotlin file facades
// (FooKt and @file:JvmName), nested/anonymous/lambda classes, package-line and declaration
// fallbacks, library classes; recorded paths with Windows separators and case, /proc/self/cwd,
// Go modules, remaps, external toolchain paths, ties and inferred prefixes; the file ->
// functions inverse.
#include "server/engine/file_keys.h"
#include "server/sources/profile_resolution.h"
#include "source_test_util.h"

#include <gtest/gtest.h>

namespace hotlines {
namespace {

using test::index_roots;
using test::resolve_profile;
using test::SourceProfile;
using test::TempTree;

const char *kCart = "package com.acme.shop;\n"                     // 1
                    "\n"                                           // 2
                    "public class Cart {\n"                        // 3
                    "    public long checkout() {\n"               // 4
                    "        Runnable r = () -> total();\n"        // 5
                    "        new Thread(new Runnable() {\n"        // 6
                    "            public void run() { total(); }\n" // 7
                    "        }).start();\n"                        // 8
                    "        return total();\n"                    // 9
                    "    }\n"                                      // 10
                    "    long total() { return 1; }\n"             // 11
                    "    static class Line {\n"                    // 12
                    "        long price(int n) {\n"                // 13
                    "            return n * 2;\n"                  // 14
                    "        }\n"                                  // 15
                    "    }\n"                                      // 16
                    "}\n";                                         // 17
const char *kInvoice = "package com.acme.billing;\n"
                       "\n"
                       "public class Invoice {\n"
                       "    public Invoice() {}\n"
                       "    public long total() { return 0; }\n"
                       "}\n";
const char *kPrices = "package com.acme.shop\n"         // 1
                      "\n"                              // 2
                      "fun discount(p: Long): Long {\n" // 3
                      "    return p / 2\n"              // 4
                      "}\n"                             // 5
                      "class Receipt {\n"               // 6
                      "    fun print() {}\n"            // 7
                      "}\n";                            // 8
const char *kOld = "package com.acme.legacy;\n"
                   "class Old {\n"
                   "  void run() {}\n"
                   "}\n";

class MavenTree : public ::testing::Test {
protected:
  void SetUp() override {
    t.write("pom.xml", "<project/>\n");
    cart = t.write("shop/src/main/java/com/acme/shop/Cart.java", kCart);
    prices = t.write("shop/src/main/kotlin/com/acme/shop/Prices.kt", kPrices);
    t.write("shop/target/classes/com/acme/shop/Cart.java", kCart); // skipped
    invoice = t.write("billing/src/main/java/com/acme/billing/Invoice.java", kInvoice);
    t.write("billing/src/test/java/com/acme/billing/InvoiceTest.java",
            "package com.acme.billing;\nclass InvoiceTest {}\n");
    old = t.write("legacy-src/Old.java", kOld);
  }
  TempTree t;
  std::string cart, prices, invoice, old;
};

TEST_F(MavenTree, JvmRules) {
  SourceProfile sp;
  FunctionId total = sp.java("com/acme/billing/Invoice", "total");
  FunctionId init = sp.java("com/acme/billing/Invoice", "<init>");
  FunctionId price = sp.java("com/acme/shop/Cart$Line", "price");
  FunctionId anon = sp.java("com/acme/shop/Cart$1", "run");
  FunctionId hidden = sp.java("com/acme/shop/Cart$$Lambda$14.0x0000000801001234", "run");
  FunctionId lambda = sp.java("com/acme/shop/Cart", "lambda$checkout$0");
  FunctionId facade = sp.java("com/acme/shop/PricesKt", "discount");
  FunctionId receipt = sp.java("com/acme/shop/Receipt", "print");
  FunctionId legacy = sp.java("com/acme/legacy/Old", "run");
  FunctionId thread = sp.java("java/lang/Thread", "run");
  FunctionId spring = sp.java("org/springframework/web/Handler", "handle");
  FunctionId missing = sp.java("com/acme/billing/Refund", "apply");
  FunctionId payments = sp.java("com/acme/payments/Gateway", "pay");
  FunctionId memcpy = sp.native("__memmove_avx_unaligned_erms");
  sp.sample({sp.frame(thread), sp.frame(lambda, 5), sp.frame(total, 5)});
  auto ix = index_roots({t.path()});
  auto res = resolve_profile(sp.finish(), ix);
  ASSERT_TRUE(res);

  const Resolution &r = res->of(total);
  EXPECT_EQ(r.status, ResolutionStatus::resolved);
  EXPECT_EQ(r.rule, kRuleJvmClass);
  EXPECT_EQ(r.path, invoice);
  EXPECT_EQ(r.line, 5);
  EXPECT_EQ(r.line_from, "declaration");
  EXPECT_EQ(r.recorded, "com/acme/billing/Invoice");
  EXPECT_FALSE(r.tie);
  EXPECT_EQ(res->of(init).line, 4);

  EXPECT_EQ(res->of(price).path, cart);
  EXPECT_EQ(res->of(price).line, 13);
  EXPECT_EQ(res->of(anon).path, cart);
  EXPECT_EQ(res->of(anon).line, 7);
  EXPECT_EQ(res->of(hidden).path, cart);
  EXPECT_EQ(res->of(hidden).rule, kRuleJvmClass);
  EXPECT_EQ(res->of(lambda).path, cart);
  EXPECT_EQ(res->of(lambda).line, 4);

  EXPECT_EQ(res->of(facade).rule, kRuleKotlinFacade);
  EXPECT_EQ(res->of(facade).path, prices);
  EXPECT_EQ(res->of(facade).line, 3);
  EXPECT_EQ(res->of(receipt).rule, kRuleJvmDeclaration);
  EXPECT_EQ(res->of(receipt).path, prices);
  EXPECT_EQ(res->of(receipt).line, 7);
  EXPECT_EQ(res->of(legacy).rule, kRuleJvmPackageLine);
  EXPECT_EQ(res->of(legacy).path, old);
  EXPECT_EQ(res->of(legacy).line, 3);

  EXPECT_EQ(res->of(thread).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(thread).rule, kRuleJvmLibrary);
  EXPECT_EQ(res->of(thread).reason, "JDK or library class (no source root has java.lang)");
  EXPECT_EQ(res->of(spring).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(spring).reason, "no source root has package org.springframework.web");
  EXPECT_EQ(res->of(missing).status, ResolutionStatus::unresolved);
  EXPECT_EQ(res->of(missing).rule, kRuleUnmatchedClass);
  EXPECT_EQ(res->of(missing).reason,
            "no Refund.{java,kt,scala,groovy} declares com.acme.billing.Refund");
  EXPECT_EQ(res->of(payments).status, ResolutionStatus::unresolved);
  EXPECT_EQ(res->of(payments).reason, "no source root has package com.acme.payments, though "
                                      "other com.acme packages resolve (a missing source root?)");
  EXPECT_EQ(res->of(memcpy).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(memcpy).rule, kRuleNoSource);
  EXPECT_TRUE(res->of(memcpy).path.empty());

  EXPECT_EQ(res->count(ResolutionStatus::resolved), 9u);
  EXPECT_EQ(res->count(ResolutionStatus::unresolved), 2u);
  EXPECT_EQ(res->count(ResolutionStatus::external), 3u);
  EXPECT_TRUE(res->ties().empty());
}

TEST_F(MavenTree, FileToFunctionsInverse) {
  SourceProfile sp;
  FunctionId checkout = sp.java("com/acme/shop/Cart", "checkout");
  FunctionId price = sp.java("com/acme/shop/Cart$Line", "price");
  FunctionId facade = sp.java("com/acme/shop/PricesKt", "discount");
  FunctionId receipt = sp.java("com/acme/shop/Receipt", "print");
  FrameId f1 = sp.frame(checkout, 9), f2 = sp.frame(price, 14), f3 = sp.frame(price, 13);
  FrameId f4 = sp.frame(facade, 4), f5 = sp.frame(receipt);
  sp.sample({f1, f2});
  sp.sample({f1, f3, f4, f5});
  auto ix = index_roots({t.path()});
  auto res = resolve_profile(sp.finish(), ix);
  ASSERT_TRUE(res);
  EXPECT_EQ(res->files(), (std::vector<std::string>{cart, prices}));
  std::span<const FunctionId> in_cart = res->functions_in(cart);
  EXPECT_EQ(std::vector<FunctionId>(in_cart.begin(), in_cart.end()),
            (std::vector<FunctionId>{checkout, price}));
  std::span<const FrameId> frames = res->frames_in(cart);
  EXPECT_EQ(std::vector<FrameId>(frames.begin(), frames.end()), (std::vector<FrameId>{f1, f2, f3}));
  std::span<const std::string> keys = res->recorded_files_in(cart);
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.end()),
            std::vector<std::string>{"com/acme/shop/Cart.java"});
  keys = res->recorded_files_in(prices);
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.end()),
            (std::vector<std::string>{"com/acme/shop/Prices.kt", "com/acme/shop/Receipt.java"}));
  EXPECT_EQ(res->line_of_frame(f5), 7); // no frame line: the declaration's
  EXPECT_EQ(res->line_of_frame(f2), 14);
  EXPECT_TRUE(res->functions_in(invoice).empty());
  EXPECT_TRUE(res->functions_in("/nowhere/Cart.java").empty());
  // Through a symlink to the workspace: the same file.
  t.link("alias", t.path("shop"));
  EXPECT_EQ(res->functions_in(t.path("alias/src/main/java/com/acme/shop/Cart.java")).size(), 2u);
  EXPECT_EQ(res->functions_in(t.path("shop/src/main/java/com/acme/shop/../shop/Cart.java")).size(),
            2u);
}

TEST_F(MavenTree, DuplicateClassesTieOnSharedFolders) {
  // A second module with its own copy of Cart: the copy next to the other resolved files wins.
  std::string copy = t.write("archive/src/main/java/com/acme/shop/Cart.java", kCart);
  t.write("archive/src/main/java/com/acme/shop/Stock.java",
          "package com.acme.shop;\nclass Stock {}\n");
  SourceProfile sp;
  FunctionId cart_fn = sp.java("com/acme/shop/Cart", "total");
  FunctionId stock = sp.java("com/acme/shop/Stock", "count");
  sp.sample({sp.frame(stock), sp.frame(cart_fn)});
  auto ix = index_roots({t.path()});
  auto res = resolve_profile(sp.finish(), ix);
  EXPECT_EQ(res->of(cart_fn).path, copy);
  EXPECT_TRUE(res->of(cart_fn).tie);
  ASSERT_EQ(res->ties().size(), 1u);
  EXPECT_EQ(res->ties()[0].recorded, "com/acme/shop/Cart");
  EXPECT_EQ(res->ties()[0].chosen, copy);
  EXPECT_EQ(res->ties()[0].candidates, (std::vector<std::string>{copy, cart}));
  EXPECT_EQ(res->ties()[0].functions, 1u);
}

TEST(KotlinFacades, JvmNameAndFileFacadesResolveToTheirKotlinFiles) {
  TempTree t;
  // Util.kt sits outside its package's folders: its package line says where it belongs.
  std::string util = t.write("app/src/main/kotlin/Util.kt",
                             "/* Copyright */\n"                           // 1
                             "@file:JvmName(\"Bar\")\n"                    // 2
                             "package org.acme\n"                          // 3
                             "\n"                                          // 4
                             "fun work(n: Int): Int {\n"                   // 5
                             "    return listOf(n).map { it * 2 }.sum()\n" // 6
                             "}\n");                                       // 7
  std::string foo = t.write("app/src/main/kotlin/org/acme/Foo.kt",
                            "package org.acme\n"     // 1
                            "\n"                     // 2
                            "fun main() {\n"         // 3
                            "    println(work(2))\n" // 4
                            "}\n");                  // 5
  SourceProfile sp;
  FunctionId work = sp.java("org/acme/Bar", "work");
  FunctionId work_lambda = sp.java("org/acme/Bar$work$1", "invoke");
  FunctionId main = sp.java("org/acme/FooKt", "main");
  FrameId w = sp.frame(work, 6), wl = sp.frame(work_lambda, 6), m = sp.frame(main, 4);
  sp.sample({m, w, wl});
  std::shared_ptr<const Profile> p = sp.finish();
  auto res = resolve_profile(p, index_roots({t.path()}));
  ASSERT_TRUE(res);

  EXPECT_EQ(res->of(work).status, ResolutionStatus::resolved);
  EXPECT_EQ(res->of(work).rule, kRuleKotlinJvmName);
  EXPECT_EQ(res->of(work).path, util);
  EXPECT_EQ(res->of(work).line, 5); // declaration of fun work
  EXPECT_EQ(res->of(work_lambda).path, util);
  EXPECT_EQ(res->of(main).rule, kRuleKotlinFacade);
  EXPECT_EQ(res->of(main).path, foo);
  EXPECT_EQ(res->of(main).line, 3);

  // File annotations: the recorded keys of each .kt file, with a resolution and without.
  using Keys = std::vector<std::string>;
  LineKeys lk(*p);
  EXPECT_EQ(recorded_keys_for_path(res.get(), lk, util), Keys{"org/acme/Bar.java"});
  EXPECT_EQ(recorded_keys_for_path(res.get(), lk, foo), Keys{"org/acme/Foo.kt"});
  EXPECT_EQ(recorded_keys_for_path(nullptr, lk, foo), Keys{"org/acme/Foo.kt"});
  std::span<const FrameId> in_util = res->frames_in(util);
  EXPECT_EQ(std::vector<FrameId>(in_util.begin(), in_util.end()), (std::vector<FrameId>{w, wl}));
}

TEST(SourcePaths, WindowsRecordedPathsMatchIgnoringCase) {
  TempTree t;
  std::string shop =
      t.write("go-shop/internal/shop/shop.go", "package shop\n\nfunc Checkout() {}\n");
  SourceProfile sp;
  FunctionId win = sp.path("example.com/go-shop/internal/shop.Checkout",
                           "C:\\Build\\GO-SHOP\\Internal\\Shop\\Shop.go");
  sp.sample({sp.frame(win, 3)});
  auto res = resolve_profile(sp.finish(), index_roots({t.path()}));
  EXPECT_EQ(res->of(win).status, ResolutionStatus::resolved);
  EXPECT_EQ(res->of(win).rule, kRulePathSuffix);
  EXPECT_EQ(res->of(win).path, shop);
  EXPECT_FALSE(res->of(win).tie);

  // Recorded on POSIX, a path differing only by case is another file.
  SourceProfile posix;
  FunctionId p = posix.path("example.com/go-shop/internal/shop.Checkout",
                            "/build/go-shop/Internal/Shop/Shop.go");
  posix.sample({posix.frame(p, 3)});
  auto res2 = resolve_profile(posix.finish(), index_roots({t.path()}));
  EXPECT_EQ(res2->of(p).status, ResolutionStatus::unresolved);
  EXPECT_EQ(res2->of(p).rule, kRuleUnmatchedPath);
  EXPECT_TRUE(res2->of(p).path.empty());

  // Several files matching ignoring case: the one matching in exact case wins, no tie.
  std::string exact = t.write("mirror/Internal/Shop/Shop.go", "package shop\n");
  SourceProfile again;
  FunctionId a = again.path("Checkout", "C:\\Build\\Internal\\Shop\\Shop.go");
  again.sample({again.frame(a, 3)});
  auto res3 = resolve_profile(again.finish(), index_roots({t.path()}));
  EXPECT_EQ(res3->of(a).rule, kRulePathSuffix);
  EXPECT_EQ(res3->of(a).path, exact);
  EXPECT_FALSE(res3->of(a).tie);
}

TEST(SourcePaths, PathRules) {
  TempTree t;
  std::string core = t.write("native/src/engine/core.c");
  std::string util = t.write("native/src/engine/util.c");
  std::string header = t.write("native/include/engine.h");
  t.write("svc/go.mod", "module example.com/svc\n");
  std::string db = t.write("svc/internal/db/db.go", "package db\n\nfunc Query() {}\n");
  std::string top = t.write("top.c");
  SourceProfile sp;
  FunctionId win = sp.path("core_run", "C:\\agent\\_work\\1\\s\\src\\engine\\core.c");
  FunctionId cwd = sp.path("util_sum", "/proc/self/cwd/src/engine/util.c");
  FunctionId rel = sp.path("top", "top.c");
  FunctionId trimmed =
      sp.path("example.com/svc/internal/db.Query", "example.com/svc/internal/db/db.go");
  FunctionId modcache = sp.path("example.com/svc/internal/db.Query2",
                                "/root/go/pkg/mod/example.com/svc@v1.2.0/internal/db/db.go");
  FunctionId remapped = sp.path("engine_init", "/build/x/hdr/engine.h");
  FunctionId libc = sp.path("printf", "/usr/include/stdio.h");
  FunctionId goroot = sp.path("runtime.mallocgc", "/usr/local/go/src/runtime/malloc.go");
  FunctionId stdlib = sp.path("strings.Repeat", "/opt/sdk/go1.19/src/strings/strings.go");
  FunctionId dep = sp.path("github.com/lib/pq.(*conn).query", "github.com/lib/pq/conn.go");
  FunctionId nowhere = sp.path("lost", "/home/ci/proj/lost/lost.c");
  FunctionId byname = sp.path("example.com/svc/internal/db.Query3", "/tmp/elsewhere/db.go");
  sp.sample({sp.frame(win)});
  ResolverOptions o;
  o.remaps = {{"/build/nothing", "/nope"}, {"/build/x/hdr", t.path("native/include")}};
  auto res = resolve_profile(sp.finish(), index_roots({t.path()}), o);

  EXPECT_EQ(res->of(win).rule, kRulePathSuffix);
  EXPECT_EQ(res->of(win).path, core);
  EXPECT_EQ(res->of(cwd).rule, kRulePathSuffix);
  EXPECT_EQ(res->of(cwd).path, util);
  EXPECT_EQ(res->of(rel).rule, kRuleRootRelative);
  EXPECT_EQ(res->of(rel).path, top);
  EXPECT_EQ(res->of(trimmed).rule, kRuleGoModule);
  EXPECT_EQ(res->of(trimmed).path, db);
  EXPECT_EQ(res->of(trimmed).line, 3); // scanned: func Query
  EXPECT_EQ(res->of(modcache).rule, kRuleGoModule);
  EXPECT_EQ(res->of(modcache).path, db);
  EXPECT_EQ(res->of(byname).rule, kRuleGoModule);
  EXPECT_EQ(res->of(byname).path, db);
  EXPECT_EQ(res->of(remapped).rule, kRuleRemap);
  EXPECT_EQ(res->of(remapped).path, header);
  EXPECT_EQ(res->of(libc).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(libc).rule, kRuleExternalPath);
  EXPECT_EQ(res->of(libc).reason, "system or toolchain path under /usr");
  EXPECT_EQ(res->of(goroot).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(stdlib).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(stdlib).reason, "Go standard library");
  EXPECT_EQ(res->of(dep).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(dep).reason, "module path github.com/... of a dependency");
  EXPECT_EQ(res->of(nowhere).status, ResolutionStatus::unresolved);
  EXPECT_EQ(res->of(nowhere).rule, kRuleUnmatchedPath);
  EXPECT_EQ(res->of(nowhere).reason, "no workspace file ends with lost/lost.c");
}

TEST(SourcePaths, WindowsPathsAndRemaps) {
  TempTree t;
  std::string a = t.write("checkout/lib/a.cc");
  SourceProfile sp;
  FunctionId f = sp.path("a", "D:\\ci\\work\\lib\\a.cc");
  FunctionId g = sp.path("b", "D:/ci/work/lib/b.cc"); // no such file
  ResolverOptions o;
  o.remaps = {{"D:\\ci\\work", t.path("checkout")}};
  auto res = resolve_profile(sp.finish(), index_roots({t.path()}), o);
  EXPECT_EQ(res->of(f).rule, kRuleRemap);
  EXPECT_EQ(res->of(f).path, a);
  EXPECT_EQ(res->of(g).status, ResolutionStatus::unresolved);
  EXPECT_EQ(res->of(g).reason, "no workspace file ends with lib/b.cc; remap D:\\ci\\work -> " +
                                   t.path("checkout") + " gives " + t.path("checkout/lib/b.cc") +
                                   ", which does not exist");
}

TEST(SourcePaths, DuplicateSuffixTieAndInferredPrefix) {
  TempTree t;
  std::string main_c = t.write("app/src/main.c");
  std::string mine = t.write("app/src/util/strings.c");
  std::string theirs = t.write("copy/src/util/strings.c");
  std::string flat = t.write("app/version.c");
  SourceProfile sp;
  FunctionId m = sp.path("main", "/build/app/src/main.c");
  FunctionId s = sp.path("str_dup", "/ci/src/util/strings.c");
  FunctionId v = sp.path("version", "/build/app/version.c");
  FunctionId w = sp.path("where", "/build/app/where.c");
  sp.sample({sp.frame(m), sp.frame(s)});
  auto res = resolve_profile(sp.finish(), index_roots({t.path("app"), t.path("copy")}));
  EXPECT_EQ(res->of(m).rule, kRulePathSuffix);
  EXPECT_EQ(res->of(s).path, mine);
  EXPECT_TRUE(res->of(s).tie);
  ASSERT_EQ(res->ties().size(), 1u);
  EXPECT_EQ(res->ties()[0].candidates, (std::vector<std::string>{mine, theirs}));
  EXPECT_EQ(res->of(v).rule, kRulePathSuffix); // app/version.c: two components
  EXPECT_EQ(res->of(v).path, flat);
  EXPECT_EQ(res->of(w).status, ResolutionStatus::unresolved);

  // /build/ckout/src/main.c resolves by suffix (src/main.c); /build/ckout/version.c only
  // by basename, but under the learned prefix /build/ckout -> <app>.
  SourceProfile sp2;
  FunctionId m2 = sp2.path("main", "/build/ckout/src/main.c");
  FunctionId v2 = sp2.path("version", "/build/ckout/version.c");
  auto res2 = resolve_profile(sp2.finish(), index_roots({t.path("app")}));
  EXPECT_EQ(res2->of(m2).path, main_c);
  EXPECT_EQ(res2->of(v2).rule, kRuleInferredPrefix);
  EXPECT_EQ(res2->of(v2).path, flat);
}

} // namespace
} // namespace hotlines

namespace hotlines {

// V8 profiles' paths: a TypeScript source (mapped from its compiled .js) resolves exactly;
// node: built-ins and node_modules packages are external, unless a source root is inside the
// package (asked for).
TEST(SourcePaths, NodeBuiltinsAndPackagesAreExternal) {
  TempTree t;
  std::string ts = t.write("shop/src/pricing.ts", "export function discount() {}\n");
  std::string pkg = t.write("shop/node_modules/left-pad/index.js", "module.exports = 1;\n");
  SourceProfile sp;
  FunctionId mine = sp.path("discount (pricing.ts:1)", ts);
  FunctionId builtin = sp.path("Module._load (node:internal/modules/cjs/loader:1000)",
                               "node:internal/modules/cjs/loader");
  FunctionId dep = sp.path("leftPad (index.js:1)", pkg);
  sp.sample({sp.frame(builtin), sp.frame(dep), sp.frame(mine, 1)});
  std::shared_ptr<const Profile> p = sp.finish();
  auto res = resolve_profile(p, index_roots({t.path()}));
  EXPECT_EQ(res->of(mine).status, ResolutionStatus::resolved);
  EXPECT_EQ(res->of(mine).rule, kRuleExact);
  EXPECT_EQ(res->of(builtin).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(builtin).reason, "Node.js built-in module");
  EXPECT_EQ(res->of(dep).status, ResolutionStatus::external);
  EXPECT_EQ(res->of(dep).reason, "npm package (node_modules)");
  auto asked = resolve_profile(p, index_roots({t.path(), t.path("shop/node_modules/left-pad")}));
  EXPECT_EQ(asked->of(dep).status, ResolutionStatus::resolved);
  EXPECT_EQ(asked->of(dep).path, pkg);
}

} // namespace hotlines
