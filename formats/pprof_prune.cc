// drop_frames / keep_frames matching (see pprof_prune.h). Go's regexps are RE2, and so is the
// matcher here: the same syntax ((?i), named groups, counted repetitions), the same meaning,
// and matching in time linear in the name, so a profile's patterns cannot stall or overflow
// the reader.
#include "formats/pprof_prune.h"

#include <re2/re2.h>

namespace hotlines {

namespace {

constexpr size_t kMaxPattern = 4096;
constexpr int64_t kMaxMemory = 4 << 20; // RE2's compiled-program budget per pattern

bool starts_with_at(std::string_view s, size_t i, std::string_view prefix) {
  return s.size() - i >= prefix.size() && s.compare(i, prefix.size(), prefix) == 0;
}

bool compile(std::string_view pattern, std::unique_ptr<RE2> *out, std::string *error) {
  if (pattern.size() > kMaxPattern) {
    *error = "pattern longer than " + std::to_string(kMaxPattern) + " bytes";
    return false;
  }
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(kMaxMemory);
  // Anchored as go tool pprof anchors it: ^(?:pattern)$.
  auto re = std::make_unique<RE2>("^(?:" + std::string(pattern) + ")$", options);
  if (!re->ok()) {
    *error = "invalid regexp: " + re->error();
    return false;
  }
  *out = std::move(re);
  return true;
}

bool matches(const RE2 &re, std::string_view s) {
  return RE2::FullMatch(s, re);
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

PprofPruner::PprofPruner() = default;
PprofPruner::~PprofPruner() = default;

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
