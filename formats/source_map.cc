// Source map parsing and lookup (see source_map.h). `mappings` is generated lines separated by
// ';', segments by ','; each segment is 1, 4 or 5 base64 VLQ numbers: generated column (relative
// to the previous segment of the line), then source index, original line, original column and
// name index, each relative to the previous segment that had it.
#include "formats/source_map.h"

#include "formats/json_doc.h"

#include <algorithm>
#include <filesystem>

namespace hotlines {

namespace {

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Reads one VLQ number at *pos; false (and *pos at the fault) when malformed.
bool read_vlq(std::string_view s, size_t *pos, int64_t *out) {
  uint64_t value = 0;
  for (int shift = 0;; shift += 5) {
    if (*pos >= s.size() || shift > 30) return false;
    const int digit = base64_value(s[*pos]);
    if (digit < 0) return false;
    ++*pos;
    value |= static_cast<uint64_t>(digit & 31) << shift;
    if (!(digit & 32)) break;
  }
  const int64_t magnitude = static_cast<int64_t>(value >> 1);
  *out = value & 1 ? -magnitude : magnitude;
  return true;
}

// A source as a path: relative ones against the map's folder (after sourceRoot).
std::string source_path(std::string_view root, std::string_view source, std::string_view dir) {
  std::string s = root.empty() || source.substr(0, 1) == "/" || source.find("://") != source.npos
                      ? std::string(source)
                      : std::string(root) + (root.back() == '/' ? "" : "/") + std::string(source);
  if (s.rfind("file://", 0) == 0) s = s.substr(7);
  if (s.find("://") != std::string::npos) return s; // webpack://, http://: as written
  std::filesystem::path p(s);
  if (p.is_relative()) p = std::filesystem::path(dir) / p;
  return p.lexically_normal().string();
}

} // namespace

std::string SourceMap::parse(std::string_view json, std::string_view map_dir) {
  *this = SourceMap();
  JsonDoc doc;
  std::string err;
  int64_t at = -1;
  if (!doc.parse(json, &err, &at)) return err + " (at byte " + std::to_string(at) + ")";
  if (doc.type(0) != JsonType::object) return "the map is not a JSON object";
  std::vector<Placed> placed;
  int64_t lines = 0;
  const uint32_t sections = doc.member(0, "sections");
  if (sections == JsonDoc::npos) {
    err = add_map(doc, 0, map_dir, {0, {0, -1, 0, 0}}, "", &placed, &lines);
  } else {
    int64_t version = 0;
    const uint32_t v = doc.member(0, "version");
    if (v == JsonDoc::npos || !doc.integer(v, &version) || version != 3)
      return "version: expected 3";
    if (doc.type(sections) != JsonType::array) return "sections: expected an array";
    size_t i = 0;
    for (uint32_t e = doc.first(sections);
         e != JsonDoc::npos && i < doc.size(sections) && err.empty(); e = doc.next(e), i++) {
      const std::string where = "sections[" + std::to_string(i) + "]";
      const uint32_t off =
          doc.type(e) == JsonType::object ? doc.member(e, "offset") : JsonDoc::npos;
      const uint32_t map = doc.type(e) == JsonType::object ? doc.member(e, "map") : JsonDoc::npos;
      int64_t line = -1, column = -1;
      const bool offset_ok = off != JsonDoc::npos && doc.type(off) == JsonType::object &&
                             doc.member(off, "line") != JsonDoc::npos &&
                             doc.integer(doc.member(off, "line"), &line) &&
                             doc.member(off, "column") != JsonDoc::npos &&
                             doc.integer(doc.member(off, "column"), &column) && line >= 0 &&
                             column >= 0 && line <= INT32_MAX && column <= INT32_MAX;
      if (!offset_ok) return where + ".offset: expected {line, column}, integers >= 0";
      if (map == JsonDoc::npos || doc.type(map) != JsonType::object)
        return where + ".map: expected an object (a section's `url` is not read)";
      if (doc.member(map, "sections") != JsonDoc::npos)
        return where + ".map: an index map inside an index map";
      err = add_map(doc, map, map_dir,
                    {static_cast<int32_t>(line), {static_cast<int32_t>(column), -1, 0, 0}},
                    where + ".map.", &placed, &lines);
    }
  }
  if (!err.empty()) return err;
  // By generated line, then column; segments of one line stay in their order otherwise.
  std::stable_sort(placed.begin(), placed.end(), [](const Placed &a, const Placed &b) {
    return a.line != b.line ? a.line < b.line : a.segment.column < b.segment.column;
  });
  segments_.reserve(placed.size());
  line_starts_.assign(1, 0);
  for (const Placed &p : placed) {
    while (static_cast<int64_t>(line_starts_.size()) <= p.line)
      line_starts_.push_back(static_cast<uint32_t>(segments_.size()));
    segments_.push_back(p.segment);
  }
  while (static_cast<int64_t>(line_starts_.size()) <= lines)
    line_starts_.push_back(static_cast<uint32_t>(segments_.size()));
  return "";
}

std::string SourceMap::add_map(const JsonDoc &doc, uint32_t object, std::string_view map_dir,
                               Placed origin, const std::string &where, std::vector<Placed> *out,
                               int64_t *lines) {
  int64_t version = 0;
  const uint32_t v = doc.member(object, "version");
  if (v == JsonDoc::npos || !doc.integer(v, &version) || version != 3)
    return where + "version: expected 3";
  std::string root;
  if (const uint32_t r = doc.member(object, "sourceRoot"); r != JsonDoc::npos) {
    if (doc.type(r) == JsonType::string)
      root = doc.string(r);
    else if (doc.type(r) != JsonType::null)
      return where + "sourceRoot: expected a string";
  }
  const uint32_t sources = doc.member(object, "sources");
  if (sources == JsonDoc::npos || doc.type(sources) != JsonType::array)
    return where + "sources: expected an array";
  const int64_t first_source = static_cast<int64_t>(sources_.size());
  size_t i = 0;
  for (uint32_t s = doc.first(sources); s != JsonDoc::npos && i < doc.size(sources);
       s = doc.next(s), i++) {
    if (doc.type(s) == JsonType::null) {
      sources_.emplace_back();
      continue;
    }
    if (doc.type(s) != JsonType::string)
      return where + "sources[" + std::to_string(i) + "]: expected a string";
    sources_.push_back(source_path(root, doc.string(s), map_dir));
  }
  const uint32_t m = doc.member(object, "mappings");
  if (m == JsonDoc::npos || doc.type(m) != JsonType::string)
    return where + "mappings: expected a string";
  const std::string mappings = doc.string(m);
  int64_t source = 0, line = 0, column = 0;      // a segment's 5th number, a name, is not used
  int64_t gen_line = origin.line, previous = -1; // the line's last generated column
  for (size_t pos = 0; pos <= mappings.size();) {
    if (pos == mappings.size() || mappings[pos] == ';') {
      gen_line++;
      previous = -1;
      pos++;
      continue;
    }
    if (mappings[pos] == ',') {
      pos++;
      continue;
    }
    auto bad = [&](const char *what) {
      return where + "mappings: " + what + " at character " + std::to_string(pos);
    };
    if (gen_line > INT32_MAX) return bad("a generated line past 2^31");
    int64_t fields[5];
    int count = 0;
    while (pos < mappings.size() && mappings[pos] != ',' && mappings[pos] != ';') {
      if (count == 5) return bad("a segment of more than 5 numbers");
      if (!read_vlq(mappings, &pos, &fields[count++])) return bad("a malformed base64 VLQ number");
    }
    if (count != 1 && count != 4 && count != 5) return bad("a segment of 2 or 3 numbers");
    // The generated column is relative to the previous segment of the same line; a section's
    // first line starts at its offset's column.
    const int64_t gen = fields[0] + (previous >= 0             ? previous
                                     : gen_line == origin.line ? origin.segment.column
                                                               : 0);
    if (gen < 0 || gen > INT32_MAX) return bad("a negative generated column");
    previous = gen;
    Segment seg{static_cast<int32_t>(gen), -1, 0, 0};
    if (count >= 4) {
      source += fields[1], line += fields[2], column += fields[3];
      if (source < 0 || first_source + source >= static_cast<int64_t>(sources_.size()))
        return bad("a source index out of range");
      if (line < 0 || line > INT32_MAX || column < 0 || column > INT32_MAX)
        return bad("a negative original line or column");
      seg = {static_cast<int32_t>(gen), static_cast<int32_t>(first_source + source),
             static_cast<int32_t>(line), static_cast<int32_t>(column)};
    }
    out->push_back({static_cast<int32_t>(gen_line), seg});
  }
  *lines = std::max(*lines, gen_line);
  return "";
}

std::optional<OriginalPosition> SourceMap::find(int32_t line, std::optional<int32_t> column) const {
  if (line < 0 || static_cast<size_t>(line) + 1 >= line_starts_.size()) return std::nullopt;
  const Segment *begin = segments_.data() + line_starts_[line];
  const Segment *end = segments_.data() + line_starts_[line + 1];
  const Segment *hit = nullptr;
  if (!column) {
    hit = std::find_if(begin, end, [](const Segment &s) { return s.source >= 0; });
    if (hit == end) return std::nullopt;
  } else {
    const Segment *after = std::upper_bound(
        begin, end, std::max(*column, 0), [](int32_t c, const Segment &s) { return c < s.column; });
    if (after == begin) return std::nullopt;
    hit = after - 1;
    if (hit->source < 0) return std::nullopt;
  }
  return OriginalPosition{static_cast<uint32_t>(hit->source), hit->line, hit->original_column};
}

} // namespace hotlines

namespace hotlines {

std::optional<OriginalPosition> SourceMap::find_next(int32_t line, int32_t column) const {
  if (line < 0 || static_cast<size_t>(line) + 1 >= line_starts_.size()) return std::nullopt;
  for (size_t i = line_starts_[line]; i < segments_.size(); i++) {
    const Segment &s = segments_[i];
    if (s.source < 0 || (i < line_starts_[line + 1] && s.column < column)) continue;
    return OriginalPosition{static_cast<uint32_t>(s.source), s.line, s.original_column};
  }
  return std::nullopt;
}

} // namespace hotlines
