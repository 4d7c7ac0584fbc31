// SampleKey: what the pprof and OTLP writers merge samples by (stack, thread, label set), with
// its hash. Plain value type; thread-safe.
#pragma once

#include "formats/profile.h"

#include <cstddef>
#include <cstdint>

namespace hotlines {

struct SampleKey {
  StackId stack;
  ThreadId thread;
  uint32_t labels;
  bool operator==(const SampleKey &) const = default;
};

struct SampleKeyHash {
  size_t operator()(const SampleKey &k) const {
    uint64_t h = (static_cast<uint64_t>(k.stack) << 32 | k.thread) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h ^ (h >> 29) ^ k.labels * 0xC2B2AE3D27D4EB4Full);
  }
};

} // namespace hotlines
