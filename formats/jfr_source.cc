// A JFR file's bytes chunk by chunk, from memory or read into reused buffers (see jfr_source.h).
#include "formats/jfr_source.h"

#include <sys/mman.h>
#include <unistd.h>

#include <thread>

namespace hotlines {

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

bool JfrSource::acquire(const JfrChunkHeader &chunk, Held *out, std::string *error) {
  if (!file_) {
    out->bytes = data_.substr(chunk.offset, static_cast<size_t>(chunk.size));
    return true;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!free_.empty()) {
      out->buffer = std::move(free_.back());
      free_.pop_back();
    }
  }
  if (!out->buffer) out->buffer = std::make_unique<FileBytes>();
  FileBytes &b = *out->buffer;
  const size_t n = static_cast<size_t>(chunk.size);
  b.clear();
  if (!b.reserve(n)) {
    *error = "out of memory reading a JFR chunk of " + std::to_string(n) + " bytes";
    return false;
  }
  char *const to = b.append_space(n);
  ReadStatus st = ReadStatus::ok;
  if (threads_ > 1 && n >= split_bytes_) {
    const size_t half = n / 2;
    std::string second_error;
    ReadStatus second = ReadStatus::ok;
    std::thread helper([&] {
      second = file_->read_at(chunk.offset + half, n - half, to + half, &second_error, cancel_);
    });
    st = file_->read_at(chunk.offset, half, to, error, cancel_);
    helper.join();
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

void JfrSource::release(const JfrChunkHeader &chunk, Held *held, bool last) {
  held->bytes = {};
  if (held->buffer) {
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(held->buffer));
    return;
  }
  if (!last || !discard_) return;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t base = reinterpret_cast<uintptr_t>(data_.data());
  const uintptr_t begin = (base + chunk.offset + page - 1) & ~(page - 1);
  const uintptr_t end = (base + chunk.end()) & ~(page - 1);
  if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

} // namespace hotlines
