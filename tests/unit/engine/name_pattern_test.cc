// Tests for NamePattern and the matching of patterns over a profile's names: substring and
// RE2 semantics, the errors for patterns RE2 rejects or that exceed kMaxLength, hostile
// patterns and names (no crash, no backtracking), and cancellation between names.
#include "query_test_util.h"
#include "server/engine/function_keys.h"
#include "server/engine/name_pattern.h"
#include "server/engine/view_filter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <numeric>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::string nested_groups(size_t depth) {
  return std::string(depth, '(') + "a" + std::string(depth, ')');
}

size_t count(const std::vector<uint8_t> &flags) {
  return static_cast<size_t>(std::accumulate(flags.begin(), flags.end(), 0));
}

TEST(NamePattern, SubstringAndRegex) {
  NamePattern plain("Pricing$Inner");
  EXPECT_TRUE(plain.ok());
  EXPECT_FALSE(plain.is_regex());
  EXPECT_TRUE(plain.matches("org.acme.Pricing$Inner.spin"));
  EXPECT_FALSE(plain.matches("org.acme.Pricing.spin"));

  NamePattern re("^org\\.acme\\.(Pricing|Cart)\\.[a-z]+$");
  EXPECT_TRUE(re.ok());
  EXPECT_TRUE(re.is_regex());
  EXPECT_TRUE(re.matches("org.acme.Cart.total"));
  EXPECT_FALSE(re.matches("org.acme.Cart.total2"));
  // A literal substring still counts for a pattern with operators.
  EXPECT_TRUE(NamePattern("Foo.bar(int)").matches("ns::Foo.bar(int) const"));
}

TEST(NamePattern, RejectedPatternsSayWhy) {
  NamePattern look("a(?=b)");
  EXPECT_FALSE(look.ok());
  EXPECT_EQ(look.error(),
            "bad pattern 'a(?=b)': invalid perl operator: (?= (patterns are RE2 syntax)");
  EXPECT_FALSE(look.matches("a(?=b)")); // an invalid pattern matches nothing

  NamePattern backref("(a)\\1");
  EXPECT_FALSE(backref.ok());
  EXPECT_NE(backref.error().find("invalid escape sequence: \\1"), std::string::npos);
}

TEST(NamePattern, ThirtyThousandNestedGroupsAreAnErrorNotACrash) {
  NamePattern deep(nested_groups(30000));
  EXPECT_FALSE(deep.ok());
  EXPECT_NE(deep.error().find("longer than 4096 bytes (60001)"), std::string::npos);
  EXPECT_EQ(deep.error().substr(0, 20), "bad pattern '(((((((");
  EXPECT_FALSE(deep.matches("a"));
  // Within the length bound, deep nesting compiles and matches.
  NamePattern within(nested_groups(2000));
  EXPECT_TRUE(within.ok()) << within.error();
  EXPECT_TRUE(within.matches("xay"));
  EXPECT_FALSE(within.matches("xy"));
}

TEST(NamePattern, LengthBound) {
  std::string at_bound(NamePattern::kMaxLength, 'x');
  EXPECT_TRUE(NamePattern(at_bound).ok());
  NamePattern over(at_bound + "x");
  EXPECT_FALSE(over.ok());
  EXPECT_NE(over.error().find("longer than 4096 bytes (4097)"), std::string::npos);
  EXPECT_FALSE(over.matches(at_bound + "x"));
}

TEST(NamePattern, ProgramBeyondMaxMemIsAnError) {
  std::string huge;
  while (huge.size() + 11 <= NamePattern::kMaxLength) huge += "[a-z]{1000}";
  NamePattern p(huge);
  EXPECT_FALSE(p.ok());
  EXPECT_NE(p.error().find("pattern too large"), std::string::npos) << p.error();
}

TEST(NamePattern, CatastrophicPatternOnALongNameIsLinear) {
  std::string name(100000, 'a');
  NamePattern p("^(.*.*.*)*#$");
  ASSERT_TRUE(p.ok()) << p.error();
  EXPECT_FALSE(p.matches(name));
  EXPECT_TRUE(p.matches(name + "#"));
}

TEST(NamePattern, CheckPatternsNamesTheFirstBadOne) {
  std::string error;
  EXPECT_TRUE(check_patterns({"main", "^pool-[0-9]+"}, &error));
  EXPECT_FALSE(check_patterns({"main", "x{1001}", "(?<n>a)"}, &error));
  EXPECT_EQ(error,
            "bad pattern 'x{1001}': invalid repetition size: {1001} (patterns are RE2 syntax)");
}

std::shared_ptr<const ProfileIndex> long_names_profile(size_t functions) {
  TestProfile t;
  for (size_t i = 0; i < functions; i++)
    t.sample("cpu", {t.native(std::to_string(i) + std::string(100000, 'a'))});
  return index_of(t);
}

TEST(NamePatternOverProfile, HostilePatternInAFilterIsAnErrorNotACrash) {
  auto idx = long_names_profile(2);
  View view;
  view.include = {nested_groups(30000)};
  SampleFilter filter;
  std::string error;
  EXPECT_FALSE(filter.compile(*idx, view, nullptr, &error));
  EXPECT_EQ(error.substr(0, 22), "include: bad pattern '");
  EXPECT_NE(error.find("longer than 4096 bytes"), std::string::npos);
}

TEST(NamePatternOverProfile, CatastrophicPatternOverLongNames) {
  auto idx = long_names_profile(3);
  const FunctionKeys &keys = idx->functions(FunctionGrouping::name);
  EXPECT_EQ(count(keys.match("^(.*.*.*)*#$")), 0u);
  EXPECT_EQ(count(keys.match("^1(.*.*.*)*a$")), 1u);

  View view;
  view.hide = {"^(.*.*.*)*#$"};
  SampleFilter filter;
  std::string error;
  EXPECT_TRUE(filter.compile(*idx, view, nullptr, &error)) << error;
}

TEST(NamePatternOverProfile, CancelledMatchStops) {
  auto idx = long_names_profile(50);
  const FunctionKeys &keys = idx->functions(FunctionGrouping::name);
  std::atomic<bool> cancel{false};
  EXPECT_EQ(count(keys.match("^[0-9]+(.*.*.*)*a$", &cancel)), 50u);
  cancel = true;
  EXPECT_EQ(count(keys.match("^[0-9]+(.*.*.*)*a$", &cancel)), 0u);

  View view;
  view.include = {"^(.*.*.*)*#$"};
  view.hide = {"^(.*.*.*)*#$"};
  SampleFilter filter;
  std::string error;
  EXPECT_FALSE(filter.compile(*idx, view, &cancel, &error));
  EXPECT_EQ(error, "cancelled");
}

TEST(NamePatternOverProfile, ThreadPatterns) {
  TestProfile t;
  FrameId a = t.native("a");
  t.sample("cpu", {a}, "pool-1-thread-1");
  t.sample("cpu", {a}, "main");
  auto idx = index_of(t);
  ThreadFilter tf;
  tf.patterns = {"^pool-[0-9]+-thread-[0-9]+$"};
  std::vector<uint8_t> ok = threads_matching(idx->profile(), tf);
  ASSERT_EQ(ok.size(), 2u);
  EXPECT_EQ(count(ok), 1u);
  std::atomic<bool> cancel{true};
  EXPECT_TRUE(threads_matching(idx->profile(), tf, &cancel).empty());

  View view;
  view.threads.patterns = {"(?P<x"};
  std::string error;
  EXPECT_FALSE(check_view_patterns(view, &error));
  EXPECT_EQ(error.substr(0, 22), "threads: bad pattern '");
}

} // namespace
