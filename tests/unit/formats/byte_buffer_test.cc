// ByteBuffer: bytes written survive growth by resize() and reserve(), shrink_to_fit() trims the
// capacity to the size (to nothing when empty) and keeps the bytes, a mapped buffer shrinks in
// place (mremap: the address stays, nothing is copied), copies are exact and independent, and a
// moved-from buffer is empty. (ASan's realloc copies: there the address is not checked.)
#include "formats/byte_buffer.h"

#include "formats/malloc_policy.h"

#include <gtest/gtest.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOTLINES_ASAN 1
#endif
#endif
#ifdef __SANITIZE_ADDRESS__
#define HOTLINES_ASAN 1
#endif

namespace hotlines {
namespace {

uint8_t byte_at(size_t i) {
  return static_cast<uint8_t>(i * 2654435761u >> 13);
}

void fill(ByteBuffer &b, size_t from) {
  for (size_t i = from; i < b.size(); i++) b.data()[i] = byte_at(i);
}

void expect_bytes(const ByteBuffer &b) {
  for (size_t i = 0; i < b.size(); i++) ASSERT_EQ(b.data()[i], byte_at(i)) << i;
}

TEST(ByteBuffer, BytesSurviveGrowthAndShrinking) {
  ByteBuffer b;
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.capacity(), 0u);
  size_t n = 0;
  for (size_t step : {size_t{1}, size_t{100}, size_t{5000}, size_t{3} << 20, size_t{7}}) {
    b.resize(n + step);
    fill(b, n);
    n += step;
    ASSERT_EQ(b.size(), n);
    ASSERT_GE(b.capacity(), n);
  }
  b.reserve(n + (size_t{8} << 20));
  EXPECT_GE(b.capacity(), n + (size_t{8} << 20));
  EXPECT_EQ(b.size(), n);
  expect_bytes(b);
  b.shrink_to_fit();
  EXPECT_EQ(b.capacity(), n);
  expect_bytes(b);
  b.resize(10); // down: the first bytes stay
  b.shrink_to_fit();
  EXPECT_EQ(b.capacity(), 10u);
  expect_bytes(b);
  b.resize(0);
  b.shrink_to_fit();
  EXPECT_EQ(b.capacity(), 0u);
  EXPECT_EQ(b.data(), nullptr);
}

TEST(ByteBuffer, AMappedBufferShrinksInPlace) {
  set_malloc_policy(); // as main() does: 1 MiB and more are mappings of their own
  ByteBuffer b;
  b.reserve(size_t{64} << 20);
  b.resize(size_t{40} << 20);
  fill(b, 0);
  const uintptr_t at = reinterpret_cast<uintptr_t>(b.data());
  b.shrink_to_fit();
#ifndef HOTLINES_ASAN                                   // ASan's realloc always copies
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()), at); // mremap shrinks where it is: no copy
#else
  (void)at;
#endif
  EXPECT_EQ(b.capacity(), size_t{40} << 20);
  expect_bytes(b);
}

TEST(ByteBuffer, CopiesAreExactAndIndependent) {
  ByteBuffer a;
  a.reserve(1000);
  a.resize(300);
  fill(a, 0);
  ByteBuffer c(a);
  EXPECT_EQ(c.size(), 300u);
  EXPECT_EQ(c.capacity(), 300u);
  expect_bytes(c);
  c.data()[0] ^= 0xff;
  EXPECT_EQ(a.data()[0], byte_at(0));
  ByteBuffer d;
  d = a;
  expect_bytes(d);
  ByteBuffer e(std::move(d));
  EXPECT_EQ(d.size(), 0u);
  EXPECT_EQ(d.data(), nullptr);
  EXPECT_EQ(e.size(), 300u);
  expect_bytes(e);
  ByteBuffer empty, copy(empty);
  EXPECT_EQ(copy.data(), nullptr);
}

} // namespace
} // namespace hotlines
