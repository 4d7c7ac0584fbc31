// Source lines of native code from DWARF (elfutils' libdw): an address in an ELF file (as perf
// script prints it, the file's own virtual address) -> its file and line, and the functions
// inlined there with their call sites, innermost first. Debug info is found as elfutils finds
// it (the file itself, .gnu_debuglink, /usr/lib/debug/.build-id). Each compile unit's
// subprogram and inlined-subroutine ranges are indexed once (an iterative walk, never recursion
// on DWARF depth), so a lookup is a binary search. Not thread-safe: one per load.
#pragma once

#include "formats/build_ids.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

struct SourceFrame {
  std::string function; // demangled as perf prints names; "" when DWARF names none
  std::string file;     // "" when unknown
  int32_t line = 0;
  bool inlined = false; // a function inlined into the next frame
};

class DwarfLines {
public:
  DwarfLines();
  ~DwarfLines();
  DwarfLines(const DwarfLines &) = delete;
  DwarfLines &operator=(const DwarfLines &) = delete;

  // The frames at `address` of the ELF file `path`, innermost first: inlined functions, then
  // the function that contains them (not inlined); empty when the file cannot be read, has no
  // DWARF or no line for the address.
  std::vector<SourceFrame> lookup(const std::string &path, uint64_t address);
  // perf's record of the binaries' build-ids (`perf buildid-list` output): a file rebuilt since
  // gives its lines from perf's cached copy, or none.
  void set_build_ids(std::string_view buildid_list) { build_ids_.parse_list(buildid_list); }
  // Recorded binaries rebuilt since, with no cached copy: no lines from them (at most `max`).
  std::vector<std::string> files_rebuilt(size_t max) const { return build_ids_.rebuilt(max); }
  // Files that were asked about and have no DWARF (for a warning), at most `max`.
  std::vector<std::string> files_without_dwarf(size_t max) const;

private:
  struct Module;
  Module *module(const std::string &path);
  std::vector<std::unique_ptr<Module>> modules_;
  BuildIds build_ids_;
};

} // namespace hotlines
