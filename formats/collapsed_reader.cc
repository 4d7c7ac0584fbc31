// Collapsed stacks reader (placeholder, replaced below).
#include "formats/collapsed_reader.h"
namespace hotlines {
LoadResult read_collapsed(std::string_view, const LoadOptions &) { return LoadResult::failure("todo"); }
} // namespace hotlines
