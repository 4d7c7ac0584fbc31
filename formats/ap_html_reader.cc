// async-profiler HTML flame graph / tree reader (see ap_html_reader.h). The page, as
// async-profiler's flame.html template and its writers (the agent's flameGraph.cpp, the
// converter's FlameGraph.java) make it:
//   <h1>TITLE</h1> … let inverted = BOOL; … const units = 'UNITS'; …
//   const cpool = [
//   'all',
//   'PNAME',       P = chr(32 + length of the prefix shared with the previous name)
//   ];
//   unpack(cpool);
//
//   f(KEY,LEVEL,LEFT[,WIDTH[,INLINED,C1,INTERPRETED]])   LEFT relative to the previous node
//   u(KEY[,WIDTH…])   the first child of the previous node
//   n(KEY[,WIDTH…])   the next sibling of the previous node
// KEY = name index << 3 | frame type; a missing WIDTH repeats the previous one. Nodes come in
// preorder, so a node's parent is the last node one level up, and a node's self weight is
// its width less its children's: one sample per node with self weight.
#include "formats/ap_html_reader.h"

#include "formats/ap_output_event.h"
#include "formats/collapsed_frames.h"
#include "formats/profile_builder.h"

#include <cctype>
#include <charconv>
#include <string>
#include <vector>

namespace hotlines {

bool looks_like_html(std::string_view d) {
  size_t i = 0;
  if (d.substr(0, 3) == "\xEF\xBB\xBF") i = 3; // UTF-8 byte order mark
  while (i < d.size() && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) i++;
  auto starts_nocase = [&](std::string_view want) {
    if (d.size() - i < want.size()) return false;
    for (size_t k = 0; k < want.size(); k++)
      if (tolower(static_cast<unsigned char>(d[i + k])) != want[k]) return false;
    return true;
  };
  return starts_nocase("<!doctype html") || starts_nocase("<html");
}

namespace {

// The page's frame types (flame.html's palette order) as the model's kinds.
constexpr FrameKind kKinds[7] = {FrameKind::interpreted, FrameKind::jit, FrameKind::inlined,
                                 FrameKind::native,      FrameKind::cpp, FrameKind::kernel,
                                 FrameKind::c1};

bool is_java_kind(FrameKind k) {
  return k == FrameKind::interpreted || k == FrameKind::jit || k == FrameKind::inlined ||
         k == FrameKind::c1;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Bytes of the first `units` UTF-16 code units of UTF-8 `s` (the page's script counts name
// prefixes in UTF-16 units); npos when `s` is shorter or the count splits a character.
size_t utf16_prefix_bytes(std::string_view s, size_t units) {
  size_t i = 0;
  while (units > 0) {
    if (i >= s.size()) return std::string_view::npos;
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80         ? 1
                       : (c >> 5) == 6  ? 2
                       : (c >> 4) == 14 ? 3
                       : (c >> 3) == 30 ? 4
                                        : 1;
    const size_t width = len == 4 ? 2 : 1;
    if (width > units || i + len > s.size()) return std::string_view::npos;
    units -= width;
    i += len;
  }
  return i;
}

struct Node {
  uint32_t name = 0;
  FrameKind kind = FrameKind::unknown;
  uint32_t level = 0;
  int64_t x = 0, width = 0, children = 0; // children: the sum of the children's widths
  int64_t self() const { return width - children; }
};

class HtmlParser {
public:
  HtmlParser(std::string_view text, const LoadOptions &options)
      : text_(text), options_(options), names_(b_) {}

  LoadResult parse() {
    if (LoadResult r = read_header(); !r.error.empty()) return r;
    if (LoadResult r = read_cpool(); !r.error.empty()) return r;
    if (LoadResult r = read_nodes(); !r.error.empty()) return r;
    return build();
  }

private:
  bool next_line(std::string_view *line) {
    if (pos_ >= text_.size()) return false;
    size_t nl = text_.find('\n', pos_);
    if (nl == std::string_view::npos) nl = text_.size();
    *line = text_.substr(pos_, nl - pos_);
    if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
    pos_ = nl + 1;
    line_no_++;
    return true;
  }

  LoadResult fail(std::string why) const {
    return LoadResult::failure("async-profiler HTML page: " + why, -1, line_no_);
  }

  // Title, units and orientation, up to `const cpool = [`.
  LoadResult read_header() {
    std::string_view line;
    while (next_line(&line)) {
      if (line.find("executionsHeatmap") != std::string_view::npos)
        return LoadResult::failure(
            "async-profiler heatmap page: it keeps each sample only as a member of its 20 ms "
            "block, without its time or weight, so it cannot load exactly; load the JFR it was "
            "made from instead",
            -1, line_no_);
      const std::string_view t = trim(line);
      if (t.substr(0, 4) == "<h1>") {
        const size_t end = t.find("</h1>");
        if (end != std::string_view::npos) title_ = std::string(t.substr(4, end - 4));
      } else if (t.substr(0, 15) == "const units = '") {
        const size_t end = t.find('\'', 15);
        if (end != std::string_view::npos) units_ = std::string(t.substr(15, end - 15));
      } else if (t.substr(0, 15) == "let inverted = ") {
        inverted_ = t.substr(15, 4) == "true";
      } else if (t.substr(0, 15) == "let treeview = ") {
        treeview_ = t.substr(15, 4) == "true";
      } else if (t == "const cpool = [") {
        if (units_.empty()) return fail("no `const units` before the frame names");
        return {};
      }
    }
    return LoadResult::failure("an HTML page, but not an async-profiler flame graph, tree or "
                               "heatmap: it has no `const cpool = [` frame-name table",
                               -1, 1);
  }

  // One quoted name of the cpool into *out; false with *why on a malformed line.
  static bool unquote(std::string_view t, std::string *out, const char **why) {
    if (t.empty() || t.front() != '\'') return *why = "a name is not a quoted string", false;
    out->clear();
    size_t i = 1;
    for (; i < t.size() && t[i] != '\''; i++) {
      if (t[i] == '\\') {
        if (++i >= t.size() || (t[i] != '\\' && t[i] != '\''))
          return *why = "a name has an escape other than \\\\ or \\'", false;
      }
      out->push_back(t[i]);
    }
    if (i >= t.size()) return *why = "a name's quote is not closed", false;
    const std::string_view rest = t.substr(i + 1);
    if (!(rest.empty() || rest == ",")) return *why = "text after a name", false;
    return true;
  }

  LoadResult read_cpool() {
    std::string_view line;
    std::string packed;
    uint64_t bytes = 0;
    while (next_line(&line)) {
      const std::string_view t = trim(line);
      if (t == "];") {
        if (cpool_.empty()) return fail("the frame-name table is empty");
        return {};
      }
      const char *why = nullptr;
      if (!unquote(t, &packed, &why)) return fail(why);
      if (cpool_.empty()) { // the root's name, written whole
        cpool_.push_back(packed);
        continue;
      }
      if (packed.empty() || packed[0] < ' ')
        return fail("a name lacks its shared-prefix length character");
      const std::string &prev = cpool_.back();
      const size_t prefix = utf16_prefix_bytes(prev, static_cast<unsigned char>(packed[0]) - 32);
      if (prefix == std::string_view::npos)
        return fail("a name shares a longer prefix than the previous name has");
      std::string name = prev.substr(0, prefix);
      name.append(packed, 1);
      bytes += name.size();
      if (bytes > options_.limits.max_bytes)
        return fail("the frame names take more than the load limit of " +
                    std::to_string(options_.limits.max_bytes) + " bytes");
      cpool_.push_back(std::move(name));
    }
    return fail("the frame-name table does not end (no `];`)");
  }

  // Parses `(a,b,…)` of a node call into args_; false when malformed.
  bool call_args(std::string_view t) {
    args_.clear();
    if (t.size() < 4 || t[1] != '(' || t.back() != ')') return false;
    std::string_view in = t.substr(2, t.size() - 3);
    while (true) {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(in.data(), in.data() + in.size(), v);
      if (ec != std::errc()) return false;
      args_.push_back(v);
      in.remove_prefix(static_cast<size_t>(p - in.data()));
      if (in.empty()) return true;
      if (in.front() != ',' || args_.size() >= 7) return false;
      in.remove_prefix(1);
    }
  }

  LoadResult read_nodes() {
    std::string_view line;
    bool started = false;
    int64_t level0 = 0, left0 = 0, width0 = 0; // the page script's running state
    std::vector<uint32_t> path;                // the current node's ancestors and itself
    while (next_line(&line)) {
      if ((line_no_ & 0xffff) == 0) {
        if (options_.cancelled()) return LoadResult::failure("cancelled");
        if (options_.progress) options_.progress(static_cast<double>(pos_) / text_.size());
      }
      const std::string_view t = trim(line);
      if (!started && (t.empty() || t == "unpack(cpool);")) continue;
      if (t.substr(0, 2) == "d=") { // a differential graph's change, not a node
        diff_ = started = true;
        continue;
      }
      const char fn = t.empty() ? 0 : t[0];
      if (fn != 'f' && fn != 'u' && fn != 'n') {
        if (!started) return fail("no flame-graph node after the frame names");
        break;
      }
      started = true;
      if (!call_args(t)) return fail("malformed node call '" + std::string(t.substr(0, 80)) + "'");
      const size_t fixed = fn == 'f' ? 3 : 1; // key[, level, left]
      const size_t n = args_.size();
      if (n != fixed && n != fixed + 1 && n != fixed + 4)
        return fail("node call with " + std::to_string(n) + " arguments");
      const int64_t key = args_[0];
      if (key < 0 || key > UINT32_MAX || static_cast<uint64_t>(key >> 3) >= cpool_.size())
        return fail("node names frame " + std::to_string(key >> 3) + " of " +
                    std::to_string(cpool_.size()));
      if ((key & 7) == 7) return fail("node has frame type 7, which no page uses");
      Node node;
      node.name = static_cast<uint32_t>(key >> 3);
      node.kind = kKinds[key & 7];
      int64_t level = level0, left = 0;
      if (fn == 'f') {
        level = args_[1];
        left = args_[2];
      } else if (fn == 'u') {
        level = level0 + 1;
      } else {
        left = width0;
      }
      const int64_t width = n > fixed && args_[fixed] != 0 ? args_[fixed] : width0;
      if (n == fixed + 4)
        for (size_t i = fixed + 1; i < n; i++)
          if (args_[i] < 0 || args_[i] > width)
            return fail("node's per-kind weights are not within its width");
      if (level < 0 || level > static_cast<int64_t>(path.size()))
        return fail("node at level " + std::to_string(level) + " below no parent");
      if (nodes_.empty() != (level == 0))
        return fail(level == 0 ? "a second root node" : "the first node is not the root");
      if (width <= 0) return fail("node without a positive width");
      if (__builtin_add_overflow(left0, left, &left0)) return fail("node position out of range");
      level0 = level;
      width0 = width;
      node.level = static_cast<uint32_t>(level);
      node.x = left0;
      node.width = width;
      path.resize(static_cast<size_t>(level));
      if (level > 0) {
        Node &parent = nodes_[path.back()];
        if (node.x < parent.x || node.x - parent.x > parent.width - width)
          return fail("node lies outside its parent's span");
        if (__builtin_add_overflow(parent.children, width, &parent.children) ||
            parent.children > parent.width)
          return fail("children weigh more than their parent");
      }
      path.push_back(static_cast<uint32_t>(nodes_.size()));
      nodes_.push_back(node);
    }
    if (!started) return fail("the page ends before its flame-graph nodes");
    return {};
  }

  // Stacks end in the allocated or locked class (alloc and lock pages): every node with self
  // weight is a childless class frame of the "allocated class" (inlined) or "outside TLAB"
  // (kernel) colour, and some leaf is a qualified or array class.
  bool class_leaves(uint32_t first_frame_level) const {
    bool qualified = false;
    for (const Node &n : nodes_) {
      if (n.level < first_frame_level || n.self() == 0) continue;
      const std::string &name = cpool_[n.name];
      if (n.children != 0 || (n.kind != FrameKind::inlined && n.kind != FrameKind::kernel) ||
          !looks_like_java_class(name))
        return false;
      qualified |= name.find('.') != std::string::npos || name.find("[]") != std::string::npos;
    }
    return qualified;
  }

  LoadResult build() {
    bool threaded = nodes_.size() > 1;
    for (const Node &n : nodes_)
      if (n.level == 1 && !CollapsedFrames::is_thread_frame(cpool_[n.name])) threaded = false;
    const uint32_t first_frame_level = threaded ? 2 : 1;
    const bool classes = class_leaves(first_frame_level);
    const ApOutputEvent ev = ap_output_event(title_, units_, classes, "nativelock");
    const bool drop_classes = classes && (ev.name == "alloc" || ev.name == "lock");
    const EventId event = b_.event(ev.name, ev.unit);
    b_.event_at(event).sources.push_back(b_.intern("async-profiler html"));
    const bool counted = units_ == "samples";

    // Samples without a thread frame (all of them in a page without threads, the root's in a
    // page with them) share one unnamed thread.
    ThreadId thread = 0;
    std::vector<StackId> stacks; // stack of the node at each level of the current path
    for (size_t i = 0; i < nodes_.size(); i++) {
      if ((i & 0xffff) == 0 && options_.cancelled()) return LoadResult::failure("cancelled");
      const Node &n = nodes_[i];
      stacks.resize(n.level);
      StackId parent = n.level == 0 ? kNoStack : stacks.back(), stack = kNoStack;
      const std::string &name = cpool_[n.name];
      if (n.level == 0) {
        if (!threaded || n.self() > 0) thread = b_.thread("");
      } else if (n.level < first_frame_level) {
        thread = names_.thread(std::string_view(name).substr(1, name.size() - 2));
      } else if (drop_classes && n.self() > 0) {
        stack = parent; // the class: the sample stays on the allocating frame
      } else {
        const FrameId frame = is_java_kind(n.kind)
                                  ? names_.frame(collapsed_frame_name(name), n.kind)
                                  : names_.frame(name, n.kind);
        stack = b_.stack(parent, frame);
      }
      stacks.push_back(stack);
      if (n.self() > 0) b_.add_sample(event, stack, thread, counted ? n.self() : 1, n.self());
    }
    if (inverted_)
      b_.warn("the page is drawn as an icicle: async-profiler does that for --inverted and for "
              "--reverse, whose stacks are leaf first; if it was made with --reverse, callers and "
              "callees here are swapped");
    if (diff_)
      b_.warn("a differential flame graph: loaded as its second profile, without the "
              "differences");
    Metadata &m = b_.metadata();
    m.format = "async-profiler-html";
    m.producer = treeview_ ? "async-profiler tree view" : "async-profiler flame graph";
    if (!title_.empty()) m.comments.push_back("title: " + title_);
    return LoadResult::success(b_.finish());
  }

  std::string_view text_;
  const LoadOptions &options_;
  ProfileBuilder b_;
  CollapsedFrames names_;
  size_t pos_ = 0;
  int64_t line_no_ = 0;
  std::string title_, units_;
  bool inverted_ = false, treeview_ = false, diff_ = false;
  std::vector<std::string> cpool_;
  std::vector<int64_t> args_;
  std::vector<Node> nodes_;
};

} // namespace

LoadResult read_ap_html(std::string_view text, const LoadOptions &options) {
  HtmlParser parser(text, options);
  return parser.parse();
}

} // namespace hotlines
