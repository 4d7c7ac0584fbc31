// Text output helpers for the CLI: weights with units (ms, MB, samples), percentages, times,
// and TextTable, which aligns columns (numbers right, text left, the last column unpadded).
// Single-threaded (the CLI's main thread).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

// A weight in its unit: "12.5 ms" / "1.20 s" (nanoseconds), "117.48 MB" (bytes, binary
// multiples as pprof prints them), "2530" (samples and counts).
std::string format_weight(int64_t weight, std::string_view unit);
// "38.12%".
std::string format_pct(double pct);
// A time offset: "1.250s".
std::string format_seconds(int64_t ns);
// What the unit column says: "samples", "ns", "bytes", ... for headers.
std::string unit_label(std::string_view unit);

class TextTable {
public:
  enum Align { left, right };
  explicit TextTable(std::vector<std::pair<std::string, Align>> columns);
  void add(std::vector<std::string> cells);
  // The table with a header line; columns separated by two spaces.
  std::string render(bool header = true) const;
  size_t rows() const { return rows_.size(); }

private:
  std::vector<std::pair<std::string, Align>> columns_;
  std::vector<std::vector<std::string>> rows_;
};

} // namespace hotlines
