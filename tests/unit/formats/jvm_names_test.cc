// Tests for JVM name display and hidden/lambda class normalisation.
#include "formats/jvm_names.h"

#include <gtest/gtest.h>

using namespace hotlines;

TEST(JvmNames, DisplayNameIsDotted) {
  EXPECT_EQ(jvm_display_name("org/acme/shop/Pricing$Inner", "spin"),
            "org.acme.shop.Pricing$Inner.spin");
  EXPECT_EQ(jvm_display_name("", "clone3"), "clone3");
}

TEST(JvmNames, HiddenClassesAreNormalised) {
  EXPECT_EQ(jvm_display_name("org/acme/shop/Main$$Lambda$1.0x00007f4d30000c30", "run"),
            "org.acme.shop.Main$$Lambda.run");
  EXPECT_EQ(normalize_jvm_class("org/acme/Main$$Lambda$14+0x0000000801001400"),
            "org/acme/Main$$Lambda");
  EXPECT_EQ(normalize_jvm_class("org/acme/Main$$Lambda/0x0000000801001400"),
            "org/acme/Main$$Lambda");
  EXPECT_EQ(normalize_jvm_class("java/lang/invoke/LambdaForm$MH.0x00007f6ba4007c00"),
            "java/lang/invoke/LambdaForm$MH");
  EXPECT_EQ(normalize_jvm_class("org/acme/Pricing$1"), "org/acme/Pricing$1");
}

TEST(JvmNames, SplitsCollapsedJavaFrames) {
  std::string_view c, m;
  ASSERT_TRUE(split_jvm_frame("org/acme/shop/Pricing.discount", &c, &m));
  EXPECT_EQ(c, "org/acme/shop/Pricing");
  EXPECT_EQ(m, "discount");
  ASSERT_TRUE(split_jvm_frame("org/acme/shop/Main$$Lambda$1.0x00007f6ba4000c30.run", &c, &m));
  EXPECT_EQ(c, "org/acme/shop/Main$$Lambda$1.0x00007f6ba4000c30");
  EXPECT_EQ(m, "run");
  ASSERT_TRUE(split_jvm_frame("java/lang/Object.<init>", &c, &m));
  EXPECT_FALSE(split_jvm_frame("Thread::call_run", &c, &m));
  EXPECT_FALSE(split_jvm_frame("/usr/lib/libc.so.6", &c, &m));
  EXPECT_FALSE(split_jvm_frame("monitorenter Runtime1 stub", &c, &m));
  EXPECT_FALSE(split_jvm_frame("clone3", &c, &m));
}
