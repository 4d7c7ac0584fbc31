// GrowingColumn: appends across many growths read back in order, take() hands over exactly
// what was appended (capacity included) and empties the column, and a moved column keeps its
// elements.
#include "formats/growing_column.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace hotlines {
namespace {

TEST(GrowingColumn, TakeHandsOverExactlyWhatWasAppended) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{16383}, size_t{16384}, size_t{3000001}}) {
    SCOPED_TRACE(n);
    GrowingColumn<uint32_t> c;
    for (size_t i = 0; i < n; i++) c.push_back(static_cast<uint32_t>(i * 2654435761u));
    ASSERT_EQ(c.size(), n);
    for (size_t i = 0; i < n; i += 997) ASSERT_EQ(c[i], static_cast<uint32_t>(i * 2654435761u));
    std::vector<uint32_t> v = c.take();
    ASSERT_EQ(v.size(), n);
    EXPECT_EQ(v.capacity(), n);
    for (size_t i = 0; i < n; i++) ASSERT_EQ(v[i], static_cast<uint32_t>(i * 2654435761u)) << i;
    EXPECT_EQ(c.size(), 0u);
    c.push_back(7); // usable again
    EXPECT_EQ(c.take(), std::vector<uint32_t>{7});
  }
}

TEST(GrowingColumn, AMovedColumnKeepsItsElements) {
  GrowingColumn<uint64_t> a;
  for (uint64_t i = 0; i < 100000; i++) a.push_back(i * i);
  GrowingColumn<uint64_t> b(std::move(a));
  EXPECT_EQ(a.size(), 0u);
  ASSERT_EQ(b.size(), 100000u);
  GrowingColumn<uint64_t> c;
  c.push_back(1);
  c = std::move(b);
  ASSERT_EQ(c.size(), 100000u);
  b.push_back(5);
  std::vector<uint64_t> v = c.take();
  EXPECT_EQ(v[99999], 99999ull * 99999ull);
  EXPECT_EQ(b.take(), std::vector<uint64_t>{5});
}

} // namespace
} // namespace hotlines
