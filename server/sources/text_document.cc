// TextDocument: lines, edits and the origin map (see text_document.h).
#include "server/sources/text_document.h"

#include <algorithm>
#include <cstddef>

namespace hotlines {

namespace {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      out.emplace_back(text.substr(start));
      return out;
    }
    out.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
}

} // namespace

TextDocument::TextDocument(std::string uri, std::string language, int64_t version,
                           std::string_view text)
    : uri_(std::move(uri)), language_(std::move(language)), version_(version),
      lines_(split_lines(text)) {
  origin_.resize(lines_.size());
  for (size_t i = 0; i < origin_.size(); i++) origin_[i].line = static_cast<int32_t>(i);
}

size_t TextDocument::byte_offset(std::string_view line, int64_t utf16) {
  size_t i = 0;
  int64_t units = 0;
  while (i < line.size() && units < utf16) {
    auto c = static_cast<unsigned char>(line[i]);
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    units += len == 4 ? 2 : 1; // 4-byte sequences are surrogate pairs in UTF-16
    i = std::min(line.size(), i + len);
  }
  return i;
}

int64_t TextDocument::utf16_length(std::string_view line) {
  int64_t units = 0;
  for (unsigned char c : line) {
    if ((c & 0xC0) == 0x80) continue; // continuation byte
    units += c >= 0xF0 ? 2 : 1;
  }
  return units;
}

void TextDocument::replace_all(std::string_view text, int64_t version) {
  std::vector<std::string> next = split_lines(text);
  version_ = version;
  if (next == lines_) return;
  pristine_ = false;
  reverse_valid_ = false;
  size_t old_n = lines_.size(), new_n = next.size();
  size_t prefix = 0;
  while (prefix < old_n && prefix < new_n && lines_[prefix] == next[prefix]) prefix++;
  size_t suffix = 0;
  while (suffix < old_n - prefix && suffix < new_n - prefix &&
         lines_[old_n - 1 - suffix] == next[new_n - 1 - suffix])
    suffix++;
  std::vector<Origin> origin(new_n);
  for (size_t i = 0; i < prefix; i++) origin[i] = origin_[i];
  for (size_t i = 0; i < suffix; i++) origin[new_n - 1 - i] = origin_[old_n - 1 - i];
  // The middle: lines common to both (a longest common subsequence, when small enough) keep
  // their origin; a changed run maps to the old run it replaced, stale; extra lines are new.
  const size_t n = old_n - prefix - suffix, m = new_n - prefix - suffix;
  auto old_at = [&](size_t i) -> const std::string & { return lines_[prefix + i]; };
  auto new_at = [&](size_t j) -> const std::string & { return next[prefix + j]; };
  std::vector<uint32_t> lcs;
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= 4'000'000) {
    lcs.assign((n + 1) * (m + 1), 0);
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        lcs[i * (m + 1) + j] = old_at(i) == new_at(j)
                                   ? lcs[(i + 1) * (m + 1) + j + 1] + 1
                                   : std::max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
  }
  size_t i = 0, j = 0, run_old = 0, run_new = 0;
  auto flush = [&] {
    for (size_t k = 0; k < std::min(run_old, run_new); k++)
      origin[prefix + j - run_new + k] = {origin_[prefix + i - run_old + k].line, true};
    run_old = run_new = 0;
  };
  while (i < n || j < m) {
    if (i < n && j < m && !lcs.empty() && old_at(i) == new_at(j)) {
      flush();
      origin[prefix + j] = origin_[prefix + i];
      i++, j++;
    } else if (j < m &&
               (i == n || lcs.empty() || lcs[i * (m + 1) + j + 1] >= lcs[(i + 1) * (m + 1) + j])) {
      j++, run_new++;
    } else {
      i++, run_old++;
    }
  }
  flush();
  lines_ = std::move(next);
  origin_ = std::move(origin);
}

void TextDocument::apply(TextPosition start, TextPosition end, std::string_view text,
                         int64_t version) {
  version_ = version;
  const int64_t last = static_cast<int64_t>(lines_.size()) - 1;
  auto clamp = [&](TextPosition p) {
    if (p.line < 0) return TextPosition{0, 0};
    if (p.line > last) return TextPosition{last, utf16_length(lines_[last])};
    return p;
  };
  start = clamp(start);
  end = clamp(end);
  if (end.line < start.line || (end.line == start.line && end.character < start.character))
    std::swap(start, end);
  const size_t sl = static_cast<size_t>(start.line), el = static_cast<size_t>(end.line);
  const std::string &first = lines_[sl], &lastl = lines_[el];
  const size_t bs = byte_offset(first, start.character), be = byte_offset(lastl, end.character);
  if (sl == el && bs == be && text.empty()) return;
  pristine_ = false;
  reverse_valid_ = false;

  std::vector<std::string> parts = split_lines(text);
  const size_t k = parts.size() - 1; // newlines inserted
  const std::string prefix = first.substr(0, bs), suffix = lastl.substr(be);
  const bool first_whole = bs == first.size(); // the prefix is all of the first old line
  std::vector<std::string> new_lines(k + 1);
  std::vector<Origin> new_origin(k + 1);
  if (k == 0) {
    new_lines[0] = prefix + parts[0] + suffix;
    if (bs == 0 && parts[0].empty()) // whole lines deleted: what is left is old line `el`
      new_origin[0] = {origin_[el].line, origin_[el].stale || be != 0};
    else
      new_origin[0] = {origin_[sl].line, true};
  } else {
    new_lines[0] = prefix + parts[0];
    for (size_t i = 1; i < k; i++) new_lines[i] = parts[i];
    new_lines[k] = parts[k] + suffix;
    bool first_taken = false;
    if (bs > 0) { // line 0 keeps (part of) old line `sl`
      new_origin[0] = {origin_[sl].line,
                       origin_[sl].stale || !first_whole || !parts[0].empty() || sl != el};
      first_taken = true;
    }
    if (parts[k].empty() && be == 0 && !(first_taken && sl == el))
      new_origin[k] = origin_[el]; // the last line is old line `el`, untouched
    else if (!suffix.empty() && !(first_taken && sl == el))
      new_origin[k] = {origin_[el].line, true};
  }
  lines_.erase(lines_.begin() + static_cast<std::ptrdiff_t>(sl),
               lines_.begin() + static_cast<std::ptrdiff_t>(el) + 1);
  lines_.insert(lines_.begin() + static_cast<std::ptrdiff_t>(sl), new_lines.begin(),
                new_lines.end());
  origin_.erase(origin_.begin() + static_cast<std::ptrdiff_t>(sl),
                origin_.begin() + static_cast<std::ptrdiff_t>(el) + 1);
  origin_.insert(origin_.begin() + static_cast<std::ptrdiff_t>(sl), new_origin.begin(),
                 new_origin.end());
}

TextDocument::Origin TextDocument::origin(int64_t line) const {
  if (line < 0 || line >= static_cast<int64_t>(origin_.size())) return {};
  return origin_[static_cast<size_t>(line)];
}

void TextDocument::rebuild_reverse() const {
  reverse_.clear();
  for (size_t i = 0; i < origin_.size(); i++) {
    int32_t o = origin_[i].line;
    if (o < 0) continue;
    if (static_cast<size_t>(o) >= reverse_.size()) reverse_.resize(static_cast<size_t>(o) + 1, -1);
    if (reverse_[static_cast<size_t>(o)] < 0)
      reverse_[static_cast<size_t>(o)] = static_cast<int32_t>(i);
  }
  reverse_valid_ = true;
}

int32_t TextDocument::current_line(int32_t opened) const {
  if (pristine_) return opened < static_cast<int32_t>(lines_.size()) ? opened : -1;
  if (!reverse_valid_) rebuild_reverse();
  if (opened < 0 || static_cast<size_t>(opened) >= reverse_.size()) return -1;
  return reverse_[static_cast<size_t>(opened)];
}

} // namespace hotlines
