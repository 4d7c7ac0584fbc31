// Whether an x86-64 ELF program keeps frame pointers, for choosing how `perf record` walks its
// stacks (-g reads the frame-pointer chain; without it only --call-graph dwarf, which copies
// stack memory into every sample, gives whole stacks). Looks at the prologues of the file's
// own functions (`push %rbp; mov %rsp,%rbp` in their first 64 bytes). Reads the file; any
// thread.
#pragma once

#include <string>

namespace hotlines {

enum class FramePointers { yes, no, unknown };

// unknown when the file is not a readable x86-64 ELF with at least 8 sized functions in its
// symbol table; yes when a quarter of them set up %rbp as a frame pointer (leaf functions
// need not).
FramePointers frame_pointers(const std::string &path, std::string *why = nullptr);

} // namespace hotlines
