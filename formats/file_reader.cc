// Reading untrusted files into memory (see file_reader.h).
#include "formats/file_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hotlines {

namespace {

constexpr size_t kChunk = size_t(1) << 20;

const char *file_type_name(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO or pipe";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

// Reads fd to its end, or to `expected` bytes for a regular file (so a file that grows while
// it is read cannot keep us reading), in chunks, polling the cancel flag.
ReadStatus read_fd(int fd, uint64_t expected, FileBytes *out, std::string *error,
                   const ReadFileOptions &o) {
  auto too_large = [&] {
    *error = "larger than the limit of " + byte_limit_text(o.max_bytes);
    if (!o.raise_hint.empty()) *error += " (raise it with " + o.raise_hint + ")";
    return ReadStatus::too_large;
  };
  auto out_of_memory = [&](uint64_t n) {
    *error = "out of memory reading " + std::to_string(n) + " bytes";
    return ReadStatus::failed;
  };
  if (expected != UINT64_MAX) {
    if (expected > o.max_bytes) return too_large();
    if (!out->reserve(static_cast<size_t>(expected))) return out_of_memory(expected);
  }
  // One byte past the limit tells "exactly at the limit" from "over it".
  const uint64_t cap = o.max_bytes == UINT64_MAX ? UINT64_MAX : o.max_bytes + 1;
  for (;;) {
    if (o.cancel && o.cancel->load(std::memory_order_relaxed)) {
      *error = "cancelled";
      return ReadStatus::cancelled;
    }
    const uint64_t room = std::min(expected, cap) - out->size();
    if (room == 0) break;
    const size_t want = static_cast<size_t>(std::min<uint64_t>(room, kChunk));
    char *at = out->append_space(want);
    if (!at) return out_of_memory(out->size() + want);
    ssize_t n = ::read(fd, at, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = strerror(errno);
      return ReadStatus::failed;
    }
    if (n == 0) break; // end of file (a regular file truncated meanwhile, too)
    out->appended(static_cast<size_t>(n));
  }
  if (out->size() > o.max_bytes) return too_large();
  return ReadStatus::ok;
}

} // namespace

bool FileBytes::reserve(size_t n) {
  if (n <= capacity_) return true;
  char *p = static_cast<char *>(std::malloc(n));
  if (!p) return false;
  if (size_) std::memcpy(p, data_.get(), size_);
  data_.reset(p);
  capacity_ = n;
  return true;
}

char *FileBytes::append_space(size_t n) {
  if (size_ + n > capacity_ && !reserve(std::max(size_ + n, capacity_ * 2))) return nullptr;
  return data_.get() + size_;
}

std::string byte_limit_text(uint64_t bytes) {
  if (bytes >= (uint64_t(1) << 20) && bytes % (uint64_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

namespace {

// Opens `path` for reading if it is a regular file: its descriptor (-1 on failure, with the
// reason in *error) and its status.
int open_regular(const std::string &path, struct stat *st, std::string *error) {
  // O_NONBLOCK: opening a FIFO that has no writer would otherwise wait for one.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    *error = strerror(errno);
    return -1;
  }
  if (fstat(fd, st) != 0)
    *error = strerror(errno);
  else if (S_ISDIR(st->st_mode))
    *error = "is a directory";
  else if (!S_ISREG(st->st_mode))
    *error = std::string("not a regular file (") + file_type_name(st->st_mode) + ")";
  else
    return fd;
  ::close(fd);
  return -1;
}

int64_t mtime_ns(const struct stat &st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

} // namespace

ReadStatus read_regular_file(const std::string &path, FileBytes *out, std::string *error,
                             const ReadFileOptions &options) {
  if (options.dash_is_stdin && path == "-")
    return read_fd(STDIN_FILENO, UINT64_MAX, out, error, options);
  struct stat st {};
  const int fd = open_regular(path, &st, error);
  if (fd < 0) return ReadStatus::failed;
  const ReadStatus status = read_fd(fd, static_cast<uint64_t>(st.st_size), out, error, options);
  ::close(fd);
  return status;
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

ReadStatus RegularFile::open(const std::string &path, std::string *error,
                             const ReadFileOptions &options) {
  struct stat st {};
  const int fd = open_regular(path, &st, error);
  if (fd < 0) return ReadStatus::failed;
  if (static_cast<uint64_t>(st.st_size) > options.max_bytes) {
    ::close(fd);
    *error = "larger than the limit of " + byte_limit_text(options.max_bytes);
    if (!options.raise_hint.empty()) *error += " (raise it with " + options.raise_hint + ")";
    return ReadStatus::too_large;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  size_ = static_cast<uint64_t>(st.st_size);
  mtime_ns_ = mtime_ns(st);
  return ReadStatus::ok;
}

ReadStatus RegularFile::read_at(uint64_t offset, size_t n, char *out, std::string *error,
                                const std::atomic<bool> *cancel) const {
  size_t done = 0;
  while (done < n) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      *error = "cancelled";
      return ReadStatus::cancelled;
    }
    const size_t want = std::min(n - done, kChunk * 4);
    const ssize_t got = ::pread(fd_, out + done, want, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      *error = strerror(errno);
      return ReadStatus::failed;
    }
    if (got == 0) {
      *error = "the file changed while it was read (it is shorter now)";
      return ReadStatus::failed;
    }
    done += static_cast<size_t>(got);
  }
  return ReadStatus::ok;
}

bool RegularFile::changed() const {
  struct stat st {};
  if (fd_ < 0 || fstat(fd_, &st) != 0) return true;
  return static_cast<uint64_t>(st.st_size) != size_ || mtime_ns(st) != mtime_ns_;
}

} // namespace hotlines
