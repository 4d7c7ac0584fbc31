// Tables of self and total weights for the CLI (see weight_table.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli/weight_table.h"

#include "server/engine/units.h"

namespace hotlines {

namespace {
TextTable::Columns with_weights(TextTable::Columns columns, WeightTable::Order order,
                                const TextTable::Columns &after) {
  const bool self_first = order == WeightTable::self_first;
  for (std::string name : {self_first ? "self" : "total", self_first ? "total" : "self"}) {
    columns.push_back({name, TextTable::right});
    columns.push_back({name + "%", TextTable::right});
  }
  columns.insert(columns.end(), after.begin(), after.end());
  return columns;
}
} // namespace

WeightTable::WeightTable(const ViewWeights &view, Order order, TextTable::Columns before,
                         TextTable::Columns after)
    : view_(view), order_(order), table_(with_weights(std::move(before), order, after)) {}

void WeightTable::add(std::vector<std::string> cells, int64_t self, int64_t total,
                      const std::vector<std::string> &after) {
  const std::string unit(view_.unit());
  const bool no_totals = view_.profile().metadata.self_only;
  for (bool is_self : {order_ == self_first, order_ != self_first}) {
    const int64_t weight = is_self ? self : total;
    const bool known = is_self || !no_totals;
    cells.push_back(known ? format_weight(weight, unit) : "n/a");
    cells.push_back(known ? format_pct(percent(weight, view_.total)) : "n/a");
  }
  cells.insert(cells.end(), after.begin(), after.end());
  table_.add(std::move(cells));
}

} // namespace hotlines
