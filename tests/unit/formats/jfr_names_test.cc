// JVM class name normalisation for the spellings JFR producers record for hidden and lambda
// classes: async-profiler's `$$Lambda$1.0x…`, the JDK recorder's dotted
// `$$Lambda$89+0x…/<hash>` and `LambdaForm$MH+0x…/<hash>`, JDK 21's `$$Lambda/0x…`.
#include "formats/jvm_names.h"

#include <gtest/gtest.h>

using namespace hotlines;

TEST(JfrNames, JdkRecorderHiddenClassSpellings) {
  EXPECT_EQ(jvm_display_name("org.acme.shop.Main$$Lambda$89+0x00007f9b40007c30/1616974404", "run"),
            "org.acme.shop.Main$$Lambda.run");
  EXPECT_EQ(
      jvm_display_name("java.lang.invoke.LambdaForm$MH+0x00007f9b40009000/27319466", "invoke"),
      "java.lang.invoke.LambdaForm$MH.invoke");
  EXPECT_EQ(jvm_display_name("org/acme/Main$$Lambda/0x0000000801001400", "run"),
            "org.acme.Main$$Lambda.run");
  EXPECT_EQ(jvm_display_name("org/acme/shop/Main$$Lambda$1.0x00007f5e50000c30", "run"),
            "org.acme.shop.Main$$Lambda.run");
}

TEST(JfrNames, OrdinaryNamesAreUntouched) {
  // Digits after a slash are a package name unless they follow a hidden-class address.
  EXPECT_EQ(normalize_jvm_class("org/v2/Main"), "org/v2/Main");
  EXPECT_EQ(normalize_jvm_class("a/b/1234"), "a/b/1234");
  EXPECT_EQ(normalize_jvm_class("org/acme/Pricing$Inner"), "org/acme/Pricing$Inner");
  EXPECT_EQ(normalize_jvm_class("libjvm.so"), "libjvm.so");
  EXPECT_EQ(normalize_jvm_class(""), "");
}
