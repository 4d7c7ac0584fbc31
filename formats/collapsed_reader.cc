// Collapsed stacks reader (see collapsed_reader.h). Line format, root first:
//   [thread tid=N];frame;frame:LINE_[j];…;leaf COUNT
// The count is the last space-separated token (frames may contain spaces). A first frame in
// brackets names the thread, unless it is one of async-profiler's pseudo-frames. `_[x]`
// suffixes give the frame kind and `:LINE` the line; both are stripped from the name.
#include "formats/collapsed_reader.h"

#include "formats/collapsed_frames.h"
#include "formats/line_iterator.h"
#include "formats/profile_builder.h"
#include "formats/skipped_lines.h"

#include <charconv>
#include <vector>

namespace hotlines {

namespace {

class CollapsedParser {
public:
  explicit CollapsedParser(const LoadOptions &options) : options_(options), names_(b_) {
    event_ = b_.event("samples", "samples");
    b_.event_at(event_).sources.push_back(b_.intern("collapsed"));
  }

  LoadResult parse(std::string_view text) {
    threaded_ = every_line_starts_with_thread(text);
    LineIterator lines(text, options_);
    std::string_view line;
    while (lines.next(&line)) {
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
      if (const char *why = parse_line(line)) skipped_.add(lines.line_no(), line, why);
    }
    if (lines.cancelled()) return LoadResult::failure("cancelled");
    if (good_lines_ == 0) {
      if (skipped_.count == 0) return LoadResult::failure("empty profile: no stack lines", 0, 1);
      return skipped_.failure("collapsed-stack line");
    }
    skipped_.warn(b_);
    Metadata &m = b_.metadata();
    m.format = "collapsed";
    m.producer = "collapsed stacks";
    return LoadResult::success(b_.finish());
  }

private:
  // Returns nullptr on success, else why the line is malformed.
  const char *parse_line(std::string_view line) {
    size_t sp = line.find_last_of(' ');
    if (sp == std::string_view::npos) return "no count";
    std::string_view count_text = line.substr(sp + 1), stack = line.substr(0, sp);
    while (!stack.empty() && (stack.back() == ' ' || stack.back() == '\t')) stack.remove_suffix(1);
    int64_t count = 0;
    auto [p, ec] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
    if (ec == std::errc::result_out_of_range) return "count above 2^63-1";
    if (ec != std::errc() || p != count_text.data() + count_text.size() || count < 0)
      return "count is not a non-negative integer";
    if (stack.empty()) return "no frames";
    frames_.clear();
    ThreadId thread = kNoThread;
    bool first = true;
    size_t start = 0;
    while (start <= stack.size()) {
      size_t semi = stack.find(';', start);
      size_t stop = semi == std::string_view::npos ? stack.size() : semi;
      std::string_view f = stack.substr(start, stop - start);
      start = stop + 1;
      if (f.empty()) return "empty frame";
      if (first && threaded_ && f.size() >= 2 && f.front() == '[' && f.back() == ']') {
        thread = names_.thread(f.substr(1, f.size() - 2));
      } else {
        frames_.push_back(names_.frame(f));
      }
      first = false;
      if (semi == std::string_view::npos) break;
    }
    good_lines_++;
    if (count == 0) return nullptr; // a valid line that carries no weight
    if (thread == kNoThread) {      // lines without a thread frame share one unnamed thread
      if (unnamed_thread_ == kNoThread) unnamed_thread_ = b_.thread("");
      thread = unnamed_thread_;
    }
    b_.add_sample(event_, b_.stack_from_root(frames_), thread, 0, count, count);
    return nullptr;
  }

  // Thread frames are recognised per file: a file is threaded when every stack line's first
  // frame is bracketed (a few async-profiler pseudo-frames like `[unknown]` do not count).
  static bool every_line_starts_with_thread(std::string_view text) {
    size_t lines = 0, threaded = 0, pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      std::string_view line =
          text.substr(pos, (nl == std::string_view::npos ? text.size() : nl) - pos);
      pos = nl == std::string_view::npos ? text.size() : nl + 1;
      size_t b = line.find_first_not_of(" \t\r");
      if (b == std::string_view::npos) continue;
      lines++;
      size_t semi = line.find(';');
      size_t sp = line.find_last_of(' ');
      std::string_view first = line.substr(0, std::min(semi, sp));
      if (CollapsedFrames::is_thread_frame(first)) threaded++;
    }
    return lines > 0 && threaded == lines;
  }

  static constexpr ThreadId kNoThread = UINT32_MAX;
  const LoadOptions &options_;
  ProfileBuilder b_;
  CollapsedFrames names_;
  ThreadId unnamed_thread_ = kNoThread;
  bool threaded_ = false;
  EventId event_;
  std::vector<FrameId> frames_;
  int64_t good_lines_ = 0;
  SkippedLines skipped_;
};

} // namespace

LoadResult read_collapsed(std::string_view text, const LoadOptions &options) {
  CollapsedParser parser(options);
  return parser.parse(text);
}

} // namespace hotlines
