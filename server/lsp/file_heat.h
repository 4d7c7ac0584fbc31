// FileHeat: what the editor shows for one source file under one view — every profiled line
// and every profiled function of the file with self and total in both measures (count and
// value) — built from the recorded file keys that resolve to the file. FileFunctions, built
// once per profile, lists the functions of each recorded file with the span of their
// profiled lines. Pure; any thread.
#pragma once

#include "protocol/hotlines_types.h"
#include "server/engine/profile_index.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace hotlines {

class FileFunctions {
public:
  struct Entry {
    uint32_t function_key = kNoKey;        // FunctionKeys (name grouping)
    int32_t first_line = 0, last_line = 0; // profiled lines (0 when the frames have none)
  };
  explicit FileFunctions(const ProfileIndex &index);
  // The functions of a recorded file key, by first line.
  std::span<const Entry> of_file(uint32_t file_key) const;

private:
  std::vector<std::vector<Entry>> by_file_;
};

struct HeatLine {
  int32_t line = 0; // 1-based, in the profiled text
  Weight self, total;
};

struct HeatFunction {
  uint32_t key = kNoKey;
  std::string name;
  int32_t first_line = 0, last_line = 0;
  Weight self, total;
};

struct FileHeat {
  std::string event, unit;
  Weight view_total;
  bool self_only = false;              // totals unknown (Metadata::self_only)
  std::vector<std::string> file_keys;  // the recorded files merged into this one
  std::vector<HeatLine> lines;         // by line
  std::vector<HeatFunction> functions; // by first line
  int64_t max_self = 0;                // the highest line self (value measure) in the whole view
  std::shared_ptr<const FileHeat> baseline; // the same file in the baseline profile, if set
  const HeatLine *find(int32_t line) const;
};

// The heat of the files `file_keys` (recorded file keys) in a view computed for both
// measures (`value` and `count` must be the same view but for the measure).
FileHeat compute_file_heat(const ViewWeights &value, const ViewWeights &count,
                           const FileFunctions &functions, std::span<const std::string> file_keys);

} // namespace hotlines
