// `hotlines serve` (placeholder until the transport lands).
#include "server/serve.h"

namespace hotlines {
int serve_main(const std::vector<std::string> &) {
  return 1;
}
} // namespace hotlines
