// The hotlines CPU profile preload for Node (server/runs/node_profile_preload.js, embedded at
// build time by server/web/embed_file.cmake): node-test runs of Jest, Vitest, Mocha and
// `npm test` write it into the run's output folder and load it with `--require` through
// NODE_OPTIONS; each process it runs in writes a .cpuprofile and a .scripts.json (the source
// map URLs of the scripts it compiled) into $HOTLINES_CPUPROFILE_DIR. Constant data.
#pragma once

#include <cstddef>

namespace hotlines {

extern const unsigned char kNodeProfilePreload[]; // the script's bytes, NUL-terminated
extern const size_t kNodeProfilePreloadSize;      // without the NUL

} // namespace hotlines
