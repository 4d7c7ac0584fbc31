// Skipped malformed lines (see skipped_lines.h).
#include "formats/skipped_lines.h"

namespace hotlines {

void SkippedLines::add(int64_t line_no, std::string_view text, std::string_view why) {
  if (count++ > 0) return;
  first_line = line_no;
  first_text = std::string(text.substr(0, 200));
  first_reason = std::string(why);
}

void SkippedLines::warn(ProfileBuilder &b) const {
  if (count == 0) return;
  b.warn("skipped " + std::to_string(count) + " malformed line" + (count == 1 ? "" : "s") +
             "; first at line " + std::to_string(first_line) + " (" + first_reason + "): '" +
             first_text + "'",
         -1, first_line);
}

LoadResult SkippedLines::failure(std::string_view what) const {
  return LoadResult::failure("no valid " + std::string(what) + " (" + first_reason + ": '" +
                                 first_text + "')",
                             -1, first_line);
}

} // namespace hotlines
