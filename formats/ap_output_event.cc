// Events and names of async-profiler's HTML and text outputs (see ap_output_event.h).
#include "formats/ap_output_event.h"

#include "formats/jvm_names.h"

#include <cctype>

namespace hotlines {

ApOutputEvent ap_output_event(std::string_view title, std::string_view units, bool class_leaves,
                              std::string_view ns_default) {
  ApOutputEvent e;
  e.unit = units == "samples" ? "samples"
           : units == "bytes" ? "bytes"
           : units == "ns"    ? "nanoseconds"
                              : "count";
  // The agent's titles (its engines' title(), " (units)" appended when not counting samples).
  if (size_t paren = title.find(" ("); paren != std::string_view::npos)
    title = title.substr(0, paren);
  static const struct {
    std::string_view title, event;
  } kTitles[] = {{"CPU profile", "cpu"},
                 {"Wall clock profile", "wall"},
                 {"Allocation profile", "alloc"},
                 {"Lock profile", "lock"},
                 {"Malloc/free profile", "nativemem"},
                 {"Native lock profile", "nativelock"},
                 {"Java method profile", "trace"}};
  for (const auto &t : kTitles)
    if (title == t.title) {
      e.name = t.event;
      return e;
    }
  if (units == "bytes")
    e.name = class_leaves ? "alloc" : "nativemem";
  else if (units == "ns")
    e.name = class_leaves ? "lock" : std::string(ns_default);
  else if (units == "samples")
    e.name = class_leaves ? "alloc" : "cpu";
  else
    e.name = units.empty() ? "samples" : std::string(units);
  return e;
}

bool looks_like_java_class(std::string_view n) {
  while (n.size() > 2 && n.substr(n.size() - 2) == "[]") n.remove_suffix(2);
  if (n.empty() || n.front() == '.' || n.back() == '.') return false;
  for (char ch : n)
    if (!(isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$' || ch == '.' ||
          static_cast<unsigned char>(ch) >= 0x80))
      return false;
  return !(n[0] >= '0' && n[0] <= '9');
}

std::string collapsed_frame_name(std::string_view name) {
  std::string_view head = name, line;
  if (size_t colon = name.rfind(':');
      colon != std::string_view::npos && colon > 0 && name[colon - 1] != ':' &&
      colon + 1 < name.size() &&
      name.find_first_not_of("0123456789", colon + 1) == std::string_view::npos) {
    head = name.substr(0, colon);
    line = name.substr(colon);
  }
  std::string slashed = slashed_jvm_frame(head); // "" for slashed and native names
  return slashed.empty() ? std::string(name) : slashed.append(line);
}

} // namespace hotlines
