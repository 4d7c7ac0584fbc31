// Recorded file keys: Kotlin file facades keyed by their .kt file, and workspace paths and
// file names matched to keys recorded on Windows ignoring case (POSIX keys stay exact).
#include "server/engine/file_keys.h"
#include "server/engine/line_keys.h"
#include "test_profile.h"

#include <gtest/gtest.h>

namespace hotlines {
namespace {

using Keys = std::vector<std::string>;

TEST(FileKeys, KotlinFacadesAreKeyedByTheirKtFile) {
  test::TestProfile t;
  FrameId main = t.java("org/acme/FooKt", "main", 3);
  FrameId lambda = t.java("org/acme/FooKt$main$1", "invoke", 4);
  FrameId part = t.java("org/acme/Bar__UtilKt", "work", 7);
  FrameId renamed = t.java("org/acme/Bar", "work", 5); // @file:JvmName("Bar"): unknown here
  FrameId plain = t.java("org/acme/Kt", "run", 1);
  t.sample("cpu", {main, lambda, part, renamed, plain});
  std::shared_ptr<const Profile> p = t.finish();
  auto key = [&](FrameId f) { return recorded_file_key(*p, p->functions[p->frames[f].function]); };
  EXPECT_EQ(key(main), "org/acme/Foo.kt");
  EXPECT_EQ(key(lambda), "org/acme/Foo.kt");
  EXPECT_EQ(key(part), "org/acme/Util.kt");
  EXPECT_EQ(key(renamed), "org/acme/Bar.java");
  EXPECT_EQ(key(plain), "org/acme/Kt.java");
  EXPECT_EQ(kotlin_facade_file("FooKt"), "Foo.kt");
  EXPECT_EQ(kotlin_facade_file("Foo"), "");
  EXPECT_EQ(kotlin_facade_file("__Kt"), "");

  // Both FooKt frames share one file key, so the .kt file's lines are one table, found by
  // the workspace path (no resolution needed) and by the file's name.
  LineKeys lk(*p);
  uint32_t foo = lk.find_file("org/acme/Foo.kt");
  ASSERT_NE(foo, kNoKey);
  EXPECT_EQ(lk.lines_of_file(foo).size(), 2u);
  EXPECT_EQ(file_keys_for_path(lk, "/ws/src/main/kotlin/org/acme/Foo.kt"), Keys{"org/acme/Foo.kt"});
  EXPECT_EQ(recorded_keys_named(lk, "Foo.kt"), Keys{"org/acme/Foo.kt"});
  EXPECT_EQ(recorded_keys_named(lk, "FooKt.java"), Keys{});
}

TEST(FileKeys, WindowsRecordedKeysMatchIgnoringCase) {
  test::TestProfile t;
  const std::string win = "C:\\Build\\GO-SHOP\\Internal\\Shop\\Shop.go";
  const std::string posix = "/build/go-shop/Internal/Cart/Cart.go";
  t.sample("cpu", {t.path("shop.Checkout", win, 12), t.path("cart.Add", posix, 5)});
  std::shared_ptr<const Profile> p = t.finish();
  LineKeys lk(*p);
  EXPECT_TRUE(looks_windows_recorded(win));
  EXPECT_TRUE(looks_windows_recorded("d:/ci/a.go"));
  EXPECT_TRUE(looks_windows_recorded("src\\a.go"));
  EXPECT_FALSE(looks_windows_recorded(posix));

  EXPECT_EQ(file_keys_for_path(lk, "/home/me/go-shop/internal/shop/shop.go"), Keys{win});
  EXPECT_EQ(common_trailing_components("/home/me/go-shop/internal/shop/shop.go", win), 4u);
  EXPECT_EQ(recorded_keys_named(lk, "shop/shop.go"), Keys{win});
  // A POSIX key differing only by case is another file.
  EXPECT_EQ(file_keys_for_path(lk, "/home/me/go-shop/internal/cart/cart.go"), Keys{});
  EXPECT_EQ(recorded_keys_named(lk, "cart/cart.go"), Keys{});
  EXPECT_EQ(file_keys_for_path(lk, "/home/me/go-shop/Internal/Cart/Cart.go"), Keys{posix});
}

TEST(FileKeys, ExactCaseWinsAmongWindowsKeys) {
  // The same file recorded in two spellings: the one spelled like the workspace path wins.
  test::TestProfile t;
  const std::string upper = "C:\\src\\Shop\\Shop.go", lower = "c:\\src\\shop\\shop.go";
  t.sample("cpu", {t.path("a", upper, 1), t.path("b", lower, 2)});
  std::shared_ptr<const Profile> p = t.finish();
  LineKeys lk(*p);
  EXPECT_EQ(file_keys_for_path(lk, "/ws/src/shop/shop.go"), Keys{lower});
  EXPECT_EQ(file_keys_for_path(lk, "/ws/src/Shop/Shop.go"), Keys{upper});
  EXPECT_EQ(recorded_keys_named(lk, "Shop.go"), Keys{upper});
  EXPECT_EQ(recorded_keys_named(lk, "SHOP.GO"), (Keys{upper, lower}));
}

} // namespace
} // namespace hotlines
