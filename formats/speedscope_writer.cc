// speedscope JSON writer (see speedscope_writer.h).
// Threading: Reads a shared, immutable Profile; no state of its own.
#include "formats/speedscope_writer.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace hotlines {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0.
size_t utf8_length(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; k++)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

std::string unit_of(std::string_view unit) {
  if (unit == "nanoseconds" || unit == "ns") return "nanoseconds";
  if (unit == "bytes") return "bytes";
  if (unit == "microseconds") return "microseconds";
  if (unit == "milliseconds") return "milliseconds";
  if (unit == "seconds") return "seconds";
  return "none";
}

// The file a frame shows: the recorded file, or the JVM class's source file guess
// (`org/acme/shop/Pricing$Inner` -> `org/acme/shop/Pricing.java`).
std::string file_of(const Profile &p, const Function &f) {
  if (f.file) return std::string(p.str(f.file));
  if (!f.class_name) return {};
  std::string_view c = p.str(f.class_name);
  size_t slash = c.rfind('/');
  size_t dollar = c.find('$', slash == std::string_view::npos ? 0 : slash + 1);
  return std::string(c.substr(0, dollar)) + ".java";
}

} // namespace

std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      i++;
    } else if (c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      i++;
    } else if (size_t n = utf8_length(s, i)) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\\ufffd";
      i++;
    }
  }
  return out + "\"";
}

std::string write_speedscope(const Profile &p, const SpeedscopeWriteOptions &o,
                             std::string *error) {
  std::vector<EventPick> events;
  std::string why;
  if (!pick_events(p, o.events, &events, &why)) {
    if (error) *error = "speedscope writer: " + why;
    return {};
  }

  // Shared frames: one per (display name, file) of the functions that occur.
  std::vector<uint32_t> frame_of_function(p.functions.size(), UINT32_MAX);
  std::map<std::pair<std::string_view, std::string>, uint32_t> frame_ids;
  std::string frames_json;
  auto frame_of = [&](FunctionId fn) {
    uint32_t &slot = frame_of_function[fn];
    if (slot != UINT32_MAX) return slot;
    const Function &f = p.functions[fn];
    std::string file = file_of(p, f);
    auto [it, inserted] =
        frame_ids.try_emplace({p.str(f.name), file}, static_cast<uint32_t>(frame_ids.size()));
    if (inserted) {
      if (!frames_json.empty()) frames_json += ",";
      frames_json += "{\"name\":" + json_quote(p.str(f.name));
      if (!file.empty()) frames_json += ",\"file\":" + json_quote(file);
      if (f.start_line > 0) frames_json += ",\"line\":" + std::to_string(f.start_line);
      frames_json += "}";
    }
    return slot = it->second;
  };
  // Each stack's frame list, root first, as JSON text (memoized per stack).
  std::vector<std::string> stack_text(p.stack_count());
  auto stack_json = [&](StackId s) -> const std::string & {
    static const std::string empty;
    if (s == kNoStack) return empty;
    std::string &t = stack_text[s];
    if (t.empty()) {
      std::vector<FrameId> leaf_first = p.frames_of(s);
      for (size_t i = leaf_first.size(); i-- > 0;) {
        if (!t.empty()) t += ",";
        t += std::to_string(frame_of(p.frames[leaf_first[i]].function));
      }
    }
    return t;
  };

  std::string profiles;
  size_t active = 0, profile_count = 0;
  for (size_t k = 0; k < events.size(); k++) {
    const Event &ev = p.events[events[k].event];
    const SampleColumns &c = ev.samples;
    // The picked samples per thread, in time order (stable: file order among equal times).
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < c.size(); i++)
      if (events[k].takes(c, i)) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (c.thread_at(a) != c.thread_at(b)) return c.thread_at(a) < c.thread_at(b);
      return c.time_at(a) < c.time_at(b);
    });
    int64_t best_weight = -1;
    for (size_t i = 0; i < order.size();) {
      ThreadId thread = c.thread_at(order[i]);
      std::string samples, weights;
      int64_t total = 0;
      size_t j = i;
      while (j < order.size() && c.thread_at(order[j]) == thread) {
        // Consecutive samples whose stacks read the same in speedscope's frames (e.g. one
        // method's JIT and inlined frames) merge into one weight.
        const std::string &stack = stack_json(c.stack_at(order[j]));
        int64_t w = 0;
        while (j < order.size() && c.thread_at(order[j]) == thread &&
               stack_json(c.stack_at(order[j])) == stack)
          w = saturating_add(w, c.value_at(order[j++]));
        if (!samples.empty()) {
          samples += ",";
          weights += ",";
        }
        samples += "[" + stack + "]";
        weights += std::to_string(w);
        total = saturating_add(total, w);
      }
      const Thread &t = p.threads[thread];
      std::string name =
          std::string(p.str(ev.name)) + ": " +
          (p.str(t.name).empty() ? "thread " + std::to_string(thread) : std::string(p.str(t.name)));
      if (t.os_tid >= 0) name += " (tid " + std::to_string(t.os_tid) + ")";
      if (!profiles.empty()) profiles += ",\n";
      profiles += "{\"type\":\"sampled\",\"name\":" + json_quote(name) +
                  ",\"unit\":" + json_quote(unit_of(p.str(ev.unit))) +
                  ",\"startValue\":0,\"endValue\":" + std::to_string(total) + ",\"samples\":[" +
                  samples + "],\"weights\":[" + weights + "]}";
      if (k == 0 && total > best_weight) {
        best_weight = total;
        active = profile_count;
      }
      profile_count++;
      i = j;
    }
  }
  std::string out = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"";
  out += ",\"name\":" + json_quote(o.name);
  out += ",\"exporter\":" + json_quote(o.exporter);
  out += ",\"activeProfileIndex\":" + std::to_string(active);
  out += ",\"shared\":{\"frames\":[" + frames_json + "]}";
  out += ",\"profiles\":[\n" + profiles + "]}\n";
  return out;
}

} // namespace hotlines
