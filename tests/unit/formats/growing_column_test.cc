// GrowingColumn: appends across many growths read back in order, take() hands over exactly
// what was appended (capacity included) and empties the column, a moved column keeps its
// elements, and a column whose mapping was split (where mremap cannot grow it) still grows.
#include "formats/growing_column.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include <sys/mman.h>

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

// How many of the process's mappings (VMAs) hold a byte of [at, at + bytes).
int mappings_over(const void *at, size_t bytes) {
  const uintptr_t lo = reinterpret_cast<uintptr_t>(at), hi = lo + bytes;
  std::ifstream maps("/proc/self/maps");
  int n = 0;
  for (std::string line; std::getline(maps, line);) {
    const uintptr_t b = std::stoull(line, nullptr, 16),
                    e = std::stoull(line.substr(line.find('-') + 1), nullptr, 16);
    n += b < hi && e > lo;
  }
  return n;
}

// A madvise over part of a mapping splits it (advise_huge on an unaligned column did): mremap
// then fails, and the column grows by a copy instead of throwing bad_alloc.
TEST(GrowingColumn, GrowsWhenItsMappingIsSplit) {
  constexpr size_t kFull = size_t{1} << 20; // 4 MiB of 4-byte elements: the next append grows it
  for (int advice : {MADV_NOHUGEPAGE, MADV_RANDOM}) {
    GrowingColumn<uint32_t> c;
    for (size_t i = 0; i < kFull; i++) c.push_back(static_cast<uint32_t>(i * 2654435761u));
    char *at = reinterpret_cast<char *>(&c[0]);
    ASSERT_EQ(madvise(at + 16 * 4096, 4096, advice), 0);
    for (size_t i = kFull; i < 3 * kFull; i++) c.push_back(static_cast<uint32_t>(i * 2654435761u));
    ASSERT_EQ(c.size(), 3 * kFull);
    for (size_t i = 0; i < c.size(); i++)
      ASSERT_EQ(c[i], static_cast<uint32_t>(i * 2654435761u)) << i;
    // Its new mapping is advised whole: one mapping, which mremap grows again.
    EXPECT_EQ(mappings_over(&c[0], c.size() * sizeof(uint32_t)), 1);
  }
}

} // namespace
} // namespace hotlines
