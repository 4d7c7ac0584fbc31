// NamePattern (see name_pattern.h): RE2 in Latin-1 mode, so a pattern matches the name's
// bytes as std::regex did, and no UTF-8 in a name or pattern is ever invalid.
// Threading: Immutable after construction; any thread (RE2 is thread-safe for matching).
#include "server/engine/name_pattern.h"

#include <re2/re2.h>

namespace hotlines {

namespace {

RE2::Options pattern_options() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);
  o.set_max_mem(NamePattern::kMaxMemory);
  o.set_never_capture(true); // only whether it matches is asked
  o.set_log_errors(false);   // the reason goes back to the user, not to stderr
  return o;
}

std::string bad_pattern(std::string_view pattern, const std::string &reason) {
  constexpr size_t kQuoted = 80; // the error quotes at most this much of a long pattern
  std::string shown(pattern.substr(0, kQuoted));
  if (pattern.size() > kQuoted) shown += "…";
  return "bad pattern '" + shown + "': " + reason;
}

} // namespace

NamePattern::NamePattern(std::string pattern) : text_(std::move(pattern)) {
  if (text_.size() > kMaxLength) {
    error_ = bad_pattern(text_, "longer than " + std::to_string(kMaxLength) + " bytes (" +
                                    std::to_string(text_.size()) + ")");
    return;
  }
  if (text_.find_first_of("*+?()[]{}|^\\") == std::string::npos) return;
  auto re = std::make_shared<const RE2>(text_, pattern_options());
  if (!re->ok()) {
    error_ = bad_pattern(text_, re->error() + " (patterns are RE2 syntax)");
    return;
  }
  re_ = std::move(re);
}

bool NamePattern::matches(std::string_view name) const {
  if (!ok()) return false;
  if (name.find(text_) != std::string_view::npos) return true;
  return re_ && RE2::PartialMatch(name, *re_);
}

bool check_patterns(const std::vector<std::string> &patterns, std::string *error) {
  for (const std::string &p : patterns) {
    NamePattern np(p);
    if (!np.ok()) {
      *error = np.error();
      return false;
    }
  }
  return true;
}

} // namespace hotlines
