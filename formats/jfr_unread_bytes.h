// JfrUnreadBytes: the bytes of a chunk's buffer that were left out when the chunk was read from
// a file (JfrSource::acquire's `skip`: an async-profiler chunk's one checkpoint, most of its
// bytes), read piece by piece as a walk of them reaches them (JfrConstantPools::load), and
// pages given back behind it that are read again when needed (JfrPoolPages). So a chunk of
// hundreds of MB is never resident whole while its pools are indexed. With `read_ahead`, the
// piece after the one a walk reaches is read meanwhile on a thread of its own (faulting in its
// pages and copying the file's bytes into them: half of indexing such a chunk's pools).
// Threading: one thread at a time (the pools load once, under a once_flag); the read ahead is
// the object's own, taken in before its bytes are used, and joined by the destructor.
#pragma once

#include "formats/jfr_constant_pool.h"
#include "formats/jfr_pool_pages.h"

#include <string>
#include <thread>
#include <vector>

namespace hotlines {

class JfrUnreadBytes {
public:
  // `bytes` (size n) are the chunk's own buffer, without the whole pages of `skipped` (sorted,
  // not overlapping; JfrPoolPages::whole_pages); `reread` reads them; `ahead` is the least that
  // a read takes of them at a time. With `read_ahead`, the next `ahead` bytes begin to be read
  // on a thread as ensure() returns (`reread` must allow reads from several threads at once).
  JfrUnreadBytes(char *bytes, size_t n, const std::vector<JfrConstantPools::Range> &skipped,
                 JfrPoolPages::Reread reread, size_t ahead, bool read_ahead = false);
  ~JfrUnreadBytes();
  JfrUnreadBytes(const JfrUnreadBytes &) = delete;
  JfrUnreadBytes &operator=(const JfrUnreadBytes &) = delete;

  // Where the bytes that can be read from `pos` without a read end, at most `limit`.
  size_t readable_end(size_t pos, size_t limit) const;
  // Reads the bytes of [begin, end) not in memory, and as many more after them as make
  // `ahead` bytes (with `read_ahead`); false with *error when the file cannot be read.
  bool ensure(size_t begin, size_t end, std::string *error, bool read_ahead = true);
  // Waits for the read ahead, and reads none ahead from now on: when the walk ends, before
  // anyone may let go of the bytes (JfrConstantPools::load).
  void stop_reading_ahead() {
    take_read_ahead();
    read_ahead_ = false;
  }
  // Gives back the whole pages of [begin, end), which ensure() then reads again.
  void give_back(size_t begin, size_t end);
  // The bytes given back so far.
  size_t given_back() const { return given_back_; }

private:
  // Waits for the read ahead, if any: its bytes are in memory, or unread again if it failed
  // (the next ensure() reads them, and reports the error).
  void take_read_ahead();
  // Begins reading the first `ahead_` unread bytes from `pos` on the read-ahead thread.
  void begin_read_ahead(size_t pos);

  char *bytes_;
  size_t size_;
  std::vector<JfrConstantPools::Range> unread_; // sorted, not overlapping
  JfrPoolPages::Reread reread_;
  size_t ahead_;
  size_t given_back_ = 0;
  // The read ahead: pending_, out of unread_ while `reader_` reads it (and sets pending_ok_).
  bool read_ahead_;
  JfrConstantPools::Range pending_;
  std::thread reader_;
  bool pending_ok_ = true;
};

} // namespace hotlines
