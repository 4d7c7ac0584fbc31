// Diff of two views — two profiles, or two windows (or filters) of one: per function the
// self% (or total%) before and after and the delta in percentage points, with functions that
// are new or gone; and the same per line of one recorded file. Rows match by function label,
// so views of different profiles compare. Ordered by |delta| desc, then name. Pure
// functions; thread-safe.
#pragma once

#include "server/engine/query_hot.h"
#include "server/engine/view_weights.h"

#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

enum class DiffStatus : uint8_t { changed, same, added, removed };

std::string_view diff_status_name(DiffStatus s); // "changed", "same", "new", "gone"

struct DiffOptions {
  SortBy measure = SortBy::self; // compare self (default) or total
  double min_delta = 0;          // drop rows whose |delta| is below this many points
  size_t top = 0;                // at most this many rows (0: all)
};

struct DiffRow {
  std::string name; // function label (functions), or the functions at the line (lines; ", ")
  int32_t line = 0; // lines only
  int64_t before = 0, after = 0;
  double before_pct = 0, after_pct = 0, delta_pct = 0; // delta = after - before
  DiffStatus status = DiffStatus::changed;
};

struct Diff {
  int64_t before_total = 0, after_total = 0;
  std::vector<DiffRow> rows;
};

Diff diff_functions(const ViewWeights &before, const ViewWeights &after,
                    const DiffOptions &options);
Diff diff_lines(const ViewWeights &before, const ViewWeights &after, std::string_view file,
                const DiffOptions &options);

} // namespace hotlines
