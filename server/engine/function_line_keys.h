// FunctionLineKeys: how frames group into the rows of hot lines — one key per (function key,
// line key) pair of the frames that have a line key, numbered in frame order — with each key's
// function key, line key and first frame. Depends only on the profile and the function
// grouping, so ProfileIndex builds it once per grouping (with its first-on-path flags on the
// profile's tree) and every hot-lines query reuses it. Immutable once built; thread-safe.
#pragma once

#include "formats/profile.h"
#include "server/engine/function_keys.h"
#include "server/engine/key_map.h"
#include "server/engine/line_keys.h"

#include <cstdint>
#include <vector>

namespace hotlines {

struct FunctionLineKeys {
  KeyMap map;                           // frame -> key (kNoKey: the frame has no line key)
  std::vector<uint32_t> function, line; // per key: its function key and LineKeys line key
  std::vector<FrameId> frame;           // per key: the first frame with it
};

FunctionLineKeys function_line_keys(const Profile &profile, const FunctionKeys &functions,
                                    const LineKeys &lines);

} // namespace hotlines
