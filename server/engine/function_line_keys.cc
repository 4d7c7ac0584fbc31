// function_line_keys (see function_line_keys.h).
// Threading: Pure function; any thread.
#include "server/engine/function_line_keys.h"

#include "server/engine/flat_map.h"

namespace hotlines {

FunctionLineKeys function_line_keys(const Profile &p, const FunctionKeys &fk, const LineKeys &lk) {
  FunctionLineKeys k;
  k.map.of_frame.assign(p.frames.size(), kNoKey);
  FlatMap<uint32_t> ids(1024);
  for (size_t i = 0; i < p.frames.size(); i++) {
    const uint32_t line = lk.lines().of_frame[i];
    if (line == kNoKey) continue;
    const uint32_t fn = fk.map().of_frame[i];
    bool inserted = false;
    uint32_t &id = ids.find_or_insert((static_cast<uint64_t>(fn) << 32) | line,
                                      static_cast<uint32_t>(k.function.size()), &inserted);
    if (inserted) {
      k.function.push_back(fn);
      k.line.push_back(line);
      k.frame.push_back(static_cast<FrameId>(i));
    }
    k.map.of_frame[i] = id;
  }
  k.map.count = static_cast<uint32_t>(k.function.size());
  return k;
}

} // namespace hotlines
