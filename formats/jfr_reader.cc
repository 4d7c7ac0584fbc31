// JFR reader (placeholder until the JFR reader lands).
#include "formats/jfr_reader.h"

namespace hotlines {

LoadResult read_jfr(std::string_view data, const LoadOptions &) {
  return LoadResult::failure("JFR reading is not implemented yet", 0);
}

} // namespace hotlines
