// Sharing parsed JFR metadata between chunks with identical metadata (see jfr_metadata_cache.h).
#include "formats/jfr_metadata_cache.h"

namespace hotlines {

JfrMetadataCache::Entry JfrMetadataCache::get(std::string_view data, const JfrChunkHeader &chunk,
                                              std::string *error, int64_t *error_offset) {
  const bool compressed = chunk.compressed_integers();
  const size_t at = chunk.offset + static_cast<size_t>(chunk.metadata_offset);
  JfrInput in(data, chunk.offset + JfrChunkHeader::kSize, chunk.end(), compressed);
  in.seek(at);
  // The body starts after size, type, start, duration and metadata id.
  JfrInput head = in;
  const int64_t size = head.i32();
  head.i64();
  head.i64();
  head.i64();
  head.i64();
  std::string_view body;
  if (head.ok() && size > 0 && static_cast<uint64_t>(size) <= in.remaining() &&
      head.pos() <= at + static_cast<size_t>(size))
    body = data.substr(head.pos(), at + static_cast<size_t>(size) - head.pos());
  if (!body.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Cached &c : cached_)
      if (c.compressed == compressed && c.body == body) return c.entry;
  }
  auto md = std::make_shared<JfrMetadata>();
  if (!read_jfr_metadata(in, md.get(), error, error_offset)) return {};
  Entry e;
  e.metadata = md;
  e.decoder = std::make_shared<JfrDecoder>(*md, compressed);
  if (!body.empty()) {
    std::lock_guard<std::mutex> lock(mu_);
    cached_.push_back(Cached{std::string(body), compressed, e});
  }
  return e;
}

} // namespace hotlines
