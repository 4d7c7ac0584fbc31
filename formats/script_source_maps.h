// ScriptSourceMaps: the source maps of the scripts a V8 profile names, read from disk when a
// script is first asked for: the script (a file:// URL or an absolute path, a regular file of
// at most 64 MiB) is read, its last `//# sourceMappingURL=` comment names the map (a data: URL
// with the map inlined in base64, or a file relative to the script), and the map is parsed
// (source_map.h). Scripts without a map, or whose map cannot be read, give null and, for the
// latter, a warning. A script's map URL can also be given (add_known: what its process
// compiled it with, from the hotlines preload's .scripts.json, for code a test runner
// transformed in memory under the original file's name); it is used instead of the file's
// comment. Not thread-safe: one per load.
#pragma once

#include "formats/source_map.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

class ScriptSourceMaps {
public:
  // The map of the script at `url`, or null.
  const SourceMap *find(std::string_view url);
  // Uses `map_url` (a data: URL or a path relative to the script) as the map of the script at
  // `url`; the first one given for a URL is kept.
  void add_known(const std::string &url, const std::string &map_url);
  // Why maps that were named could not be used, one line each.
  const std::vector<std::string> &warnings() const { return warnings_; }

  // The local path of a script URL: `file:///a/b%20c.js` -> `/a/b c.js`, `/a/b.js` as it is;
  // "" for anything else (node:internal/…, http://…, "").
  static std::string script_path(std::string_view url);

private:
  // The map named by `map_url` for the script at `path`, or null with a warning.
  std::unique_ptr<SourceMap> load(const std::string &path, std::string_view map_url);

  std::map<std::string, std::unique_ptr<SourceMap>, std::less<>> maps_;
  std::map<std::string, std::string, std::less<>> known_; // url -> its map's URL
  std::vector<std::string> warnings_;
};

} // namespace hotlines
