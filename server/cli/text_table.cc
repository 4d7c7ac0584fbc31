// Aligned text tables for the CLI (see text_table.h).
// Threading: Single-threaded (the CLI's main thread).
#include "server/cli/text_table.h"

#include <algorithm>
#include <string_view>

namespace hotlines {

namespace {
size_t display_width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80; // count UTF-8 code points
  return n;
}
} // namespace

TextTable::TextTable(Columns columns) : columns_(std::move(columns)) {}

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
