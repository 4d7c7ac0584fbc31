// The build-ids perf recorded for the binaries a profile's samples hit (the build-id table of
// perf.data, as `perf buildid-list` prints it: `HEX PATH` a line), checked against the files now
// at those paths: a binary rebuilt since the recording would give wrong source lines. Where
// they differ, lines come from the copy perf keeps in its build-id cache
// (cache_dir()/.build-id/xx/rest/elf) or from nowhere. Reads ELF notes
// with libelf. Not thread-safe: one per load.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hotlines {

class BuildIds {
public:
  // Reads `perf buildid-list` output (lines that are not `HEX /path` are ignored) and checks
  // each path's file against its recorded build-id.
  void parse_list(std::string_view text);
  // The lowercase hex GNU build-id of the ELF file at `path`, "" when it has none or cannot
  // be read.
  static std::string of_file(const std::string &path);
  // perf's build-id cache: $PERF_BUILDID_DIR (which perf sets for the commands it runs; perf
  // itself takes it as --buildid-dir), else ~/.debug (perf's default; a perfconfig
  // buildid.dir is not read); "" without either.
  static std::string cache_dir();
  // perf's cached copy of the binary with this build-id, "" when there is none.
  static std::string cached_copy(const std::string &build_id);

  // The file to read `path`'s DWARF from: `path` itself when nothing was recorded for it or its
  // build-id is the recorded one, else perf's cached copy, else "" (`path` is then rebuilt).
  const std::string &file_for(const std::string &path) const;
  // Paths whose recorded build-id differs from their file's, with no cached copy (at most max).
  std::vector<std::string> rebuilt(size_t max) const;

private:
  std::unordered_map<std::string, std::string> resolved_; // path -> file_for, where not itself
  std::vector<std::string> rebuilt_;
};

} // namespace hotlines
