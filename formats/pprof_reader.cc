// pprof reader (placeholder until the pprof reader lands).
#include "formats/pprof_reader.h"

namespace hotlines {

LoadResult read_pprof(std::string_view data, const LoadOptions &) {
  return LoadResult::failure("pprof reading is not implemented yet", 0);
}

} // namespace hotlines
