// Heat words (see annotation_text.h).
#include "server/lsp/annotation_text.h"

#include "server/engine/units.h"

#include <cmath>
#include <cstdio>

namespace hotlines {

namespace {
bool counts_only(const HeatText &t) {
  return !t.by_value || t.unit.empty() || t.unit == "samples" || t.unit == "count";
}
} // namespace

std::string thousands(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); i++) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string share(int64_t part, int64_t whole) {
  if (whole == 0) return "0%";
  double pct = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  if (part != 0 && std::fabs(pct) < 0.05) return "<0.1%";
  char buf[32];
  snprintf(buf, sizeof buf, "%.1f%%", pct);
  return buf;
}

std::string heat_bar(double heat) {
  int filled = heat <= 0 ? 0 : std::min(4, std::max(1, static_cast<int>(std::ceil(heat * 4))));
  std::string s;
  for (int i = 0; i < 4; i++) s += i < filled ? "\u25AE" : "\u25AF";
  return s;
}

std::string weight_text(const HeatText &t, Weight w) {
  if (t.format == "count") return thousands(w.count) + " samples";
  if (t.format == "value" && !counts_only(t)) return format_weight(w.value, t.unit) + " " + t.event;
  bool by_value = !counts_only(t);
  return share(by_value ? w.value : w.count, by_value ? t.view_total.value : t.view_total.count) +
         " " + t.event;
}

std::string line_label(const HeatText &t, Weight self, Weight total, double heat,
                       double min_percent) {
  bool by_value = !counts_only(t);
  int64_t s = by_value ? self.value : self.count;
  int64_t whole = by_value ? t.view_total.value : t.view_total.count;
  if (!t.self_only &&
      (s == 0 ||
       (whole > 0 && 100.0 * static_cast<double>(s) / static_cast<double>(whole) < min_percent)))
    return "\u21B3 " + weight_text(t, total) + " total";
  return heat_bar(heat) + " " + weight_text(t, self);
}

std::string delta_label(const HeatText &t, double delta) {
  char buf[32];
  snprintf(buf, sizeof buf, "%+.1f%%", std::fabs(delta) < 0.05 ? 0.0 : delta);
  return std::string(buf) + " " + t.event + " vs baseline";
}

std::string self_total_text(const HeatText &t, Weight self, Weight total) {
  auto one = [&](Weight w) {
    std::string s = share(counts_only(t) ? w.count : w.value,
                          counts_only(t) ? t.view_total.count : t.view_total.value) +
                    " (" + thousands(w.count) + " samples";
    if (!counts_only(t)) s += ", " + format_weight(w.value, t.unit);
    return s + ")";
  };
  return "self " + one(self) + " \u00B7 total " + (t.self_only ? "unavailable" : one(total));
}

std::string function_title(const HeatText &t, Weight self, Weight total) {
  bool by_value = !counts_only(t);
  int64_t whole = by_value ? t.view_total.value : t.view_total.count;
  if (t.self_only) // a flat list: self only, its samples those of the function as a leaf
    return t.event + " " + share(by_value ? self.value : self.count, whole) + " self \u00B7 " +
           thousands(self.count) + " samples (total unavailable)";
  std::string s = t.event + " " + share(by_value ? total.value : total.count, whole) +
                  " total \u00B7 " + share(by_value ? self.value : self.count, whole) +
                  " self \u00B7 " + thousands(total.count) + " samples";
  if (by_value && t.format == "value") s += " \u00B7 " + format_weight(total.value, t.unit);
  return s;
}

} // namespace hotlines
