// JFR chunk headers: the 68-byte header every chunk starts with (magic `FLR\0`, version,
// sizes and offsets, start time, ticks, feature flags) and the walk that splits a file into
// its chunks. A file is one or more chunks back to back (recordings may be concatenated);
// a chunk that runs past the end of the data is reported as truncated. Pure functions.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

struct JfrChunkHeader {
  static constexpr size_t kSize = 68;

  size_t offset = 0; // of the chunk in the file
  uint16_t major = 0, minor = 0;
  int64_t size = 0;                 // whole chunk, header included
  int64_t constant_pool_offset = 0; // of the last checkpoint event, from the chunk start
  int64_t metadata_offset = 0;      // of the metadata event, from the chunk start
  int64_t start_nanos = 0;          // wall clock, ns since the epoch
  int64_t duration_nanos = 0;
  int64_t start_ticks = 0;
  int64_t ticks_per_second = 0;
  uint8_t generation = 0; // 0 once the chunk is finished; 255 while the JVM updates it
  uint16_t flags = 0;     // bit 0: compressed integers, bit 1: final chunk

  bool compressed_integers() const { return (flags & 1) != 0; }
  size_t end() const { return offset + static_cast<size_t>(size); }
};

// Reads and validates the header of the chunk at `offset`. On failure returns false with a
// message in *error and the offending byte in *error_offset.
bool read_jfr_chunk_header(std::string_view data, size_t offset, JfrChunkHeader *header,
                           std::string *error, int64_t *error_offset);
// The same from `head`, the bytes at `offset` (the first 68 are enough), when the data has
// `left` bytes from `offset` on.
bool parse_jfr_chunk_header(std::string_view head, size_t offset, uint64_t left,
                            JfrChunkHeader *header, std::string *error, int64_t *error_offset);

struct JfrChunkList {
  std::vector<JfrChunkHeader> chunks; // every complete chunk, in file order
  // Set when the data ends in something that is not a complete chunk (a truncated or
  // corrupt header, a chunk running past the end, trailing bytes).
  std::string problem;
  int64_t problem_offset = -1;
};

// Splits data into chunks. Stops at the first chunk that is not complete.
JfrChunkList scan_jfr_chunks(std::string_view data);
// The same over data of `size` bytes that are not in memory: bytes_at(offset) gives the bytes
// at an offset (at least a header's 68 when there are that many; fewer mean the data ends).
JfrChunkList scan_jfr_chunks(uint64_t size,
                             const std::function<std::string_view(size_t)> &bytes_at);

} // namespace hotlines
