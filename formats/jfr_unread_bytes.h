// JfrUnreadBytes: the bytes of a chunk's buffer that were left out when the chunk was read from
// a file (JfrSource::acquire's `skip`: an async-profiler chunk's one checkpoint, most of its
// bytes), read piece by piece as a walk of them reaches them (JfrConstantPools::load), and
// pages given back behind it that are read again when needed (JfrPoolPages). So a chunk of
// hundreds of MB is never resident whole while its pools are indexed.
// Threading: one thread at a time (the pools load once, under a once_flag).
#pragma once

#include "formats/jfr_constant_pool.h"
#include "formats/jfr_pool_pages.h"

#include <string>
#include <vector>

namespace hotlines {

class JfrUnreadBytes {
public:
  // `bytes` (size n) are the chunk's own buffer, without the whole pages of `skipped` (sorted,
  // not overlapping; JfrPoolPages::whole_pages); `reread` reads them; `ahead` is the least that
  // a read takes of them at a time.
  JfrUnreadBytes(char *bytes, size_t n, const std::vector<JfrConstantPools::Range> &skipped,
                 JfrPoolPages::Reread reread, size_t ahead);

  // Where the bytes that can be read from `pos` without a read end, at most `limit`.
  size_t readable_end(size_t pos, size_t limit) const;
  // Reads the bytes of [begin, end) not in memory, and as many more after them as make
  // `ahead` bytes (with `read_ahead`); false with *error when the file cannot be read.
  bool ensure(size_t begin, size_t end, std::string *error, bool read_ahead = true);
  // Gives back the whole pages of [begin, end), which ensure() then reads again.
  void give_back(size_t begin, size_t end);
  // The bytes given back so far.
  size_t given_back() const { return given_back_; }

private:
  char *bytes_;
  size_t size_;
  std::vector<JfrConstantPools::Range> unread_; // sorted, not overlapping
  JfrPoolPages::Reread reread_;
  size_t ahead_;
  size_t given_back_ = 0;
};

} // namespace hotlines
