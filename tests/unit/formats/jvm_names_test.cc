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

// JDK 11-17, JDK 21 and the identity-hash form some producers write are one class.
TEST(JvmNames, LambdaClassesOfEveryJvmAreOneClass) {
  for (const char *recorded :
       {"org/acme/Foo$$Lambda$399/0x0000000800c1b840", "org/acme/Foo$$Lambda/0x000001f0a1b2c3d4",
        "org/acme/Foo$$Lambda.399573350", "org/acme/Foo$$Lambda$399.399573350"})
    EXPECT_EQ(normalize_jvm_class(recorded), "org/acme/Foo$$Lambda") << recorded;
  EXPECT_EQ(jvm_display_name("org/acme/Foo$$Lambda.399573350", "run"), "org.acme.Foo$$Lambda.run");
  // A whole dotted frame keeps its method.
  EXPECT_EQ(normalize_jvm_class("org.acme.Foo$$Lambda.399573350.run"), "org.acme.Foo$$Lambda.run");
  // Only digits make a hash: a nested or method name stays.
  EXPECT_EQ(normalize_jvm_class("org/acme/Foo$$Lambda.x1"), "org/acme/Foo$$Lambda.x1");
}

TEST(JvmNames, DottedHiddenClassesTakeTheInternalForm) {
  EXPECT_EQ(jvm_internal_class("java.util.stream.FindOps$$Lambda+0x00007f1eec007c30/1545242146"),
            "java/util/stream/FindOps$$Lambda");
  EXPECT_EQ(jvm_internal_class("java.util.stream.FindOps"), "java/util/stream/FindOps");
  EXPECT_EQ(jvm_internal_class("java/util/stream/FindOps$FindSink"),
            "java/util/stream/FindOps$FindSink");
  EXPECT_EQ(jvm_internal_class("Main"), "Main");
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

// async-profiler's dotted names (text output, `dot` style) take the collapsed output's form.
TEST(JvmNames, DottedFramesTakeTheSlashedForm) {
  EXPECT_EQ(slashed_jvm_frame("org.acme.shop.Pricing.cached"), "org/acme/shop/Pricing.cached");
  EXPECT_EQ(slashed_jvm_frame("org.acme.shop.Main$$Lambda$1.0x00007f126c000c30.run"),
            "org/acme/shop/Main$$Lambda$1.0x00007f126c000c30.run");
  EXPECT_EQ(slashed_jvm_frame("org.acme.Main$$Lambda/0x000001f0a1b2c3d4.run"),
            "org/acme/Main$$Lambda/0x000001f0a1b2c3d4.run");
  EXPECT_EQ(slashed_jvm_frame("java.lang.String.<init>"), "java/lang/String.<init>");
  EXPECT_EQ(slashed_jvm_frame("Main.main"), "Main.main");
  // Native names with dots, C++ and already slashed names are not JVM frames.
  for (const char *other :
       {"foo.cold", "finish_task_switch.isra.0", "Node::Node", "libmSin", "org/acme/Pricing.cached",
        "monitorexit Runtime1 stub", "a..b", "I2C/C2I adapters(0xab)", ".x", "0x1.run"})
    EXPECT_EQ(slashed_jvm_frame(other), "") << other;
}
