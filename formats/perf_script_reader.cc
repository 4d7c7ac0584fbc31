// perf script reader (see perf_script_reader.h). What perf 6.1 prints, by default and with
// -F +pid,+period,+srcline, --inline, --full-source-path, --header:
//   # perf version : 6.1.187                          header comments (--header), kept
//   hot  3834/3834 [001] 78812.754860:     250000 cpu-clock:
//   \t            1188 main+0x3f (/tmp/pp/hot)          leaf first
//     /tmp/pp/hot.cc:9                                 its srcline (`??:0` when unknown)
//   \t            11d0 shop::inner (inlined)           an inlined frame (--inline)
//   \tffffffff813a2313 finish_task_switch+0x93 ([kernel.kallsyms])
//   <blank line>                                       ends the callchain
// Without a callchain (no -g) the header line itself ends with `addr sym+off (dso)` and no
// blank line follows. The comm may hold spaces and be right-aligned; the header is read from
// the first numeric token that the rest of the grammar accepts. Malformed lines are skipped
// and reported as one warning with the first one's line number.
#include "formats/perf_script_reader.h"

#include "formats/dwarf_lines.h"
#include "formats/line_iterator.h"
#include "formats/native_names.h"
#include "formats/profile_builder.h"
#include "formats/skipped_lines.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_map>
#include <vector>

namespace hotlines {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool all_of(std::string_view s, int (*pred)(int)) {
  for (char c : s)
    if (!pred(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

bool parse_int(std::string_view s, int64_t *v) {
  if (!all_of(s, isdigit)) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size();
}

bool parse_hex(std::string_view s, uint64_t *v) {
  if (s.size() > 16 || !all_of(s, isxdigit)) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v, 16);
  return ec == std::errc() && p == s.data() + s.size();
}

// `78812.754860:` (µs) or with --ns 9 digits -> ns.
bool parse_time(std::string_view s, int64_t *ns) {
  if (s.empty() || s.back() != ':') return false;
  s.remove_suffix(1);
  size_t dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot > 10) return false;
  int64_t secs = 0, frac = 0;
  std::string_view f = s.substr(dot + 1);
  if (!parse_int(s.substr(0, dot), &secs) || f.size() > 9 || !parse_int(f, &frac)) return false;
  for (size_t i = f.size(); i < 9; i++) frac *= 10;
  *ns = secs * 1000000000 + frac;
  return true;
}

struct Header {
  std::string_view comm, event, rest;
  int64_t pid = -1, tid = -1, time_ns = -1, period = -1;
};

// The whitespace-separated tokens of a line with their offsets (at most `max`).
struct Token {
  std::string_view text;
  size_t begin;
};
void tokenize(std::string_view line, size_t max, std::vector<Token> *out) {
  out->clear();
  for (size_t i = 0; i < line.size() && out->size() < max;) {
    while (i < line.size() && is_space(line[i])) i++;
    size_t b = i;
    while (i < line.size() && !is_space(line[i])) i++;
    if (i > b) out->push_back({line.substr(b, i - b), b});
  }
}

// Reads the header fields from token k on (the pid/tid); false when they do not fit.
bool header_from(std::string_view line, const std::vector<Token> &t, size_t k, Header *h) {
  std::string_view id = t[k].text;
  size_t slash = id.find('/');
  if (slash == std::string_view::npos) {
    if (!parse_int(id, &h->tid)) return false;
    h->pid = -1;
  } else if (!parse_int(id.substr(0, slash), &h->pid) ||
             !parse_int(id.substr(slash + 1), &h->tid)) {
    return false;
  }
  size_t i = k + 1;
  auto at = [&](size_t j) { return j < t.size() ? t[j].text : std::string_view(); };
  if (at(i).size() > 2 && at(i).front() == '[' && at(i).back() == ']' &&
      all_of(at(i).substr(1, at(i).size() - 2), isdigit))
    i++; // [cpu]
  h->time_ns = -1;
  if (parse_time(at(i), &h->time_ns)) i++;
  h->period = -1;
  if (parse_int(at(i), &h->period)) i++;
  std::string_view ev = at(i);
  if (ev.size() < 2 || ev.back() != ':' || ev.front() == '[' || !isalpha(ev.front()) ||
      ev.find(':') == 0)
    return false;
  h->event = ev.substr(0, ev.size() - 1);
  h->comm = trim(line.substr(0, t[k].begin));
  size_t after = t[i].begin + ev.size();
  h->rest = trim(line.substr(after));
  return !h->comm.empty();
}

bool parse_header(std::string_view line, std::vector<Token> *tokens, Header *h) {
  tokenize(line, 24, tokens);
  for (size_t k = 1; k + 1 < tokens->size() && k < 16; k++)
    if (isdigit(static_cast<unsigned char>((*tokens)[k].text[0])) &&
        header_from(line, *tokens, k, h))
      return true;
  return false;
}

struct FrameLine {
  uint64_t addr = 0;
  std::string_view sym, dso;
  bool inlined = false;
};

// `addr sym+off (dso)`, `addr sym (inlined)`, `addr [unknown] ([unknown])`.
bool parse_frame(std::string_view s, FrameLine *f) {
  s = trim(s);
  size_t sp = s.find_first_of(" \t");
  if (!parse_hex(s.substr(0, sp), &f->addr)) return false;
  std::string_view rest = sp == std::string_view::npos ? std::string_view() : trim(s.substr(sp));
  f->dso = {};
  f->inlined = false;
  if (!rest.empty() && rest.back() == ')') {
    size_t open = rest.rfind(" (");
    if (open == std::string_view::npos && rest.front() == '(')
      open = 0;
    else if (open != std::string_view::npos)
      open += 1;
    if (open != std::string_view::npos) {
      f->dso = rest.substr(open + 1, rest.size() - open - 2);
      rest = trim(rest.substr(0, open));
    }
  }
  if (f->dso == "inlined") {
    f->inlined = true;
    f->dso = {};
  }
  // sym+0x3f: the offset is not part of the name.
  size_t plus = rest.rfind("+0x");
  if (plus != std::string_view::npos && plus > 0) {
    uint64_t off;
    if (parse_hex(rest.substr(plus + 3), &off)) rest = rest.substr(0, plus);
  }
  f->sym = rest;
  return true;
}

bool is_kernel(const FrameLine &f) {
  if (f.dso.substr(0, 8) == "[kernel.") return true;
  return f.addr >= 0xffff800000000000ull && f.dso != "[vsyscall]";
}

// `  /tmp/pp/hot.cc:9` -> file and line (0 when unknown); false for `??:0`, `:0` and
// anything else.
bool parse_srcline(std::string_view s, std::string_view *file, int32_t *line) {
  s = trim(s);
  size_t colon = s.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  int64_t n = 0;
  if (!parse_int(s.substr(colon + 1), &n) || n > INT32_MAX) return false;
  *file = s.substr(0, colon);
  if (*file == "??") return false; // `shop.rs:0` gives the file without a line
  *line = static_cast<int32_t>(n);
  return true;
}

// The unit of an event's period: time for the software clocks, else a count of events.
std::string_view period_unit(std::string_view event) {
  std::string_view base = event.substr(0, event.find(':'));
  return base == "cpu-clock" || base == "task-clock" ? "nanoseconds" : "count";
}

class PerfScriptParser {
public:
  explicit PerfScriptParser(DwarfLines *lines) : lines_(lines) {}

  LoadResult parse(LineIterator &lines, bool streamed) {
    // A streamed text's progress: how far its samples' times are between the first and the
    // last sample's that its header gives (perf script --header).
    if (streamed)
      lines.set_progress([this] {
        if (last_sample_ns_ <= first_sample_ns_ || header_.time_ns < first_sample_ns_) return 0.0;
        return std::min(1.0, static_cast<double>(header_.time_ns - first_sample_ns_) /
                                 static_cast<double>(last_sample_ns_ - first_sample_ns_));
      });
    std::string_view line;
    while (lines.next(&line))
      if (const char *why = take_line(line)) skipped_.add(lines.line_no(), trim(line), why);
    if (lines.cancelled()) return LoadResult::failure("cancelled");
    end_sample();
    if (samples_.empty()) {
      if (skipped_.count == 0)
        return LoadResult::failure("perf script text without samples", -1,
                                   std::max<int64_t>(lines.line_no(), 1));
      return skipped_.failure("perf script sample");
    }
    return finish();
  }

private:
  struct Pending {
    EventId event;
    StackId stack;
    ThreadId thread;
    uint32_t labels;
    int64_t time_ns, period;
  };

  // Returns nullptr when the line was taken, else why it is malformed.
  const char *take_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view t = trim(line);
    if (t.empty()) {
      end_sample();
      return nullptr;
    }
    if (t[0] == '#' && !in_sample_) {
      comment(t);
      return nullptr;
    }
    FrameLine f;
    if (in_sample_ && line[0] == '\t' && parse_frame(line, &f)) {
      add_frame(f);
      return nullptr;
    }
    Header h;
    if (parse_header(line, &tokens_, &h)) {
      end_sample();
      start_sample(h);
      if (!h.rest.empty() && parse_frame(h.rest, &f)) add_frame(f);
      return nullptr;
    }
    if (!in_sample_) return "not a sample header 'comm tid time: period event:'";
    if (parse_frame(line, &f)) {
      add_frame(f);
      return nullptr;
    }
    if (has_pending_ && (line[0] == ' ' || line[0] == '\t')) {
      std::string_view file;
      int32_t n;
      if (parse_srcline(line, &file, &n)) {
        pending_file_.assign(file);
        pending_src_ = {pending_file_, n};
      }
      return nullptr; // an unknown srcline (`??:0`) or a tracepoint's continuation
    }
    return "not a frame 'addr symbol (dso)'";
  }

  void comment(std::string_view t) {
    t = trim(t.substr(1));
    size_t colon = t.find(" : ");
    if (colon == std::string_view::npos) return;
    std::string_view key = trim(t.substr(0, colon)), value = trim(t.substr(colon + 3));
    if (key == "perf version") version_ = value;
    int64_t ns = 0;
    if (key == "time of first sample" && parse_time(std::string(value) + ":", &ns))
      first_sample_ns_ = ns;
    if (key == "time of last sample" && parse_time(std::string(value) + ":", &ns))
      last_sample_ns_ = ns;
    if (key == "cmdline" || key == "perf version" || key == "hostname" || key == "captured on")
      b_.metadata().comments.push_back(std::string(key) + ": " + std::string(value));
  }

  // The header's fields are copied: a streamed line does not outlive the next one.
  void start_sample(const Header &h) {
    in_sample_ = true;
    header_.comm.assign(h.comm);
    header_.pid = h.pid;
    header_.tid = h.tid;
    header_.time_ns = h.time_ns;
    header_.period = h.period;
    auto [it, fresh] = events_.try_emplace(std::string(h.event), 0);
    if (fresh) {
      it->second = b_.event(h.event, h.period >= 0 ? period_unit(h.event) : "samples");
      Event &e = b_.event_at(it->second);
      e.sources.push_back(b_.intern("perf script"));
      if (h.period >= 0) e.value_label = b_.intern("period");
    }
    header_.event = it->second;
    leaf_first_.clear();
    has_pending_ = unknown_run_ = false;
    frame_index_ = 0;
  }

  // A frame is taken once the line after it is read (which may be its srcline); until then it
  // is copied into pending_.
  void add_frame(const FrameLine &f) {
    take_pending();
    pending_sym_.assign(f.sym);
    pending_dso_.assign(f.dso);
    pending_ = f;
    pending_.sym = pending_sym_;
    pending_.dso = pending_dso_;
    pending_src_ = {};
    has_pending_ = true;
  }

  void take_pending() {
    if (!has_pending_) return;
    has_pending_ = false;
    const FrameLine &f = pending_;
    const bool kernel = is_kernel(f), below_user = frame_index_ > 0 && !prev_kernel_;
    frame_index_++;
    prev_kernel_ = kernel;
    if (f.sym.empty() || f.sym == "[unknown]") {
      unknown_frames_++;
      if (unknown_run_) {
        collapsed_unknown_++;
        return;
      }
      unknown_run_ = true;
      leaf_first_.push_back(unknown_frame());
      return;
    }
    unknown_run_ = false;
    // A user-space frame below another is a return address: its line is the call's.
    bool caller = below_user && !kernel;
    if (lines_ && pending_src_.file.empty() && !f.inlined && !kernel)
      add_dwarf_frames(f, caller);
    else
      leaf_first_.push_back(frame(f, pending_src_));
  }

  void end_sample() {
    if (!in_sample_) return;
    in_sample_ = false;
    take_pending();
    const SampleHeader &h = header_;
    StackId stack = leaf_first_.empty() ? kNoStack : b_.stack_from_leaf(leaf_first_);
    ThreadId thread = b_.thread(h.comm, h.tid);
    uint32_t labels = 0;
    if (h.pid >= 0) labels = b_.label_set({Label{b_.intern("pid"), 0, h.pid, 0}});
    if (h.time_ns >= 0) {
      min_time_ = std::min(min_time_, h.time_ns);
      max_time_ = std::max(max_time_, h.time_ns);
    } else {
      untimed_ = true;
    }
    samples_.push_back({h.event, stack, thread, labels, h.time_ns, h.period});
  }

  FrameId unknown_frame() {
    if (unknown_ == UINT32_MAX) {
      Function fn;
      fn.name = b_.intern("[unknown]");
      unknown_ = b_.frame({b_.function(fn), 0, -1, FrameKind::unknown});
    }
    return unknown_;
  }

  struct Srcline {
    std::string_view file;
    int32_t line = 0;
  };

  FrameId frame(const FrameLine &f, const Srcline &src) {
    // Cached by the frame's text: the same address in the same library is the same frame.
    key_.assign(f.sym);
    key_ += '\0';
    key_ += f.dso;
    key_ += '\0';
    key_ += src.file;
    key_ += '\0';
    key_ += std::to_string(src.line);
    key_ += f.inlined ? 'i' : is_kernel(f) ? 'k' : 'n';
    auto it = frames_cache_.find(key_);
    if (it != frames_cache_.end()) return it->second;
    Function fn;
    std::string readable = demangle_native(f.sym);
    fn.name = b_.intern(readable);
    if (readable != f.sym) fn.system_name = b_.intern(f.sym);
    fn.library = f.dso.empty() ? 0 : b_.intern(f.dso);
    fn.file = src.file.empty() ? 0 : b_.intern(src.file);
    // User-space frames are of no particular kind, as pprof's (Go's) are: the engine takes
    // native and cpp frames for a JVM's, which have no source lines.
    FrameKind kind = f.inlined      ? FrameKind::inlined
                     : is_kernel(f) ? FrameKind::kernel
                                    : FrameKind::unknown;
    FrameId id = b_.frame({b_.function(fn), src.line, -1, kind});
    frames_cache_.emplace(key_, id);
    return id;
  }

  // The frames DWARF gives for a user-space address: the functions inlined there (innermost
  // first), then the function perf named, each with its line. Cached by library and address.
  void add_dwarf_frames(const FrameLine &f, bool caller) {
    const uint64_t addr = caller && f.addr > 0 ? f.addr - 1 : f.addr;
    std::string key(f.sym);
    key += '\0';
    key += f.dso;
    key += '\0';
    key += std::to_string(addr);
    auto it = dwarf_cache_.find(key);
    if (it == dwarf_cache_.end()) {
      std::vector<FrameId> ids;
      std::vector<SourceFrame> src = lines_->lookup(std::string(f.dso), addr);
      for (size_t i = 0; i + 1 < src.size(); i++) {
        Function fn;
        fn.name = b_.intern(src[i].function.empty() ? "[inlined]" : src[i].function);
        fn.library = f.dso.empty() ? 0 : b_.intern(f.dso);
        fn.file = src[i].file.empty() ? 0 : b_.intern(src[i].file);
        ids.push_back(b_.frame({b_.function(fn), src[i].line, -1, FrameKind::inlined}));
      }
      Srcline own;
      if (!src.empty()) own = {src.back().file, src.back().line};
      ids.push_back(frame(f, own));
      it = dwarf_cache_.emplace(std::move(key), std::move(ids)).first;
    }
    leaf_first_.insert(leaf_first_.end(), it->second.begin(), it->second.end());
  }

  LoadResult finish() {
    if (untimed_) min_time_ = max_time_ = 0;
    for (const Pending &s : samples_) {
      int64_t value = s.period >= 0 ? s.period : 1;
      if (untimed_)
        b_.add_sample(s.event, s.stack, s.thread, 0, 1, value, s.labels);
      else
        b_.add_sample(s.event, s.stack, s.thread, s.time_ns - min_time_, 1, value, s.labels);
    }
    Metadata &m = b_.metadata();
    m.format = "perf-script";
    m.producer = version_.empty() ? "perf script" : "perf " + version_;
    m.duration_ns = max_time_ - min_time_;
    skipped_.warn(b_);
    if (lines_) {
      warn_files(lines_->files_without_dwarf(4),
                 ": no DWARF line table (build with -g, or install the -dbgsym package)");
      warn_files(lines_->files_rebuilt(4),
                 ": rebuilt since the recording (its build-id is not the one perf recorded) and "
                 "not in perf's build-id cache");
    }
    if (unknown_frames_ > 0)
      b_.warn(std::to_string(unknown_frames_) + " [unknown] frame" +
              (unknown_frames_ == 1 ? "" : "s") + " (addresses perf could not name; " +
              std::to_string(collapsed_unknown_) + " of them in runs collapsed into one)");
    return LoadResult::success(b_.finish());
  }

  // "no source lines for a, b: why", when there are any.
  void warn_files(const std::vector<std::string> &files, std::string_view why) {
    if (files.empty()) return;
    std::string list;
    for (const std::string &f : files) list += (list.empty() ? "" : ", ") + f;
    b_.warn("no source lines for " + list + std::string(why));
  }

  DwarfLines *lines_;
  ProfileBuilder b_;
  std::vector<Token> tokens_;
  bool in_sample_ = false;
  struct SampleHeader {
    std::string comm;
    EventId event = 0;
    int64_t pid = -1, tid = -1, time_ns = -1, period = -1;
  } header_;
  FrameLine pending_;
  std::string pending_sym_, pending_dso_, pending_file_;
  Srcline pending_src_;
  bool has_pending_ = false, unknown_run_ = false, prev_kernel_ = false;
  size_t frame_index_ = 0;
  std::vector<FrameId> leaf_first_;
  std::vector<Pending> samples_;
  std::unordered_map<std::string, EventId> events_;
  std::unordered_map<std::string, FrameId> frames_cache_;
  std::unordered_map<std::string, std::vector<FrameId>> dwarf_cache_;
  std::string key_;
  FrameId unknown_ = UINT32_MAX;
  std::string version_;
  int64_t first_sample_ns_ = -1, last_sample_ns_ = -1;
  int64_t min_time_ = INT64_MAX, max_time_ = INT64_MIN;
  bool untimed_ = false;
  int64_t unknown_frames_ = 0, collapsed_unknown_ = 0;
  SkippedLines skipped_;
};

} // namespace

bool looks_like_perf_script(std::string_view data) {
  std::vector<Token> tokens;
  size_t pos = 0;
  for (int lines = 0; pos < data.size() && lines < 200; lines++) {
    size_t nl = data.find('\n', pos);
    std::string_view line =
        data.substr(pos, (nl == std::string_view::npos ? data.size() : nl) - pos);
    pos = nl == std::string_view::npos ? data.size() : nl + 1;
    std::string_view t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    Header h;
    return parse_header(line, &tokens, &h);
  }
  return false;
}

LoadResult read_perf_script(std::string_view text, const LoadOptions &options, DwarfLines *lines) {
  LineIterator it(text, options);
  PerfScriptParser parser(lines);
  return parser.parse(it, false);
}

LoadResult read_perf_script(LineIterator &text, const LoadOptions &options, DwarfLines *lines) {
  PerfScriptParser parser(lines);
  return parser.parse(text, true);
}

} // namespace hotlines
