// Formatting and parsing of weights, percentages and durations (see units.h).
#include "server/engine/units.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hotlines {

namespace {
std::string printf_string(const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// |w| in the largest of `labels` it reaches (each `step` times the one before), as hundredths
// rounded half away from zero; a value that rounds to `step` (1024.00 KiB) moves up a unit.
std::string scaled(int64_t w, uint64_t step, const char *const *labels, int n) {
  uint64_t a = w < 0 ? 0 - static_cast<uint64_t>(w) : static_cast<uint64_t>(w);
  if (a < step) return std::to_string(w) + " " + labels[0];
  int i = 0;
  uint64_t div = 1;
  while (i + 1 < n && a / div >= step) {
    div *= step;
    i++;
  }
  auto hundredths = [&] { return a / div * 100 + (a % div * 100 + div / 2) / div; };
  uint64_t h = hundredths();
  if (h >= step * 100 && i + 1 < n) {
    div *= step;
    i++;
    h = hundredths();
  }
  char frac[4];
  snprintf(frac, sizeof frac, "%02u", static_cast<unsigned>(h % 100));
  return (w < 0 ? "-" : "") + std::to_string(h / 100) + "." + frac + " " + labels[i];
}
} // namespace

std::string format_weight(int64_t w, std::string_view unit) {
  static const char *const kTimes[] = {"ns", "\u00B5s", "ms", "s"};
  static const char *const kBytes[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (unit == "nanoseconds" || unit == "ns") return scaled(w, 1000, kTimes, 4);
  if (unit == "bytes") return scaled(w, 1024, kBytes, 5);
  return std::to_string(w);
}

std::string format_pct(double pct) {
  return printf_string("%.2f%%", pct);
}

std::string format_seconds(int64_t ns) {
  return printf_string("%.3fs", static_cast<double>(ns) / 1e9);
}

std::string unit_label(std::string_view unit) {
  if (unit == "nanoseconds") return "ns";
  if (unit.empty()) return "samples";
  return std::string(unit);
}

bool parse_number(std::string_view s, double *out) {
  if (s.empty()) return false;
  std::string tmp(s);
  char *end = nullptr;
  double v = std::strtod(tmp.c_str(), &end);
  if (end != tmp.c_str() + tmp.size() || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool parse_count(std::string_view s, uint64_t *out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool parse_duration_ns(std::string_view text, int64_t *ns) {
  if (text.empty()) return false;
  double total = 0;
  size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) i++;
    if (i == start) return false;
    double num;
    if (!parse_number(text.substr(start, i - start), &num)) return false;
    size_t ustart = i;
    while (i < text.size() && text[i] >= 'a' && text[i] <= 'z') i++;
    std::string_view unit = text.substr(ustart, i - ustart);
    double mult;
    if (unit == "ns")
      mult = 1;
    else if (unit == "us")
      mult = 1e3;
    else if (unit == "ms")
      mult = 1e6;
    else if (unit == "s")
      mult = 1e9;
    else if (unit == "m")
      mult = 60e9;
    else if (unit == "h")
      mult = 3600e9;
    else
      return false;
    total += num * mult;
    any = true;
  }
  if (!any) return false;
  *ns = static_cast<int64_t>(std::llround(total));
  return true;
}

} // namespace hotlines
