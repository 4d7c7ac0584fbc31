// JfrMetadataCache: parsed metadata and decoders shared by the chunks of a file. The chunks of
// one recording (and concatenated copies) carry byte-identical metadata, so each distinct
// metadata body is parsed once. Thread-safe: chunk readers on several threads share one cache.
#pragma once

#include "formats/jfr_chunk.h"
#include "formats/jfr_decoder.h"
#include "formats/jfr_metadata.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

class JfrMetadataCache {
public:
  struct Entry {
    std::shared_ptr<const JfrMetadata> metadata;
    std::shared_ptr<const JfrDecoder> decoder;
  };

  // The metadata and decoder of `chunk` (read from its metadata event). On corrupt metadata
  // returns an empty entry with *error and *error_offset set.
  Entry get(std::string_view data, const JfrChunkHeader &chunk, std::string *error,
            int64_t *error_offset);

private:
  struct Cached {
    std::string body; // the metadata event after its per-chunk header fields (a copy: chunks'
                      // bytes may live in buffers that are reused)
    bool compressed;
    Entry entry;
  };
  std::mutex mu_;
  std::vector<Cached> cached_;
};

} // namespace hotlines
