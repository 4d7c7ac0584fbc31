// Stacks into writer locations (see stack_locations.h).
#include "formats/stack_locations.h"

#include <charconv>

namespace hotlines {

StackId location_run(const Profile &p, StackId n, std::vector<FrameId> *run) {
  run->assign(1, p.stack_frame[n]);
  StackId top = n;
  while (p.frames[p.stack_frame[top]].kind == FrameKind::inlined &&
         p.stack_parent[top] != kNoStack) {
    top = p.stack_parent[top];
    run->push_back(p.stack_frame[top]);
  }
  return p.stack_parent[top];
}

bool is_address_placeholder(const Profile &p, const Function &f, uint64_t *address) {
  if (f.file || f.system_name || f.class_name || f.method || f.start_line) return false;
  std::string_view n = p.str(f.name);
  if (n.size() < 3 || n.size() > 18 || n[0] != '0' || n[1] != 'x') return false;
  auto [end, ec] = std::from_chars(n.data() + 2, n.data() + n.size(), *address, 16);
  return ec == std::errc() && end == n.data() + n.size();
}

} // namespace hotlines
