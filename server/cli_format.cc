// CLI text formatting (see cli_format.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli_format.h"

#include <cstdio>

namespace hotlines {

namespace {
std::string printf_string(const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  return buf;
}
size_t display_width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80; // count UTF-8 code points
  return n;
}
} // namespace

std::string format_weight(int64_t w, std::string_view unit) {
  double v = static_cast<double>(w);
  double a = v < 0 ? -v : v;
  if (unit == "nanoseconds" || unit == "ns") {
    if (a >= 1e9) return printf_string("%.2f s", v / 1e9);
    if (a >= 1e6) return printf_string("%.2f ms", v / 1e6);
    if (a >= 1e3) return printf_string("%.2f us", v / 1e3);
    return std::to_string(w) + " ns";
  }
  if (unit == "bytes") {
    if (a >= 1073741824.0) return printf_string("%.2f GB", v / 1073741824.0);
    if (a >= 1048576.0) return printf_string("%.2f MB", v / 1048576.0);
    if (a >= 1024.0) return printf_string("%.2f KB", v / 1024.0);
    return std::to_string(w) + " B";
  }
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

TextTable::TextTable(std::vector<std::pair<std::string, Align>> columns)
    : columns_(std::move(columns)) {}

void TextTable::add(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render(bool header) const {
  std::vector<size_t> width(columns_.size(), 0);
  if (header)
    for (size_t c = 0; c < columns_.size(); c++) width[c] = display_width(columns_[c].first);
  for (const auto &row : rows_)
    for (size_t c = 0; c < row.size(); c++) width[c] = std::max(width[c], display_width(row[c]));
  std::string out;
  auto line = [&](const std::vector<std::string> &cells) {
    std::string l;
    for (size_t c = 0; c < cells.size(); c++) {
      size_t pad = width[c] - display_width(cells[c]);
      bool last = c + 1 == cells.size();
      if (c) l += "  ";
      if (columns_[c].second == right)
        l += std::string(pad, ' ') + cells[c];
      else
        l += last ? cells[c] : cells[c] + std::string(pad, ' ');
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  if (header) {
    std::vector<std::string> h;
    for (const auto &c : columns_) h.push_back(c.first);
    line(h);
  }
  for (const auto &row : rows_) line(row);
  return out;
}

} // namespace hotlines
