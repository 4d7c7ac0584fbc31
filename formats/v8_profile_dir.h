// Loading a folder of V8 profiles as one profile: what `node --cpu-prof-dir` (and
// `--heap-prof-dir`) collect when every process of a run writes its own file — npm, the test
// runner, each test file's process. The profiles of processes that ran project code (a script
// outside node_modules and /usr, not a node: built-in) are kept, each as a thread `pid N` with
// its times on the clock they share; the others (npm, the runner, tsc) are left out with a
// warning naming them; when none ran project code, all are kept. Thread-safe.
#pragma once

#include "formats/load_result.h"

#include <string>

namespace hotlines {

// Whether `dir` is a folder (the loader then reads it with this).
bool is_directory(const std::string &path);

// Loads the *.cpuprofile and *.heapprofile files of `dir` (not its subfolders).
LoadResult load_v8_profile_dir(const std::string &dir, const LoadOptions &options = {});

} // namespace hotlines
