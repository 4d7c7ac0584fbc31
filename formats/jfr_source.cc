// A JFR file's bytes chunk by chunk, from memory or read into reused buffers (see jfr_source.h).
#include "formats/jfr_source.h"

#include "formats/jfr_pool_pages.h"

#include <algorithm>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <system_error>
#include <thread>

namespace hotlines {

namespace {

// Gives the whole pages inside [p, p + n) back to the system.
void give_back_pages(const char *p, size_t n) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + page - 1) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + n) & ~(page - 1);
  if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

} // namespace

JfrChunkList JfrSource::chunks() {
  if (!file_) return scan_jfr_chunks(data_);
  char head[JfrChunkHeader::kSize];
  return scan_jfr_chunks(file_->size(), [&](size_t offset) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(sizeof head, file_->size() - offset));
    std::string error;
    if (file_->read_at(offset, n, head, &error, cancel_) != ReadStatus::ok)
      return std::string_view(); // reported as a truncated header
    return std::string_view(head, n);
  });
}

bool JfrSource::acquire(const JfrChunkHeader &chunk, Held *out, std::string *error,
                        const std::vector<JfrConstantPools::Range> &skip) {
  if (!file_) {
    out->bytes = data_.substr(chunk.offset, static_cast<size_t>(chunk.size));
    return true;
  }
  const size_t n = static_cast<size_t>(chunk.size);
  auto fresh = std::make_unique<FileBytes>(); // before the count: it may throw
  {
    std::unique_lock<std::mutex> lock(mu_);
    while (held_ > 0 && held_ + n > held_limit_ && !abandoned_) {
      if (cancel_ && cancel_->load(std::memory_order_relaxed)) {
        *error = "cancelled";
        return false;
      }
      released_.wait_for(lock, std::chrono::milliseconds(50)); // polls the cancel flag
    }
    if (abandoned_) {
      *error = "stopped";
      return false;
    }
    held_ += n;
    if (!free_.empty()) {
      // The largest: chunks differ in size, and a buffer too small is allocated anew.
      auto largest = std::max_element(free_.begin(), free_.end(), [](const auto &a, const auto &b) {
        return a->capacity() < b->capacity();
      });
      out->buffer = std::move(*largest);
      free_.erase(largest);
    } else {
      out->buffer = std::move(fresh);
    }
  }
  FileBytes &b = *out->buffer;
  b.clear();
  // A reused buffer that is too small grows with room to spare, for the next chunks.
  if (!b.reserve(b.capacity() && n > b.capacity() ? n + n / 4 : n) && !b.reserve(n)) {
    *error = "out of memory reading a JFR chunk of " + std::to_string(n) + " bytes";
    release(chunk, out, false);
    return false;
  }
  char *const to = b.append_space(n);
  // The pages of a reused buffer past this chunk hold an earlier chunk's bytes. A few MB are
  // the room that lets the next chunks reuse it; a quarter of the held limit or more (a chunk
  // of 117 MB before one of 88) are given back, not left resident beside the profile.
  if (b.capacity() - n >= held_limit_ / 4) give_back_pages(to + n, b.capacity() - n);
  ReadStatus st = ReadStatus::ok;
  if (!skip.empty()) {
    // The bytes between the skipped pages. Those pages keep what a reused buffer held: they
    // are read before they are used, and given back once used (JfrPoolPages). Pages that the
    // last chunk gave back are mapped in one call a run (JfrPoolPages::populate).
    size_t at = 0;
    auto read = [&](size_t end) {
      JfrPoolPages::populate(to + at, end - at);
      st = file_->read_at(chunk.offset + at, end - at, to + at, error, cancel_);
      return st == ReadStatus::ok;
    };
    for (const JfrConstantPools::Range &r : skip) {
      size_t begin, end;
      JfrPoolPages::whole_pages(to, n, r, &begin, &end);
      if (begin == end || begin < at) continue;
      if (!read(begin)) break;
      at = end;
    }
    if (st == ReadStatus::ok) read(n);
  } else if (threads_ > 1 && n >= split_bytes_) {
    const size_t half = n / 2;
    std::string second_error;
    ReadStatus second = ReadStatus::ok;
    auto read_second = [&] {
      second = file_->read_at(chunk.offset + half, n - half, to + half, &second_error, cancel_);
    };
    std::thread helper;
    try {
      helper = std::thread(read_second);
    } catch (const std::system_error &) { // no thread: this one reads both halves
    }
    st = file_->read_at(chunk.offset, half, to, error, cancel_);
    if (helper.joinable())
      helper.join();
    else if (st == ReadStatus::ok)
      read_second();
    if (st == ReadStatus::ok && second != ReadStatus::ok) {
      st = second;
      *error = second_error;
    }
  } else {
    st = file_->read_at(chunk.offset, n, to, error, cancel_);
  }
  if (st != ReadStatus::ok) {
    release(chunk, out, false);
    return false;
  }
  b.appended(n);
  out->bytes = b.view();
  return true;
}

bool JfrSource::reread(const JfrChunkHeader &chunk, size_t begin, size_t n, char *to,
                       std::string *error) const {
  const size_t size = static_cast<size_t>(chunk.size);
  if (!file_ || begin > size || n > size - begin) {
    *error = "no such bytes to read again";
    return false;
  }
  return file_->read_at(chunk.offset + begin, n, to, error, cancel_) == ReadStatus::ok;
}

void JfrSource::abandon() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    abandoned_ = true;
  }
  released_.notify_all();
}

void JfrSource::release(const JfrChunkHeader &chunk, Held *held, bool last) {
  held->bytes = {};
  if (held->buffer) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      free_.push_back(std::move(held->buffer));
      held_ -= static_cast<size_t>(chunk.size);
    }
    released_.notify_all();
    return;
  }
  if (last && discard_)
    give_back_pages(data_.data() + chunk.offset, static_cast<size_t>(chunk.size));
}

} // namespace hotlines
