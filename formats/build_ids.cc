// Recorded build-ids against the files (see build_ids.h).
#include "formats/build_ids.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace hotlines {

namespace {

bool is_hex(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return !s.empty();
}

} // namespace

void BuildIds::parse_list(std::string_view text) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    size_t sp = line.find(' ');
    if (sp == std::string_view::npos) continue;
    std::string_view id = line.substr(0, sp), path = line.substr(sp + 1);
    if (!is_hex(id) || id.size() > 128 || path.empty() || path[0] != '/') continue;
    std::string file(path), build_id(id);
    if (resolved_.count(file) || of_file(file) == build_id) continue;
    std::string &use = resolved_[file] = cached_copy(build_id);
    if (use.empty()) rebuilt_.push_back(file);
  }
}

std::string BuildIds::of_file(const std::string &path) {
  static const bool ready = elf_version(EV_CURRENT) != EV_NONE;
  // O_NONBLOCK: a path perf named may be a FIFO, which must not block the load; only a regular
  // file is read.
  int fd = ready ? open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
  if (fd < 0) return {};
  struct stat st;
  std::string hex;
  Elf *elf = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? elf_begin(fd, ELF_C_READ_MMAP, nullptr)
                                                        : nullptr;
  if (elf) {
    const void *id = nullptr;
    ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
    static const char digits[] = "0123456789abcdef";
    for (ssize_t i = 0; id && i < n; i++) {
      unsigned char b = static_cast<const unsigned char *>(id)[i];
      hex += digits[b >> 4];
      hex += digits[b & 15];
    }
    elf_end(elf);
  }
  close(fd);
  return hex;
}

std::string BuildIds::cache_dir() {
  if (const char *d = getenv("PERF_BUILDID_DIR"); d && *d) return d;
  if (const char *home = getenv("HOME"); home && *home) return std::string(home) + "/.debug";
  return {};
}

std::string BuildIds::cached_copy(const std::string &build_id) {
  const std::string dir = cache_dir();
  if (build_id.size() < 3 || dir.empty()) return {};
  std::string path =
      dir + "/.build-id/" + build_id.substr(0, 2) + "/" + build_id.substr(2) + "/elf";
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && of_file(path) == build_id ? path
                                                                                 : std::string();
}

const std::string &BuildIds::file_for(const std::string &path) const {
  auto it = resolved_.find(path);
  return it == resolved_.end() ? path : it->second;
}

std::vector<std::string> BuildIds::rebuilt(size_t max) const {
  return {rebuilt_.begin(),
          rebuilt_.begin() + static_cast<ptrdiff_t>(std::min(max, rebuilt_.size()))};
}

} // namespace hotlines
