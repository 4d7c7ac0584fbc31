// async-profiler text output reader (see ap_text_reader.h). The agent's dumpText writes:
//   --- Execution profile ---
//   Total samples       : 1478
//   [NAME : COUNT (PCT%)]...                  samples it failed to walk, by reason
//
//   --- 619367508 ns (20.82%), 308 samples   one block per stack, heaviest first
//     [ 0] libmSin                            leaf first; names dotted, `_[k]` on kernel frames
//     [ 1] org.acme.shop.Pricing.cached
//
//             ns  percent  samples  top       the flat list: self weight per leaf name
//     ----------  -------  -------  ---
//     1506323000   49.50%      750  libmSin
// Shares are of every stack's weight; `traces=N` and `flat=N` print only the first N, which
// the shares then show (they no longer add up from the listed weights): a warning says so.
#include "formats/ap_text_reader.h"

#include "formats/ap_output_event.h"
#include "formats/collapsed_frames.h"
#include "formats/frame_text.h"
#include "formats/line_iterator.h"
#include "formats/profile_builder.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <unordered_set>
#include <vector>

namespace hotlines {

namespace {

constexpr std::string_view kHeader = "--- Execution profile ---";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Reads a non-negative integer at the start of *s and skips it; false when there is none.
bool take_int(std::string_view *s, int64_t *v) {
  auto [p, ec] = std::from_chars(s->data(), s->data() + s->size(), *v);
  if (ec != std::errc() || *v < 0) return false;
  s->remove_prefix(static_cast<size_t>(p - s->data()));
  return true;
}

// Reads `12.34%` at the start of *s (hundredths) and skips it.
bool take_pct(std::string_view *s, int64_t *hundredths) {
  int64_t whole = 0, frac = 0;
  if (!take_int(s, &whole) || s->size() < 4 || (*s)[0] != '.') return false;
  s->remove_prefix(1);
  std::string_view digits = s->substr(0, 2);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() != 2 ||
      !take_int(&digits, &frac))
    return false;
  s->remove_prefix(2);
  if (s->empty() || (*s)[0] != '%') return false;
  s->remove_prefix(1);
  if (whole > 100) return false;
  *hundredths = whole * 100 + frac;
  return true;
}

bool skip(std::string_view *s, std::string_view lit) {
  if (s->substr(0, lit.size()) != lit) return false;
  s->remove_prefix(lit.size());
  return true;
}

struct Trace {
  int64_t weight = 0, samples = 0, pct = 0; // pct in hundredths
  int64_t line = 0;
  std::vector<std::string_view> frames; // leaf first
};

struct FlatRow {
  int64_t weight = 0, samples = 0, pct = 0;
  std::string_view name;
};

class TextParser {
public:
  TextParser(std::string_view text, const LoadOptions &options)
      : lines_(text, options), names_(b_) {}

  LoadResult parse() {
    std::string_view line;
    if (!next_line(&line) || trim(line) != kHeader)
      return fail("not an async-profiler text profile: the first line is not '" +
                  std::string(kHeader) + "'");
    if (!next_line(&line)) return fail("no 'Total samples' line");
    std::string_view t = trim(line);
    if (!skip(&t, "Total samples") || (t = trim(t)).empty() || !skip(&t, ":") ||
        !(t = trim(t), take_int(&t, &total_samples_)) || !t.empty())
      return fail("expected 'Total samples : N'");
    while (next_line(&line)) {
      t = trim(line);
      if (t.empty()) continue;
      if (t.substr(0, 4) == "--- ") {
        if (LoadResult r = read_trace(t); !r.error.empty()) return r;
      } else if (t.substr(0, 2) == "[ " || (t.size() > 1 && t[0] == '[' && isdigit(t[1]))) {
        return fail("a frame outside a stack block");
      } else if (flat_units_.empty() && traces_.empty() && t.find(": ") != std::string_view::npos) {
        continue; // a failure-reason line of the summary: `unknown_Java : 3 (0.20%)`
      } else if (size_t p = t.find("  percent  samples  top"); p != std::string_view::npos) {
        if (LoadResult r = read_flat(trim(t.substr(0, p))); !r.error.empty()) return r;
      } else {
        return fail("unexpected line '" + std::string(t.substr(0, 80)) + "'");
      }
    }
    if (lines_.cancelled()) return LoadResult::failure("cancelled");
    if (traces_.empty() && flat_.empty())
      return LoadResult::failure("async-profiler text profile without stacks or functions", -1,
                                 std::max<int64_t>(lines_.line_no(), 1));
    return traces_.empty() ? build_flat() : build_traces();
  }

private:
  bool next_line(std::string_view *line) { return lines_.next(line); }
  // Looks at the next line without taking it.
  bool peek_line(std::string_view *line) { return lines_.peek(line); }

  LoadResult fail(std::string why, int64_t line = -1) const {
    // A cancelled load reads as an early end of the text: say what it is instead.
    if (lines_.cancelled()) return LoadResult::failure("cancelled");
    // An empty text has no line read yet: its error is on line 1.
    return LoadResult::failure("async-profiler text profile: " + why, -1,
                               line < 0 ? std::max<int64_t>(lines_.line_no(), 1) : line);
  }

  bool same_units(std::string_view units) {
    if (units_.empty()) units_ = std::string(units);
    return units_ == units;
  }

  // `--- 619367508 ns (20.82%), 308 samples` and its frames.
  LoadResult read_trace(std::string_view t) {
    if (!flat_.empty()) return fail("a stack block after the flat list");
    Trace tr;
    tr.line = lines_.line_no();
    t.remove_prefix(4);
    std::string_view units;
    if (!take_int(&t, &tr.weight) || !skip(&t, " ") || (units = t.substr(0, t.find(' '))).empty() ||
        (t.remove_prefix(units.size()), !skip(&t, " (")) || !take_pct(&t, &tr.pct) ||
        !skip(&t, "), ") || !take_int(&t, &tr.samples) ||
        !(t == "samples" || t == "sample" || t == " samples" || t == " sample"))
      return fail("expected '--- WEIGHT UNITS (PCT%), N samples'");
    if (!same_units(units))
      return fail("units '" + std::string(units) + "' after '" + units_ + "'");
    if (tr.samples == 0) return fail("a stack of 0 samples");
    std::string_view line;
    while (peek_line(&line)) {
      std::string_view f = trim(line);
      if (f.empty() || f[0] != '[') break;
      next_line(&line);
      const size_t close = f.find("] ");
      int64_t index = -1;
      std::string_view num = trim(f.substr(1, close == std::string_view::npos ? 0 : close - 1));
      if (close == std::string_view::npos || !take_int(&num, &index) || !num.empty())
        return fail("expected a frame '[ N] name'");
      if (index != static_cast<int64_t>(tr.frames.size()))
        return fail("frame [" + std::to_string(index) + "] where [" +
                    std::to_string(tr.frames.size()) + "] was due");
      const std::string_view name = f.substr(close + 2);
      if (name.empty()) return fail("a frame without a name");
      tr.frames.push_back(name);
    }
    if (tr.frames.empty()) return fail("a stack block without frames", tr.line);
    traces_.push_back(std::move(tr));
    return {};
  }

  // The flat list after its header `UNITS  percent  samples  top`.
  LoadResult read_flat(std::string_view units) {
    if (!flat_.empty() || units.empty()) return fail("a second flat list");
    if (!same_units(units))
      return fail("units '" + std::string(units) + "' after '" + units_ + "'");
    flat_units_ = std::string(units);
    std::string_view line;
    if (!next_line(&line) || trim(line).substr(0, 3) != "---")
      return fail("expected the flat list's '----------  -------' rule");
    while (peek_line(&line) && !trim(line).empty()) {
      next_line(&line);
      std::string_view t = trim(line);
      FlatRow row;
      if (!take_int(&t, &row.weight) || (t = trim(t)).empty() || !take_pct(&t, &row.pct) ||
          (t = trim(t)).empty() || !take_int(&t, &row.samples) || (t = trim(t)).empty())
        return fail("expected 'WEIGHT PCT% SAMPLES NAME'");
      if (row.samples == 0) return fail("a function of 0 samples");
      row.name = t;
      flat_.push_back(row);
    }
    if (flat_.empty()) return fail("an empty flat list");
    return {};
  }

  // A frame of the text (dotted, `_[k]` on kernel frames) in the collapsed form.
  FrameId frame(std::string_view name) {
    const FrameKind kind = take_kind_suffix(&name);
    if (kind == FrameKind::kernel || kind == FrameKind::native || kind == FrameKind::cpp)
      return names_.frame(name, kind);
    return names_.frame(collapsed_frame_name(name), kind);
  }

  // Shares as printed against shares recomputed from the listed weights: equal (to the
  // printed rounding) when the file lists everything. Else a warning with the listed share.
  template <class Rows> void check_shares(const Rows &rows, const char *what, int64_t n) {
    int64_t sum = 0, printed = 0;
    for (const auto &r : rows) sum = saturating_add(sum, r.weight), printed += r.pct;
    bool complete = sum > 0;
    for (const auto &r : rows) {
      const double want = 100.0 * static_cast<double>(r.weight) / static_cast<double>(sum);
      if (std::fabs(want - static_cast<double>(r.pct) / 100) > 0.0051) complete = false;
    }
    if (!complete)
      b_.warn("the file lists " + std::to_string(n) + " " + what + " holding " +
              std::to_string(printed / 100) + "." + std::to_string(printed % 100 / 10) +
              std::to_string(printed % 10) +
              "% of the profile (async-profiler printed only the heaviest); the rest is not in "
              "it, and shares here are of what is listed");
  }

  EventId make_event(bool class_leaves, bool self_only) {
    const ApOutputEvent ev = ap_output_event("", units_, class_leaves, "cpu");
    const EventId id = b_.event(ev.name, ev.unit);
    b_.event_at(id).sources.push_back(
        b_.intern(self_only ? "async-profiler flat" : "async-profiler traces"));
    return id;
  }

  void finish_metadata(const char *producer) {
    Metadata &m = b_.metadata();
    m.format = "async-profiler-text";
    m.producer = producer;
    m.comments.push_back("total samples: " + std::to_string(total_samples_));
  }

  // Alloc and lock traces end in the class (frame 0): a name like a class in every stack,
  // never a caller in any (a method would be), some of them qualified or arrays.
  bool class_leaves() const {
    std::unordered_set<std::string_view> callers;
    for (const Trace &tr : traces_)
      for (size_t i = 1; i < tr.frames.size(); i++) callers.insert(tr.frames[i]);
    bool qualified = false;
    for (const Trace &tr : traces_) {
      const std::string_view leaf = tr.frames[0];
      if (!looks_like_java_class(leaf) || callers.count(leaf)) return false;
      qualified |= leaf.find('.') != std::string_view::npos || leaf.find("[]") != leaf.npos;
    }
    return qualified;
  }

  LoadResult build_traces() {
    bool threaded = true;
    for (const Trace &tr : traces_) threaded &= CollapsedFrames::is_thread_frame(tr.frames.back());
    const bool classes = class_leaves();
    const EventId event = make_event(classes, false);
    const ThreadId unnamed = threaded ? 0 : b_.thread("");
    std::vector<FrameId> frames;
    for (const Trace &tr : traces_) {
      frames.clear();
      const size_t first = classes ? 1 : 0, end = tr.frames.size() - (threaded ? 1 : 0);
      for (size_t i = first; i < end; i++) frames.push_back(frame(tr.frames[i]));
      const ThreadId thread =
          threaded ? names_.thread(tr.frames.back().substr(1, tr.frames.back().size() - 2))
                   : unnamed;
      const StackId stack = frames.empty() ? kNoStack : b_.stack_from_leaf(frames);
      b_.add_sample(event, stack, thread, tr.samples, tr.weight);
    }
    check_shares(traces_, "stacks", static_cast<int64_t>(traces_.size()));
    finish_metadata("async-profiler traces");
    return LoadResult::success(b_.finish());
  }

  LoadResult build_flat() {
    bool classes = units_ == "bytes";
    for (const FlatRow &r : flat_) classes &= looks_like_java_class(r.name);
    const EventId event = make_event(classes, true);
    const ThreadId thread = b_.thread("");
    for (const FlatRow &r : flat_) {
      const FrameId f = frame(r.name);
      b_.add_sample(event, b_.stack_from_leaf({&f, 1}), thread, r.samples, r.weight);
    }
    check_shares(flat_, "functions", static_cast<int64_t>(flat_.size()));
    b_.metadata().self_only = true;
    finish_metadata("async-profiler flat");
    return LoadResult::success(b_.finish());
  }

  LineIterator lines_;
  ProfileBuilder b_;
  CollapsedFrames names_;
  int64_t total_samples_ = 0;
  std::string units_, flat_units_;
  std::vector<Trace> traces_;
  std::vector<FlatRow> flat_;
};

} // namespace

bool looks_like_ap_text(std::string_view d) {
  if (d.substr(0, 3) == "\xEF\xBB\xBF") d.remove_prefix(3);
  return d.substr(0, kHeader.size()) == kHeader;
}

LoadResult read_ap_text(std::string_view text, const LoadOptions &options) {
  TextParser parser(text, options);
  return parser.parse();
}

} // namespace hotlines
