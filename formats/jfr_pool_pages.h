// JfrPoolPages: gives back the pages of a chunk's stack-trace pools once the slices after them
// have read their stacks, and reads a pool's pages again if a later slice needs one of its
// entries. On deep-stack recordings the stack traces are most of a chunk's bytes, and a JDK
// writes each one once, in the checkpoint after the events that record it (events that
// threads write out later use it until the next checkpoint): behind the slices that have read
// their stacks ahead, all but the last pool are not read again, and a chunk of hundreds of MB
// need not stay resident beside the profile built from it. A pool read again stays resident
// (a file that keeps going back costs at most one more read of its pools).
// Only for a chunk's own buffer of bytes read from a file, which can be read again.
// Threading: entries are read (ensure()) by any threads at once while they hold a use();
// release_before() gives nothing back while any use() is held, and returns at once (or waits).
#pragma once

#include "formats/jfr_constant_pool.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

namespace hotlines {

class JfrPoolPages {
public:
  // Reads the chunk's bytes [begin, begin + n) into `to` again; false with *error on failure.
  using Reread = std::function<bool(size_t begin, size_t n, char *to, std::string *error)>;

  // `bytes` (size n) are the chunk's own buffer; `ranges` (sorted, not overlapping) are where
  // its stack-trace entries are. Only whole pages inside a range are ever given back. With
  // `unread`, those pages were not read (JfrSource::acquire() skipped them; they hold what the
  // buffer held): each range is read when first needed, and given back like the others. With
  // `keep` false, a range read again may be given back again (tests: every read is a reread).
  JfrPoolPages(char *bytes, size_t n, std::vector<JfrConstantPools::Range> ranges, Reread reread,
               bool unread, bool keep = true);

  // Maps the pages of [p, p + n) that are not, in one call before they are written: a page
  // fault for each costs microseconds on a virtual machine. Only a hint (Linux 5.14).
  static void populate(char *p, size_t n);
  // The whole pages of `r` in a buffer of n bytes at `bytes`: [*begin, *end) in the buffer,
  // empty when there is none. What is given back, read again, or left unread.
  static void whole_pages(const char *bytes, size_t n, JfrConstantPools::Range r, size_t *begin,
                          size_t *end);

  // Held while entries are read: no page is given back meanwhile.
  std::shared_lock<std::shared_mutex> use() { return std::shared_lock(mu_); }
  // Before reading the entry at `offset`, with a use() held: its pool's pages, read if they
  // were given back or not read yet. False when they cannot be (error() says why).
  bool ensure(size_t offset);
  // Gives back the pages of the ranges that end at or before `offset` but the last of them
  // (and not those given back by an earlier call or read again); nothing when a use() is held,
  // or with `wait`, once none is. The bytes given back.
  size_t release_before(size_t offset, bool wait = false);
  // Gives back the pages of every range, those read again too unless kept (tests).
  void release_all();

  // Why a read again failed, "" if none did. Stable once set.
  std::string error() const;
  int64_t error_offset() const;
  // The bytes read by ensure(), first reads of unread ranges included.
  size_t reread_bytes() const { return reread_bytes_.load(std::memory_order_relaxed); }

private:
  // unread: not read yet, read when needed; given_back: read again when needed, then kept.
  enum State : uint8_t { resident, unread, given_back, kept };
  // The whole pages of range i.
  void pages(size_t i, size_t *begin, size_t *end) const {
    whole_pages(bytes_, size_, ranges_[i], begin, end);
  }
  // Gives back range i's pages if it is resident or unread: the bytes given back. Under mu_
  // exclusive.
  size_t give_back(size_t i);

  char *bytes_;
  size_t size_;
  std::vector<JfrConstantPools::Range> ranges_;
  std::unique_ptr<std::atomic<uint8_t>[]> state_; // by range
  Reread reread_;
  bool keep_ = true;
  size_t next_ = 0; // ranges before it were considered by release_before(); under mu_ exclusive
  std::shared_mutex mu_;
  mutable std::mutex reread_mu_; // one read again at a time; guards error_
  std::string error_;
  int64_t error_offset_ = -1;
  std::atomic<size_t> reread_bytes_{0};
};

} // namespace hotlines
