// Reading a file into memory without trusting it: regular files only (a FIFO, device, socket
// or directory is refused at once — opened with O_NONBLOCK, checked with fstat — so neither a
// FIFO with no writer nor /dev/zero can block or flood the caller), at most `max_bytes`, and
// a cancel flag polled between reads; whole (read_regular_file) or piece by piece at offsets
// (RegularFile). Never mmap: a file truncated while it is read gives short data, not SIGBUS.
// Thread-safe; blocking I/O, so never on an event loop thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

namespace hotlines {

struct ReadFileOptions {
  uint64_t max_bytes = UINT64_MAX;
  // How a user raises max_bytes ("the setting hotlines.limits.profileMiB"); named in errors.
  std::string raise_hint;
  // Polled between reads; when it becomes true the read stops with error "cancelled".
  const std::atomic<bool> *cancel = nullptr;
  // "-" reads standard input (a pipe: not a regular file, still capped by max_bytes).
  bool dash_is_stdin = false;
};

// A file's bytes in memory, not zero-filled first: reading 200 MB from the page cache takes
// 0.06 s so, 0.19 s into a std::string. Not advised huge pages, like ByteBuffer: the bytes are
// written once, by read(), and a reader gives back the pages of a chunk's pools page by page
// (JfrPoolPages).
class FileBytes {
public:
  std::string_view view() const { return {data_.get(), size_}; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  // Room for n more bytes after size(), growing geometrically: their address, or nullptr
  // when memory runs out.
  char *append_space(size_t n);
  // Takes n bytes written at append_space() into the data.
  void appended(size_t n) { size_ += n; }
  // Makes room for exactly n bytes in all (a file of known size); false when out of memory.
  bool reserve(size_t n);
  // Empties the buffer and keeps its memory, for the next read.
  void clear() { size_ = 0; }

private:
  struct Free {
    void operator()(char *p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> data_;
  size_t size_ = 0, capacity_ = 0;
};

enum class ReadStatus { ok, failed, too_large, cancelled };

// Reads all of `path` into *out. On failure sets *error to a reason without the path ("not a
// regular file (a FIFO or pipe)", "No such file or directory", "larger than the limit of
// 4096 MiB (raise it with ...)").
ReadStatus read_regular_file(const std::string &path, FileBytes *out, std::string *error,
                             const ReadFileOptions &options = {});

// A regular file, open for positioned reads (closed with the object). Refuses what
// read_regular_file refuses, with the same reasons, and files over options.max_bytes.
class RegularFile {
public:
  RegularFile() = default;
  RegularFile(const RegularFile &) = delete;
  RegularFile &operator=(const RegularFile &) = delete;
  ~RegularFile();

  ReadStatus open(const std::string &path, std::string *error, const ReadFileOptions &options);
  uint64_t size() const { return size_; }
  // Reads n bytes at `offset` into out, in pieces, polling `cancel` between them. Fewer
  // bytes than asked (the file shrank since open) is a failure: "the file changed while it
  // was read". Thread-safe.
  ReadStatus read_at(uint64_t offset, size_t n, char *out, std::string *error,
                     const std::atomic<bool> *cancel) const;
  // Whether the file's size or modification time differs from when it was opened.
  bool changed() const;

private:
  int fd_ = -1;
  uint64_t size_ = 0;
  int64_t mtime_ns_ = 0;
};

// "4096 MiB", "512 KiB", "100 bytes": a byte limit for an error message.
std::string byte_limit_text(uint64_t bytes);

} // namespace hotlines
