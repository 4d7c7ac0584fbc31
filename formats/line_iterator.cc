// Lines of a text in memory or streamed (see line_iterator.h).
#include "formats/line_iterator.h"

#include <algorithm>

namespace hotlines {

LineIterator::LineIterator(std::string_view text, const LoadOptions &options)
    : options_(options), text_(text), ended_(true) {
  fraction_ = [this] {
    return text_.empty() ? 1.0 : std::min(1.0, static_cast<double>(pos_) / text_.size());
  };
}

LineIterator::LineIterator(Source source, const LoadOptions &options)
    : options_(options), source_(std::move(source)) {}

// Finds the end of the line at pos_, reading more of a streamed text while there is no '\n'.
bool LineIterator::find_line() {
  if (have_line_) return true;
  for (;;) {
    if (!bom_checked_ && (text_.size() >= 3 || ended_)) {
      bom_checked_ = true;
      if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = scanned_ = 3;
    }
    size_t nl = text_.find('\n', scanned_);
    if (nl != std::string_view::npos) {
      line_end_ = nl;
      return have_line_ = true;
    }
    scanned_ = text_.size();
    if (ended_) {
      if (pos_ >= text_.size()) return false;
      line_end_ = text_.size(); // the last line, without a '\n'
      return have_line_ = true;
    }
    // Carry the cut line to the front and append the next chunk behind it.
    buf_.erase(0, pos_);
    scanned_ -= pos_;
    pos_ = 0;
    if (!source_(&buf_)) ended_ = true;
    text_ = buf_;
  }
}

bool LineIterator::peek(std::string_view *line) {
  if (cancelled_ || !find_line()) return false;
  *line = text_.substr(pos_, line_end_ - pos_);
  return true;
}

bool LineIterator::next(std::string_view *line) {
  if ((line_no_ & 0xffff) == 0xffff) {
    if (options_.cancelled()) cancelled_ = true;
    if (!cancelled_ && options_.progress && fraction_) options_.progress(fraction_());
  }
  if (!peek(line)) return false;
  have_line_ = false;
  pos_ = scanned_ = line_end_ + 1;
  line_no_++;
  return true;
}

} // namespace hotlines
