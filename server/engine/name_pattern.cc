// NamePattern (see name_pattern.h).
// Threading: Immutable after construction; any thread.
#include "server/engine/name_pattern.h"

namespace hotlines {

NamePattern::NamePattern(std::string pattern) : text_(std::move(pattern)) {
  if (text_.find_first_of("*+?()[]{}|^\\") == std::string::npos) return;
  try {
    re_ = std::make_shared<const std::regex>(text_, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error &) {
    re_ = nullptr; // not a valid regex: the pattern stays a plain substring
  }
}

bool NamePattern::matches(std::string_view name) const {
  if (name.find(text_) != std::string_view::npos) return true;
  return re_ && std::regex_search(name.begin(), name.end(), *re_);
}

} // namespace hotlines
