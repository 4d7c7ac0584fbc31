// annotations_result: the fileAnnotations lines of a file's heat, and with a baseline the
// change of each line's self share in the measure the session shows.
#include "server/lsp/annotations.h"

#include <gtest/gtest.h>

#include <memory>

namespace hotlines {
namespace {

// Allocation heat where count and value shares differ: line 23 holds 10 of 100 samples but
// 4,000 of 10,000 bytes now; in the baseline 20 of 100 samples and 1,000 of 10,000 bytes.
FileHeat alloc_heat() {
  auto base = std::make_shared<FileHeat>();
  base->event = "alloc";
  base->unit = "bytes";
  base->view_total = {100, 10000};
  base->lines = {{23, {20, 1000}, {20, 1000}}};
  FileHeat now;
  now.event = "alloc";
  now.unit = "bytes";
  now.view_total = {100, 10000};
  now.lines = {{22, {5, 500}, {5, 500}}, {23, {10, 4000}, {10, 4000}}};
  now.max_self = 4000;
  now.baseline = base;
  return now;
}

TEST(AnnotationsResult, BaselineDeltaFollowsTheMeasure) {
  FileHeat heat = alloc_heat();
  FileAnnotationsResult by_value = annotations_result(heat, nullptr, true);
  ASSERT_EQ(by_value.lines.size(), 2u);
  EXPECT_EQ(by_value.lines[1].line, 23);
  EXPECT_DOUBLE_EQ(by_value.lines[1].delta, 40.0 - 10.0); // bytes: 40% now, 10% before
  EXPECT_DOUBLE_EQ(by_value.lines[0].delta, 5.0);         // line 22 is new
  FileAnnotationsResult by_count = annotations_result(heat, nullptr, false);
  EXPECT_DOUBLE_EQ(by_count.lines[1].delta, 10.0 - 20.0); // samples: 10% now, 20% before
  EXPECT_DOUBLE_EQ(by_count.lines[0].delta, 5.0);
  EXPECT_DOUBLE_EQ(by_count.lines[1].heat, 1.0); // heat stays relative to the hottest line
}

TEST(AnnotationsResult, NoBaselineNoDelta) {
  FileHeat heat = alloc_heat();
  heat.baseline = nullptr;
  FileAnnotationsResult r = annotations_result(heat, nullptr, true);
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_FALSE(r.lines[0].has_baseline);
  EXPECT_DOUBLE_EQ(r.lines[0].heat, 500.0 / 4000.0);
  EXPECT_EQ(r.event, "alloc");
  EXPECT_EQ(r.total.value, 10000);
}

} // namespace
} // namespace hotlines
