// huge_pages.h: huge_capacity's rounding, allocate_huge's alignment from one huge page up, and a
// HugeVector that grows past a huge page one element at a time keeps its elements, on a buffer
// aligned to a huge page.
#include "formats/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace hotlines {
namespace {

bool huge_aligned(const void *p) {
  return reinterpret_cast<uintptr_t>(p) % kHugePage == 0;
}

TEST(HugePages, CapacityRoundsUpFromOneHugePage) {
  EXPECT_EQ(huge_capacity(0), 0u);
  EXPECT_EQ(huge_capacity(1), 1u);
  EXPECT_EQ(huge_capacity(kHugePage - 1), kHugePage - 1);
  EXPECT_EQ(huge_capacity(kHugePage), kHugePage);
  EXPECT_EQ(huge_capacity(kHugePage + 1), 2 * kHugePage);
  EXPECT_EQ(huge_capacity(5 * kHugePage - 7), 5 * kHugePage);
}

TEST(HugePages, AllocateAlignsFromOneHugePageAndGivesItsWholeCapacity) {
  for (size_t bytes : {size_t{0}, size_t{100}, kHugePage, 3 * kHugePage + 5}) {
    SCOPED_TRACE(bytes);
    void *p = allocate_huge(bytes);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(bytes < kHugePage || huge_aligned(p));
    std::memset(p, 0xab, std::max<size_t>(huge_capacity(bytes), 1)); // every byte is ours
    EXPECT_EQ(static_cast<unsigned char *>(p)[std::max<size_t>(huge_capacity(bytes), 1) - 1], 0xab);
    std::free(p);
  }
}

TEST(HugePages, AHugeVectorGrowsOneElementAtATime) {
  HugeVector<uint64_t> v;
  const size_t n = 3 * kHugePage / sizeof(uint64_t) + 11; // past three huge pages
  for (size_t i = 0; i < n; i++) {
    v.push_back(i * 0x9E3779B97F4A7C15ull);
    ASSERT_TRUE(v.capacity() * sizeof(uint64_t) < kHugePage || huge_aligned(v.data())) << i;
  }
  ASSERT_EQ(v.size(), n);
  for (size_t i = 0; i < n; i++) ASSERT_EQ(v[i], i * 0x9E3779B97F4A7C15ull) << i;
  HugeVector<uint64_t> w = v; // copies through the same allocator
  EXPECT_EQ(w, v);
  v.clear();
  v.shrink_to_fit();
  EXPECT_EQ(v.capacity(), 0u);
}

} // namespace
} // namespace hotlines
