// TextDocument: an editor's open document — its current text as lines, its version, and for
// each current line where it came from in the text the document was opened with (the saved
// file, which the profile's line numbers describe). Edits (full or incremental, positions in
// UTF-16 code units as LSP sends them) keep that origin map current, so annotations follow
// unsaved edits: lines inserted above move an annotated line down; an annotated line that is
// itself edited keeps its origin but is marked stale. Not thread-safe; the loop owns it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

struct TextPosition {
  int64_t line = 0, character = 0; // 0-based; character in UTF-16 code units
};

class TextDocument {
public:
  struct Origin {
    int32_t line = -1;  // 0-based line of the opened text, -1 for an inserted line
    bool stale = false; // the line was edited since
  };

  TextDocument(std::string uri, std::string language, int64_t version, std::string_view text);

  const std::string &uri() const { return uri_; }
  const std::string &language() const { return language_; }
  int64_t version() const { return version_; }
  const std::vector<std::string> &lines() const { return lines_; }

  // Full-document change: lines equal at the start and end keep their origin; changed lines
  // in between map to the old lines at the same offset (stale), extra lines are new.
  void replace_all(std::string_view text, int64_t version);
  // Incremental change of [start, end) to `text`. Positions past the end are clamped.
  void apply(TextPosition start, TextPosition end, std::string_view text, int64_t version);

  // Where current line `line` (0-based) came from.
  Origin origin(int64_t line) const;
  // The current 0-based line of opened-text line `opened` (-1 when deleted).
  int32_t current_line(int32_t opened) const;
  // True when nothing was edited since opening.
  bool pristine() const { return pristine_; }

  // Byte offset in `line` of a UTF-16 code unit offset (clamped to the line).
  static size_t byte_offset(std::string_view line, int64_t utf16);
  // UTF-16 length of a UTF-8 line.
  static int64_t utf16_length(std::string_view line);

private:
  void rebuild_reverse() const;

  std::string uri_, language_;
  int64_t version_ = 0;
  std::vector<std::string> lines_; // without line terminators ('\r' of CRLF is kept)
  std::vector<Origin> origin_;     // per current line
  bool pristine_ = true;
  mutable std::vector<int32_t> reverse_; // opened line -> current line, rebuilt on demand
  mutable bool reverse_valid_ = false;
};

} // namespace hotlines
