// Line queries: the per-file line table (every line of one recorded file with self and
// total — the editor's most frequent question, a lookup on an unfiltered view), the list of
// recorded files with their weight, and hot lines keyed by (function, file, line). Lines are
// 1-based; self = the sample's leaf frame is on the line, total = the line is anywhere in
// the stack, once per sample. Pure functions; thread-safe.
#pragma once

#include "server/engine/query_hot.h"
#include "server/engine/view_weights.h"

#include <string_view>
#include <vector>

namespace hotlines {

struct FileLine {
  int32_t line = 0;
  int64_t self = 0, total = 0;
};

struct FileLines {
  bool found = false;    // the profile has frames in this file
  std::string_view file; // the recorded file key
  int64_t view_total = 0;
  int64_t self = 0, total = 0; // the whole file (total: once per sample)
  std::vector<FileLine> lines; // lines with weight, by increasing line
};

// The line table of a recorded file key (see LineKeys / recorded_file_key()).
FileLines file_lines(const ViewWeights &view, std::string_view file);

struct RecordedFile {
  uint32_t key = kNoKey;
  std::string_view file;
  int64_t self = 0, total = 0;
};

// Every recorded file with weight in the view, hottest total first, then by name.
std::vector<RecordedFile> recorded_files(const ViewWeights &view);

struct LineRow {
  uint32_t function_key = kNoKey;
  std::string_view function;
  std::string_view file;
  int32_t line = 0;
  FrameId frame = 0; // a frame at this function and line
  int64_t self = 0, total = 0;
};

struct HotLines {
  int64_t view_total = 0;
  size_t matched = 0;
  std::vector<LineRow> rows;
};

// Hot lines by (function, file, line), ordered like hot_functions (options.method keeps the
// lines of matching functions). With by_line set, rows are ordered by function, file and
// line instead.
HotLines hot_lines(const ViewWeights &view, const HotOptions &options, bool by_line = false);

} // namespace hotlines
