// Finding and reading the source maps of scripts (see script_source_maps.h).
#include "formats/script_source_maps.h"

#include "formats/file_reader.h"

#include <filesystem>

namespace hotlines {

namespace {

constexpr uint64_t kMaxScriptBytes = uint64_t(64) << 20;

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decoded(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == '%' && i + 2 < s.size() + 0 && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

bool base64_decode(std::string_view in, std::string *out) {
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+' || c == '-')
      v = 62;
    else if (c == '/' || c == '_')
      v = 63;
    else if (c == '=')
      break;
    else
      return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return true;
}

// The URL of the script's last `//# sourceMappingURL=` (or the older `//@`) comment, or "".
std::string_view mapping_url(std::string_view script) {
  for (size_t end = script.size(); end > 0;) {
    size_t at = script.rfind("sourceMappingURL=", end - 1);
    if (at == std::string_view::npos || at < 4) return {};
    std::string_view lead = script.substr(at - 4, 4);
    if (lead == "//# " || lead == "//@ ") {
      std::string_view url = script.substr(at + 17);
      url = url.substr(0, url.find_first_of("\r\n \t"));
      return url;
    }
    end = at;
  }
  return {};
}

} // namespace

std::string ScriptSourceMaps::script_path(std::string_view url) {
  if (url.rfind("file://", 0) == 0) {
    url.remove_prefix(7);
    if (url.rfind("localhost/", 0) == 0) url.remove_prefix(9);
    if (url.empty() || url[0] != '/') return "";
    return percent_decoded(url);
  }
  if (!url.empty() && url[0] == '/') return std::string(url);
  return "";
}

void ScriptSourceMaps::add_known(const std::string &url, const std::string &map_url) {
  known_.emplace(url, map_url);
}

const SourceMap *ScriptSourceMaps::find(std::string_view url) {
  if (auto it = maps_.find(url); it != maps_.end()) return it->second.get();
  std::unique_ptr<SourceMap> &slot = maps_[std::string(url)];
  const std::string path = script_path(url);
  if (path.empty()) return nullptr;
  if (auto known = known_.find(url); known != known_.end()) {
    slot = load(path, known->second);
    return slot.get();
  }
  ReadFileOptions ro;
  ro.max_bytes = kMaxScriptBytes;
  FileBytes script;
  std::string err;
  if (read_regular_file(path, &script, &err, ro) != ReadStatus::ok) return nullptr;
  const std::string_view map_url = mapping_url(script.view());
  if (map_url.empty()) return nullptr;
  slot = load(path, map_url);
  return slot.get();
}

std::unique_ptr<SourceMap> ScriptSourceMaps::load(const std::string &path,
                                                  std::string_view map_url) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  std::string json, where, err;
  if (map_url.rfind("data:", 0) == 0) {
    const size_t comma = map_url.find(',');
    where = path + " (its inline map)";
    if (comma == std::string_view::npos ||
        map_url.substr(0, comma).find(";base64") == std::string_view::npos ||
        !base64_decode(map_url.substr(comma + 1), &json)) {
      warnings_.push_back("source map of " + where + ": not a base64 data: URL");
      return nullptr;
    }
  } else {
    std::string map_path = percent_decoded(map_url);
    if (map_path.rfind("file://", 0) == 0) map_path = script_path(map_path);
    if (map_path.find("://") != std::string::npos) {
      warnings_.push_back("source map of " + path + ": " + map_path + " is not a local file");
      return nullptr;
    }
    std::filesystem::path p(map_path);
    if (p.is_relative()) p = std::filesystem::path(dir) / p;
    where = p.lexically_normal().string();
    ReadFileOptions ro;
    ro.max_bytes = kMaxScriptBytes;
    FileBytes bytes;
    if (read_regular_file(where, &bytes, &err, ro) != ReadStatus::ok) {
      warnings_.push_back("source map " + where + " of " + path + ": " + err);
      return nullptr;
    }
    json.assign(bytes.view());
  }
  auto map = std::make_unique<SourceMap>();
  const std::string map_dir =
      map_url.rfind("data:", 0) == 0 ? dir : std::filesystem::path(where).parent_path().string();
  if (std::string why = map->parse(json, map_dir); !why.empty()) {
    warnings_.push_back("source map " + where + ": " + why);
    return nullptr;
  }
  return map;
}

} // namespace hotlines
