// Tests for the heat words of self-only profiles (async-profiler's flat list): lenses and
// hover text give the self weight and say the total is unavailable, never a total of 0.
#include "server/lsp/annotation_text.h"

#include <gtest/gtest.h>

using namespace hotlines;

TEST(AnnotationText, SelfOnlyProfilesShowNoTotal) {
  HeatText t;
  t.event = "cpu";
  t.unit = "nanoseconds";
  t.view_total = {1513, 3042861728};
  const Weight self{750, 1506323000}, total{0, 0};
  EXPECT_EQ(function_title(t, self, {1000, 2000000000}),
            "cpu 65.7% total \u00B7 49.5% self \u00B7 1,000 samples");
  t.self_only = true;
  EXPECT_EQ(function_title(t, self, total),
            "cpu 49.5% self \u00B7 750 samples (total unavailable)");
  EXPECT_EQ(self_total_text(t, self, total),
            "self 49.5% (750 samples, 1.51 s) \u00B7 total unavailable");
  // A line below the threshold still shows its self share, not "↳ 0% total".
  EXPECT_EQ(line_label(t, {1, 1000000}, total, 0.0, 1.0).find("total"), std::string::npos);
}
