// WeightTable: a CLI text table whose rows carry a self and a total weight, shown as the
// columns self, self% (of the view), total, total% — or total first, as trees and file lists
// show them — between the row's own cells; totals read n/a for a self-only profile.
// Single-threaded (the CLI's main thread).
#pragma once

#include "server/cli/text_table.h"
#include "server/engine/view_weights.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hotlines {

class WeightTable {
public:
  enum Order { self_first, total_first };
  // The columns `before`, the four weight columns in `order`, then the columns `after`.
  WeightTable(const ViewWeights &view, Order order, TextTable::Columns before,
              TextTable::Columns after);
  void add(std::vector<std::string> before, int64_t self, int64_t total,
           const std::vector<std::string> &after = {});
  std::string render() const { return table_.render(); }

private:
  const ViewWeights &view_;
  Order order_;
  TextTable table_;
};

} // namespace hotlines
