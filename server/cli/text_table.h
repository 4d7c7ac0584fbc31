// TextTable: the CLI's aligned text tables (numbers right, text left, the last column
// unpadded, widths in UTF-8 code points). Single-threaded (the CLI's main thread).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hotlines {

class TextTable {
public:
  enum Align { left, right };
  using Columns = std::vector<std::pair<std::string, Align>>; // header and alignment
  explicit TextTable(Columns columns);
  void add(std::vector<std::string> cells);
  // The table with a header line; columns separated by two spaces.
  std::string render(bool header = true) const;
  size_t rows() const { return rows_.size(); }

private:
  Columns columns_;
  std::vector<std::vector<std::string>> rows_;
};

} // namespace hotlines
