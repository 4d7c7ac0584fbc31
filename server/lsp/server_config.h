// ServerConfig: the `hotlines` settings an editor sends in initializationOptions and
// workspace/didChangeConfiguration — profiles to load, the view (event, measure, threads,
// states, window, hide), source roots and path remaps, annotation and diagnostics options, the
// limits on what a profile load may read and inflate. Applying a settings object changes only the
// keys it has; wrong types are errors naming the key and unknown keys are reported for a log
// line. A plain value type.
#pragma once

#include "formats/load_result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace hotlines {

struct ServerConfig {
  std::vector<std::string> profiles;  // paths loaded at start (and when the list changes)
  std::string event;                  // "" = each profile's default event
  std::string measure = "value";      // "count" or "value"
  std::vector<std::string> threads;   // thread names, ids or patterns; empty = all
  std::vector<std::string> states;    // thread states (RUNNABLE, ...); empty = all
  std::string window_from, window_to; // like the CLI's --from/--to ("2s", epoch ms); "" = open
  std::vector<std::string> hide;      // frame patterns removed from stacks
  std::vector<std::string> source_roots;
  std::vector<std::pair<std::string, std::string>> path_remaps; // {from, to} prefixes
  double min_percent = 1.0;                                     // annotations.minPercent
  std::string format = "percent";  // annotations.format: percent, count or value
  bool diagnostics = false;        // diagnostics.enabled
  bool watch_profiles = true;      // watchProfiles
  bool run_lenses = false;         // runLenses: "Profile" lenses on tests
  std::string async_profiler_path; // asyncProfiler.path
  double profile_mib = 4096;       // limits.profileMiB: file bytes read and gzip output
  double inflate_ratio = 100;      // limits.inflateRatio: gzip output / input

  // Whether shares are of the events' value (ns, bytes) rather than their sample count.
  bool by_value() const { return measure != "count"; }
  // The load limits, their errors naming the settings that raise them.
  LoadLimits load_limits() const;
};

struct ConfigChange {
  std::vector<std::string> errors;  // "hotlines.annotations.minPercent must be a number"
  std::vector<std::string> unknown; // keys ignored ("hotlines.colour")
  bool view_changed = false;        // event, measure, threads, states, window or hide changed
  bool profiles_changed = false;
  bool sources_changed = false;     // sourceRoots or pathRemaps
  bool annotations_changed = false; // minPercent, format, diagnostics, runLenses
};

// Applies `settings` — the `hotlines` section itself, or an object holding it under
// "hotlines" (didChangeConfiguration sends either) — onto *config.
ConfigChange apply_config(const nlohmann::json &settings, ServerConfig *config);

} // namespace hotlines
