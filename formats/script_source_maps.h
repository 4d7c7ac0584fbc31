// ScriptSourceMaps: the source maps of the scripts a V8 profile names, read from disk when a
// script is first asked for: the script (a file:// URL or an absolute path, a regular file of
// at most 64 MiB) is read, its last `//# sourceMappingURL=` comment names the map (a data: URL
// with the map inlined in base64, or a file relative to the script), and the map is parsed
// (source_map.h). Scripts without a map, or whose map cannot be read, give null and, for the
// latter, a warning. Not thread-safe: one per load.
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
  // Why maps that were named could not be used, one line each.
  const std::vector<std::string> &warnings() const { return warnings_; }

  // The local path of a script URL: `file:///a/b%20c.js` -> `/a/b c.js`, `/a/b.js` as it is;
  // "" for anything else (node:internal/…, http://…, "").
  static std::string script_path(std::string_view url);

private:
  std::map<std::string, std::unique_ptr<SourceMap>, std::less<>> maps_;
  std::vector<std::string> warnings_;
};

} // namespace hotlines
