// The words editors show for heat: inlay-hint labels (`▮▮▮▯ 38.2% cpu`), code-lens titles
// (`cpu 41.0% total · 12.3% self · 1,234 samples`), diagnostics messages and the numbers in
// hovers, in the configured format (percent, count or value). Pure functions.
#pragma once

#include "protocol/hotlines_types.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace hotlines {

struct HeatText {
  std::string event, unit; // the view's event and its value unit
  Weight view_total;
  std::string format = "percent"; // percent, count or value
  bool by_value = true;           // shares of the value (false: of the sample count)
  bool self_only = false;         // totals unknown (Metadata::self_only): never shown
};

// "1,234"
std::string thousands(int64_t n);
// "38.2%" (one decimal; "<0.1%" for a small nonzero share)
std::string share(int64_t part, int64_t whole);
// Four cells filled by `heat` (0..1): "▮▮▮▯"
std::string heat_bar(double heat);
// One weight in the configured format: "38.2% cpu", "1,234 samples", "12.50 ms cpu".
std::string weight_text(const HeatText &t, Weight w);
// The inlay hint label of a line: the heat bar and self share, or for a line whose self is
// below `min_percent` (it passes the time on to callees) "↳ 39.6% cpu total".
std::string line_label(const HeatText &t, Weight self, Weight total, double heat,
                       double min_percent);
// The diff-mode label of a line: "+12.4% cpu vs baseline" (`delta` in percentage points).
std::string delta_label(const HeatText &t, double delta);
// "self 38.2% (966 samples, 1.93 s) · total 41.0% (…)"
std::string self_total_text(const HeatText &t, Weight self, Weight total);
// The code lens title of a function.
std::string function_title(const HeatText &t, Weight self, Weight total);

} // namespace hotlines
