// FlameSourcePaths: where a function's source file is on disk, for the flame graph export's
// links. A small stand-in for the workspace source resolution: JVM classes map to
// `org/acme/shop/Pricing.{java,kt,scala,groovy}` (nested, lambda and `FooKt` classes go to
// the enclosing file), recorded paths (pprof, collapsed) match by their longest path suffix;
// both are looked up under one root folder, indexed once. A frame that does not resolve
// says why. Built and used on one thread.
#pragma once

#include "formats/profile.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace hotlines {

struct SourcePath {
  std::string path;     // absolute path on disk, empty when unresolved
  std::string relative; // what was looked for: `org/acme/shop/Pricing.java`, a recorded path
  std::string why;      // why it is unresolved, empty when resolved
};

class FlameSourcePaths {
public:
  // Indexes the regular files under `root` (hidden folders and node_modules skipped, at
  // most `max_files`). An unreadable root resolves nothing and says so.
  explicit FlameSourcePaths(std::string root, size_t max_files = 500000);

  SourcePath resolve(const Profile &profile, const Function &function) const;
  const std::string &root() const { return root_; }

private:
  // The indexed path whose components end with the most of `relative`'s (at least the
  // basename); `*matched` is how many matched. Empty when none shares the basename.
  std::string best_suffix_match(const std::string &relative, size_t *matched) const;

  std::string root_;
  std::string error_;
  std::unordered_map<std::string, std::vector<std::string>> by_basename_;
};

// The source file a JVM internal class lives in, without extension:
// `org/acme/shop/Pricing$Inner` -> `org/acme/shop/Pricing`; `org/x/UtilKt` -> `org/x/Util`
// (with *kotlin set). Empty for an empty name.
std::string jvm_class_file_stem(std::string_view internal_class, bool *kotlin);

} // namespace hotlines
