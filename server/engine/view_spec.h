// ViewSpec: a view as a person writes it — event name, measure, thread names or ids, thread
// states, a time
// window as text (`2s`, `500ms`, epoch milliseconds), frame patterns — before it is resolved
// against one profile into a View (view.h). The CLI parses argv into one, the server builds
// one from its settings and request params. A plain value type; make_view is pure (any
// thread).
#pragma once

#include "server/engine/profile_index.h"
#include "server/engine/view.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

struct ViewSpec {
  std::string event;                // empty: the profile's default event
  std::optional<Measure> measure;   // unset: value
  std::vector<std::string> threads; // a number is a thread id, anything else a name pattern
  std::vector<std::string> states;  // thread states (View::states)
  std::string from, to;             // window bounds (parse_time_ns); empty: open
  std::vector<std::string> hide, include, exclude;
  bool fqn = false;
  bool no_idle = false;
};

// The View `spec` describes for a loaded profile (times resolved against its start).
// `from`/`to` override the spec's window when given (diff windows). False with *error for a
// bad time or an invalid name pattern (check_view_patterns).
bool make_view(const ViewSpec &spec, const ProfileIndex &index, View *out, std::string *error,
               const std::string *from = nullptr, const std::string *to = nullptr);

// Parses a window bound: a duration is relative to the profile start; a bare number is
// absolute wall-clock milliseconds since the epoch, turned relative with the profile's
// start time.
bool parse_time_ns(std::string_view text, int64_t profile_start_ns, int64_t *relative_ns,
                   std::string *error);

} // namespace hotlines
