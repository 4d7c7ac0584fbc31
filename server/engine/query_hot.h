// Hot functions: per function (grouped by the view's FunctionGrouping) the self weight
// (samples whose leaf it is) and total weight (samples with it anywhere in the stack, once
// per sample), ordered hottest first by the chosen weight, then the other, then name. On an
// unfiltered view this is a slice of the list precomputed at load. Also: closest-name
// suggestions for a method pattern that matches nothing. Pure functions; thread-safe.
#pragma once

#include "server/engine/view_weights.h"

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

enum class SortBy : uint8_t { self, total };

struct HotOptions {
  SortBy sort = SortBy::self;
  size_t top = 0;     // at most this many rows (0: all)
  double min_pct = 0; // drop rows whose sort weight is below this % of the view total
  std::string method; // only functions matching this pattern (FunctionKeys::match)
};

struct FunctionRow {
  uint32_t key = kNoKey;   // FunctionKeys key of the view's grouping
  std::string_view name;   // the key's label
  FunctionId function = 0; // a function with this key (file, class, start line)
  std::string_view file;   // its recorded file key ("" when none)
  int64_t self = 0, total = 0;
};

struct HotFunctions {
  int64_t view_total = 0;
  size_t matched = 0; // rows before top/min_pct
  std::vector<FunctionRow> rows;
};

// Polls `cancel` while matching options.method; a cancelled call's rows are incomplete.
HotFunctions hot_functions(const ViewWeights &view, const HotOptions &options,
                           const std::atomic<bool> *cancel = nullptr);

// Self and total of every function key (the raw sums behind hot_functions).
KeySums function_sums(const ViewWeights &view);

// Up to `n` function labels closest to `pattern` (case-insensitive substring matches first,
// then by edit distance to the label or its last `.`-separated parts), heaviest first on ties.
std::vector<std::string> closest_function_names(const ViewWeights &view, std::string_view pattern,
                                                size_t n = 5);

} // namespace hotlines
