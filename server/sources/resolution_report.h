// ResolutionReport: how much of a profile's weight resolves to workspace source, and what
// does not — the top unresolved frames, and for path formats the failing path prefixes with
// a suggested remap {from, to} (verified against the workspace when possible). Ties and the
// rules used are listed. Weights come from one view (ViewWeights), normally the unfiltered
// view of the default event:
//  - status percentages attribute each sample to its leaf-most frame that is not external
//    (the workspace code that caused it): resolved + unresolved + external = 100%, where
//    external also holds samples with no non-external frame (JDK, native, empty stacks);
//  - frame rows carry self and total (samples with the function anywhere on the stack);
//  - a prefix's weight is the total of samples with any frame under it.
// Pure function over immutable data; any thread.
#pragma once

#include "server/engine/profile_index.h"
#include "server/engine/view_weights.h"
#include "server/sources/profile_resolution.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hotlines {

struct UnresolvedFrame {
  std::string name;     // function display name
  std::string recorded; // recorded path or JVM class
  std::string rule;
  std::string reason;
  int64_t self = 0, total = 0;
  int64_t attributed = 0; // weight attributed to it as the leaf-most non-external frame
};

struct FailingPrefix {
  std::string prefix;                // recorded folder prefix the failing paths share
  int64_t weight = 0;                // samples with a frame under it (total)
  size_t files = 0;                  // failing recorded files under it
  std::vector<std::string> examples; // up to 3 recorded paths
  bool has_remap = false;            // a remap is suggested
  PathRemap remap;                   // {from: prefix, to: workspace folder}
  size_t would_resolve = 0;          // failing files the remap turns into workspace files
};

struct RuleCount {
  std::string rule;
  std::string status;
  size_t functions = 0;
};

struct ResolutionReport {
  std::string event, unit;
  std::string measure;                                // "value" or "count"
  int64_t total = 0;                                  // the view's total weight
  int64_t resolved = 0, unresolved = 0, external = 0; // attributed weights (sum == total)
  double resolved_pct = 0, unresolved_pct = 0, external_pct = 0;
  size_t functions_resolved = 0, functions_unresolved = 0, functions_external = 0;
  std::vector<std::string> roots;
  size_t workspace_files = 0;
  std::vector<RuleCount> rules;                // functions per rule, most first
  std::vector<UnresolvedFrame> top_unresolved; // by total, then attributed, then name
  std::vector<FailingPrefix> failing_prefixes; // by weight
  std::vector<ResolutionTie> ties;
  // One sentence naming the fix when unresolved weight is large (>= 20% of the view and more
  // than resolved), else "". Fit for a window/showMessage warning.
  std::string warning;
};

// Builds the report; `top` limits the unresolved frames and the failing prefixes.
ResolutionReport build_resolution_report(const ProfileResolution &resolution,
                                         const ViewWeights &view, size_t top = 20);

// The report's warning for the profile's default event, unfiltered ("" when none).
std::string resolution_warning(const ProfileIndex &index, const ProfileResolution &resolution);

} // namespace hotlines
