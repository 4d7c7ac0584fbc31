// JfrSource: where the JFR reader gets a file's bytes, chunk by chunk. Either bytes already in
// memory (views, nothing copied; with `discard`, a chunk's pages are given back once it is
// released), or a regular file read chunk by chunk into buffers that are reused: the file is
// never in memory whole, and a recording of many chunks costs no fresh pages (which the
// kernel zeroes first: that was a quarter of a load). A chunk takes the largest buffer
// released; one too small grows with room to spare, and one much larger gives back its pages
// past the chunk (an earlier chunk's bytes). Large chunks are held one at a time: a
// chunk that would take the bytes held over a limit waits for the others to be released, so a
// file of a few chunks of 100 MB costs one buffer, not one per thread. A chunk can be acquired
// without some of its pages (its stack-trace pools), which are read again when needed
// (reread(), JfrPoolPages). Thread-safe: chunks are acquired and released on any threads.
#pragma once

#include "formats/file_reader.h"
#include "formats/jfr_chunk.h"
#include "formats/jfr_constant_pool.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

class JfrSource {
public:
  // The bytes of one chunk while they are held.
  struct Held {
    std::string_view bytes;
    std::unique_ptr<FileBytes> buffer; // when read from a file
    bool held() const { return bytes.data() != nullptr; }
  };

  // `data` must outlive the source. With `discard`, it is the caller's own heap memory that
  // nothing reads after the load.
  JfrSource(std::string_view data, bool discard) : data_(data), discard_(discard) {}
  // `file` (open) must outlive the source; reads poll `cancel`. With `threads` > 1, a chunk of
  // `split_bytes` or more is read by two threads, half each: the kernel zeroes a fresh
  // buffer's pages in the thread that first writes them, which for a chunk of hundreds of MB
  // is most of its read.
  // A chunk waits in acquire() while other chunks are held and it would take the bytes held
  // over `held_limit`.
  static constexpr size_t kSplitReadBytes = size_t{64} << 20;
  static constexpr size_t kHeldLimit = size_t{64} << 20;
  JfrSource(const RegularFile &file, const std::atomic<bool> *cancel, unsigned threads = 1,
            size_t split_bytes = kSplitReadBytes, size_t held_limit = kHeldLimit)
      : file_(&file), cancel_(cancel), threads_(threads), split_bytes_(split_bytes),
        held_limit_(held_limit) {}

  uint64_t size() const { return file_ ? file_->size() : data_.size(); }
  // Chunks of this size or more are held one at a time.
  size_t held_limit() const { return held_limit_; }
  // Whether released chunks must be read again: false for bytes in memory.
  bool rereads() const { return file_ != nullptr; }
  // The chunks of the data; for a file, reads their headers only.
  JfrChunkList chunks();
  // The bytes of `chunk` into *out, after waiting for other chunks' release when the bytes
  // held are over the limit. False with *error ("cancelled", "stopped", a read error) on
  // failure. From a file, the whole pages inside the ranges `skip` (chunk offsets, sorted;
  // JfrPoolPages::whole_pages) are not read: they hold what a reused buffer held, or nothing,
  // until JfrPoolPages reads them when needed.
  bool acquire(const JfrChunkHeader &chunk, Held *out, std::string *error,
               const std::vector<JfrConstantPools::Range> &skip = {});
  // Reads [begin, begin + n) of `chunk` (offsets in the chunk) into `to` again: a file's chunk
  // whose pages were given back while held. False with *error on failure.
  bool reread(const JfrChunkHeader &chunk, size_t begin, size_t n, char *to,
              std::string *error) const;
  // Ends the waits in acquire(), now and later, with "stopped": the reader stopped, and the
  // chunks it holds will not be released while its workers wait.
  void abandon();
  // Lets go of a chunk's bytes: a buffer goes back for reuse; bytes in memory, when `last`
  // (nothing reads them again) and the source may discard them, go back to the system.
  void release(const JfrChunkHeader &chunk, Held *held, bool last);

private:
  std::string_view data_;
  bool discard_ = false;
  const RegularFile *file_ = nullptr;
  const std::atomic<bool> *cancel_ = nullptr;
  unsigned threads_ = 1;
  size_t split_bytes_ = kSplitReadBytes;
  size_t held_limit_ = kHeldLimit;
  std::mutex mu_;
  std::condition_variable released_;
  // Guarded by mu_: buffers to reuse, the bytes of the chunks held, whether abandon() ran.
  std::vector<std::unique_ptr<FileBytes>> free_;
  size_t held_ = 0;
  bool abandoned_ = false;
};

} // namespace hotlines
