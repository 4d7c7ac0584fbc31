// drop_frames / keep_frames matching (see pprof_prune.h). Go's regexps are RE2; the common
// subset (alternation, classes, quantifiers, anchors) means the same in ECMAScript, which is
// what std::regex speaks. std::regex backtracks recursively, so patterns and names are bounded
// and every exception is caught: a profile never crashes the reader through its regexps.
#include "formats/pprof_prune.h"

namespace hotlines {

namespace {

constexpr size_t kMaxPattern = 512;
constexpr size_t kMaxName = 1024; // longer names never match (recursion depth)

bool starts_with_at(std::string_view s, size_t i, std::string_view prefix) {
  return s.size() - i >= prefix.size() && s.compare(i, prefix.size(), prefix) == 0;
}

bool compile(std::string_view pattern, std::unique_ptr<std::regex> *out, std::string *error) {
  if (pattern.size() > kMaxPattern) {
    *error = "pattern longer than " + std::to_string(kMaxPattern) + " characters";
    return false;
  }
  // Counted repetitions blow up std::regex's automaton; RE2 caps them at 1000 anyway.
  for (size_t i = 0; i < pattern.size(); i++)
    if (pattern[i] == '{' && i + 1 < pattern.size() && pattern[i + 1] >= '0' &&
        pattern[i + 1] <= '9') {
      *error = "counted repetitions ({n}) are not supported";
      return false;
    }
  // Go syntax std::regex would misread: named groups and inline flags.
  if (pattern.find("(?") != std::string_view::npos) {
    *error = "(?...) groups and flags are not supported";
    return false;
  }
  try {
    *out = std::make_unique<std::regex>("^(" + std::string(pattern) + ")$",
                                        std::regex::ECMAScript | std::regex::nosubs);
  } catch (const std::exception &e) {
    *error = std::string("invalid regexp: ") + e.what();
    return false;
  }
  return true;
}

bool matches(const std::regex &re, std::string_view s) {
  if (s.size() > kMaxName) return false;
  try {
    return std::regex_match(s.begin(), s.end(), re);
  } catch (const std::exception &) {
    return false;
  }
}

} // namespace

std::string_view simplify_pprof_function_name(std::string_view name) {
  if (!name.empty() && name[0] == '.') name.remove_prefix(1);
  for (size_t i = 0; i < name.size();) {
    if (starts_with_at(name, i, "(anonymous namespace)")) {
      i += 21;
    } else if (starts_with_at(name, i, "operator()")) {
      i += 10;
    } else if (name[i] == '(') {
      return name.substr(0, i);
    } else {
      i++;
    }
  }
  return name;
}

bool PprofPruner::init(std::string_view drop, std::string_view keep, std::string *error) {
  drop_.reset();
  keep_.reset();
  if (drop.empty()) return true;
  if (!compile(drop, &drop_, error)) return false;
  if (!keep.empty() && !compile(keep, &keep_, error)) {
    drop_.reset();
    return false;
  }
  return true;
}

bool PprofPruner::drops(std::string_view function_name) const {
  if (!drop_ || function_name.empty()) return false;
  std::string_view f = simplify_pprof_function_name(function_name);
  if (!matches(*drop_, f)) return false;
  return !keep_ || !matches(*keep_, f);
}

} // namespace hotlines
