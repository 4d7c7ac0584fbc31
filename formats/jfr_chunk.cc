// JFR chunk header parsing and the walk over a file's chunks (see jfr_chunk.h).
#include "formats/jfr_chunk.h"

#include "formats/jfr_input.h"

#include <algorithm>
#include <cstring>

namespace hotlines {

namespace {
std::string num(int64_t v) {
  return std::to_string(v);
}
} // namespace

bool read_jfr_chunk_header(std::string_view data, size_t offset, JfrChunkHeader *header,
                           std::string *error, int64_t *error_offset) {
  const uint64_t left = offset <= data.size() ? data.size() - offset : 0;
  return parse_jfr_chunk_header(data.substr(std::min(offset, data.size())), offset, left, header,
                                error, error_offset);
}

bool parse_jfr_chunk_header(std::string_view head, size_t offset, uint64_t left, JfrChunkHeader *h,
                            std::string *error, int64_t *error_offset) {
  auto bad = [&](std::string msg, size_t at) {
    *error = std::move(msg);
    *error_offset = static_cast<int64_t>(at);
    return false;
  };
  if (left < JfrChunkHeader::kSize || head.size() < JfrChunkHeader::kSize)
    return bad("truncated JFR chunk header: " + num(static_cast<int64_t>(left)) +
                   " bytes left, 68 needed",
               offset);
  if (std::memcmp(head.data(), "FLR\0", 4) != 0)
    return bad("not a JFR chunk: magic FLR\\0 missing", offset);
  JfrInput in(head, 0, JfrChunkHeader::kSize, false);
  in.skip(4);
  h->offset = offset;
  h->major = static_cast<uint16_t>(in.be(2));
  h->minor = static_cast<uint16_t>(in.be(2));
  h->size = static_cast<int64_t>(in.be(8));
  h->constant_pool_offset = static_cast<int64_t>(in.be(8));
  h->metadata_offset = static_cast<int64_t>(in.be(8));
  h->start_nanos = static_cast<int64_t>(in.be(8));
  h->duration_nanos = static_cast<int64_t>(in.be(8));
  h->start_ticks = static_cast<int64_t>(in.be(8));
  h->ticks_per_second = static_cast<int64_t>(in.be(8));
  h->generation = static_cast<uint8_t>(in.be(1));
  in.skip(1);
  h->flags = static_cast<uint16_t>(in.be(2));
  if (h->major != 1 && h->major != 2)
    return bad("unsupported JFR version " + num(h->major) + "." + num(h->minor) +
                   " (1.x and 2.x are supported)",
               offset + 4);
  if (h->size < static_cast<int64_t>(JfrChunkHeader::kSize))
    return bad("JFR chunk size " + num(h->size) + " is smaller than its header", offset + 8);
  if (static_cast<uint64_t>(h->size) > left)
    return bad("truncated JFR chunk: its header says " + num(h->size) + " bytes, " +
                   num(static_cast<int64_t>(left)) + " are left",
               offset);
  if (h->metadata_offset < static_cast<int64_t>(JfrChunkHeader::kSize) ||
      h->metadata_offset >= h->size)
    return bad("JFR chunk metadata offset " + num(h->metadata_offset) + " is outside the chunk",
               offset + 24);
  if (h->constant_pool_offset != 0 &&
      (h->constant_pool_offset < static_cast<int64_t>(JfrChunkHeader::kSize) ||
       h->constant_pool_offset >= h->size))
    return bad("JFR chunk constant pool offset " + num(h->constant_pool_offset) +
                   " is outside the chunk",
               offset + 16);
  if (h->ticks_per_second <= 0)
    return bad("JFR chunk ticks per second " + num(h->ticks_per_second) + " is not positive",
               offset + 56);
  return true;
}

JfrChunkList scan_jfr_chunks(std::string_view data) {
  return scan_jfr_chunks(data.size(), [&](size_t offset) { return data.substr(offset); });
}

JfrChunkList scan_jfr_chunks(uint64_t size,
                             const std::function<std::string_view(size_t)> &bytes_at) {
  JfrChunkList out;
  size_t offset = 0;
  while (offset < size) {
    JfrChunkHeader h;
    std::string err;
    int64_t err_offset = -1;
    if (!parse_jfr_chunk_header(bytes_at(offset), offset, size - offset, &h, &err, &err_offset)) {
      out.problem = std::move(err);
      out.problem_offset = err_offset;
      break;
    }
    out.chunks.push_back(h);
    offset = h.end();
  }
  return out;
}

} // namespace hotlines
