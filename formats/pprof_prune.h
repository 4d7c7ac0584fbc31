// PprofPruner: a profile's drop_frames / keep_frames regexps, matched the way go tool pprof
// matches them (anchored, on the function name with its argument list removed), so the reader
// can prune stacks exactly as `go tool pprof` shows them. Immutable after init(); matching is
// const and may run on any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace hotlines {

// go tool pprof's simplifyFunc: drops a leading '.', then everything from the first '(' that
// does not start "(anonymous namespace)" or belong to "operator()".
std::string_view simplify_pprof_function_name(std::string_view name);

class PprofPruner {
public:
  // Compiles the patterns (RE2, Go's syntax; keep may be empty). Returns false with *error
  // when a pattern is over 4096 bytes or invalid; the caller then keeps every frame.
  bool init(std::string_view drop, std::string_view keep, std::string *error);
  // True when frames of this function (and everything it calls) are dropped.
  bool drops(std::string_view function_name) const;
  PprofPruner();
  ~PprofPruner();

private:
  std::unique_ptr<re2::RE2> drop_, keep_;
};

} // namespace hotlines
