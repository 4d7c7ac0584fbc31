// How the pprof and OTLP writers cut a stack into locations: a location holds a frame and the
// frames inlined into it (the readers mark all but a location's last line inlined), and a
// function the readers made for an unsymbolized location (`0x<hex>`) is written back as an
// address. Pure functions over an immutable Profile; thread-safe.
#pragma once

#include "formats/profile.h"

#include <cstdint>
#include <vector>

namespace hotlines {

// The frames of stack node n's location into *run, innermost first: n's frame, then while a
// frame is inlined, its parent's (the last one is the physical caller). Returns the node
// above the location (kNoStack at the root).
StackId location_run(const Profile &p, StackId n, std::vector<FrameId> *run);

// True when f is a reader's placeholder for an unsymbolized location, `0x<hex>` with nothing
// else but a library; *address gets the address.
bool is_address_placeholder(const Profile &p, const Function &f, uint64_t *address);

} // namespace hotlines
