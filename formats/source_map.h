// SourceMap: one source map (revision 3, as tsc, esbuild and most bundlers write them): its
// `sources` resolved to paths and its base64-VLQ `mappings` decoded into segments, so that a
// generated JavaScript position (0-based line and column) gives the original file and line.
// Index maps (`sections`, each with an `offset` and an inline `map`; a section's `url` is not
// read) become one map: each section's lines shifted by its offset (its first line's columns
// too), its sources appended. Immutable once parsed; any thread may read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

class JsonDoc;

struct OriginalPosition {
  uint32_t source = 0; // index into SourceMap::sources()
  int32_t line = 0;    // 0-based
  int32_t column = 0;  // 0-based
};

class SourceMap {
public:
  // Parses the map's JSON text. `map_dir` is the folder of the map file (of the script, for a
  // map inlined as a data: URL): relative sources resolve against it, after `sourceRoot`.
  // Returns "" or what is wrong, with the JSON path or the offset in `mappings`.
  std::string parse(std::string_view json, std::string_view map_dir);

  // Sources as paths: absolute and lexically normal when they were relative or file:// URLs;
  // other URLs (webpack://…) as written.
  const std::vector<std::string> &sources() const { return sources_; }

  // The original position of generated line `line`, column `column` (0-based): the last segment
  // of that line at or before the column. A column below 0 (a wrapper's: vitest starts its
  // module function 172 columns before the script's text) is the line's start. Without a column
  // (unknown: V8's per-line ticks) the line's first segment that has a source. nullopt when the
  // position maps to nothing.
  std::optional<OriginalPosition> find(int32_t line, std::optional<int32_t> column) const;
  // The first segment with a source at or after (line, column): where a function starting on
  // unmapped code (tsc's `"use strict";` before a module's first line) begins in the source.
  std::optional<OriginalPosition> find_next(int32_t line, int32_t column) const;

private:
  struct Segment {
    int32_t column; // generated column
    int32_t source; // -1: a segment without a source (maps to nothing)
    int32_t line, original_column;
  };
  struct Placed {
    int32_t line; // generated line
    Segment segment;
  };
  // Adds the map at `object` of `doc` (a whole map, or a section's), its generated positions
  // moved by `origin` (line; column on its first line), to sources_ and *out; *lines: the
  // generated lines seen so far. Returns "" or what is wrong, after `where` ("sections[1].map.").
  std::string add_map(const JsonDoc &doc, uint32_t object, std::string_view map_dir, Placed origin,
                      const std::string &where, std::vector<Placed> *out, int64_t *lines);
  std::vector<std::string> sources_;
  std::vector<Segment> segments_;     // by generated line, then column
  std::vector<uint32_t> line_starts_; // generated line i: segments_[line_starts_[i]..[i + 1])
};

} // namespace hotlines
