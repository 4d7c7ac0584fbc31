// A folder of V8 profiles as one profile (see v8_profile_dir.h).
#include "formats/v8_profile_dir.h"

#include "formats/cpuprofile_reader.h"
#include "formats/file_reader.h"
#include "formats/heapprofile_reader.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sys/stat.h>

namespace hotlines {

namespace fs = std::filesystem;

namespace {

struct File {
  std::string name;
  FileBytes bytes;
  JsonDoc doc;
  bool heap = false;
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// `CPU.20250101.120000.4242.0.001.cpuprofile` (node's default names) -> `pid 4242`,
// `hotlines-4242-0-1700000000000.cpuprofile` (the hotlines preload's: pid, worker thread id,
// time) -> `pid 4242` (`pid 4242 worker 1` for a worker thread); other names stay as they are.
std::string thread_name(const std::string &file) {
  std::vector<std::string_view> parts;
  std::string_view s = file;
  for (size_t dot; (dot = s.find('.')) != std::string_view::npos; s.remove_prefix(dot + 1))
    parts.push_back(s.substr(0, dot));
  if (parts.size() == 6 && (parts[0] == "CPU" || parts[0] == "Heap"))
    return "pid " + std::string(parts[3]);
  std::vector<std::string_view> dashes;
  s = parts.size() == 1 ? parts[0] : std::string_view();
  for (size_t dash; (dash = s.find('-')) != std::string_view::npos; s.remove_prefix(dash + 1))
    dashes.push_back(s.substr(0, dash));
  dashes.push_back(s);
  if (dashes.size() == 4 && dashes[0] == "hotlines")
    return "pid " + std::string(dashes[1]) +
           (dashes[2] == "0" ? "" : " worker " + std::string(dashes[2]));
  return file;
}

// A script of the project: a local file outside node_modules and /usr.
bool project_script(const std::string &url) {
  const std::string path = ScriptSourceMaps::script_path(url);
  return !path.empty() && path.find("/node_modules/") == std::string::npos &&
         path.rfind("/usr/", 0) != 0;
}

bool ran_project_code(const JsonDoc &doc) {
  std::vector<V8Node> nodes;
  const uint32_t list = doc.member(0, "nodes");
  V8Error e = list != JsonDoc::npos && doc.type(list) == JsonType::array
                  ? read_flat_nodes(doc, list, &nodes)
              : doc.member(0, "head") != JsonDoc::npos
                  ? read_nested_nodes(doc, doc.member(0, "head"), &nodes)
                  : V8Error{"no nodes", 0};
  if (e.failed()) return true; // its error is reported when it is read
  for (const V8Node &n : nodes)
    if (project_script(n.url)) return true;
  return false;
}

// The source map URLs the hotlines preload recorded for the scripts of `X.cpuprofile`, in
// `X.scripts.json` beside it: {"scripts": [{"url": "file:///…", "sourceMapURL": "data:…"}]}.
// No such file is fine (node --cpu-prof); a file that is not that shape gives a warning.
void add_script_maps(const std::string &dir, const std::string &profile, const LoadOptions &o,
                     V8Frames &frames, ProfileBuilder &b) {
  const std::string name = profile.substr(0, profile.size() - 11) + ".scripts.json";
  const std::string path = dir + "/" + name;
  std::error_code ec;
  if (!o.source_maps || !fs::exists(path, ec)) return;
  FileBytes bytes;
  std::string err;
  ReadFileOptions ro;
  ro.max_bytes = o.limits.max_bytes;
  ro.cancel = o.cancel;
  JsonDoc doc;
  int64_t offset = -1;
  if (read_regular_file(path, &bytes, &err, ro) != ReadStatus::ok ||
      !doc.parse(bytes.view(), &err, &offset, o.cancel))
    return b.warn("source maps of " + profile + ": " + path + ": " + err);
  const uint32_t list = doc.type(0) == JsonType::object ? doc.member(0, "scripts") : JsonDoc::npos;
  if (list == JsonDoc::npos || doc.type(list) != JsonType::array)
    return b.warn("source maps of " + profile + ": " + path + ": not {\"scripts\": [...]}");
  size_t i = 0;
  for (uint32_t e = doc.first(list); e != JsonDoc::npos && i < doc.size(list);
       e = doc.next(e), i++) {
    const uint32_t url = doc.type(e) == JsonType::object ? doc.member(e, "url") : JsonDoc::npos;
    const uint32_t map =
        doc.type(e) == JsonType::object ? doc.member(e, "sourceMapURL") : JsonDoc::npos;
    if (url == JsonDoc::npos || map == JsonDoc::npos || doc.type(url) != JsonType::string ||
        doc.type(map) != JsonType::string)
      return b.warn("source maps of " + profile + ": " + path + ": scripts[" + std::to_string(i) +
                    "] is not {\"url\": string, \"sourceMapURL\": string}");
    frames.maps().add_known(doc.string(url), doc.string(map));
  }
}

} // namespace

bool is_directory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

LoadResult load_v8_profile_dir(const std::string &dir, const LoadOptions &options) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (ends_with(name, ".cpuprofile") || ends_with(name, ".heapprofile")) names.push_back(name);
  }
  if (ec) return LoadResult::failure("cannot read " + dir + ": " + ec.message());
  if (names.empty())
    return LoadResult::failure("cannot read " + dir +
                               ": is a directory, without .cpuprofile or .heapprofile files (a "
                               "folder of V8 profiles loads as one profile)");
  std::sort(names.begin(), names.end());
  std::vector<std::unique_ptr<File>> files;
  uint64_t total = 0;
  for (const std::string &name : names) {
    auto f = std::make_unique<File>();
    f->name = name;
    f->heap = ends_with(name, ".heapprofile");
    std::string err;
    ReadFileOptions ro;
    ro.max_bytes = options.limits.max_bytes - std::min(total, options.limits.max_bytes);
    ro.raise_hint = options.limits.bytes_hint;
    ro.cancel = options.cancel;
    if (read_regular_file(dir + "/" + name, &f->bytes, &err, ro) != ReadStatus::ok)
      return LoadResult::failure("cannot read " + dir + "/" + name + ": " + err);
    total += f->bytes.size();
    int64_t offset = -1;
    if (!f->doc.parse(f->bytes.view(), &err, &offset, options.cancel))
      return LoadResult::failure(dir + "/" + name + ": " + err, offset);
    files.push_back(std::move(f));
  }
  std::vector<File *> kept, left;
  for (auto &f : files) (ran_project_code(f->doc) ? kept : left).push_back(f.get());
  const bool all = kept.empty();
  if (all) kept.swap(left);
  int64_t origin = INT64_MAX;
  for (File *f : kept)
    if (int64_t start; !f->heap && cpuprofile_start(f->doc, &start))
      origin = std::min(origin, start);
  ProfileBuilder b;
  V8Frames frames(b, options.source_maps);
  bool cpu = false;
  for (File *f : kept) {
    const ThreadId thread = b.thread(thread_name(f->name));
    if (!f->heap) add_script_maps(dir, f->name, options, frames, b);
    V8Error e = f->heap ? add_heapprofile(b, frames, f->doc, thread, options)
                        : add_cpuprofile(b, frames, f->doc, thread, origin, options);
    if (e.failed()) return LoadResult::failure(dir + "/" + f->name + ": " + e.message, e.offset);
    cpu |= !f->heap;
    b.metadata().comments.push_back("from " + f->name);
  }
  if (all && kept.size() > 1)
    b.warn("no process of the folder ran project code (a script outside node_modules and "
           "/usr): all its profiles are loaded");
  for (File *f : left)
    b.warn("left out " + f->name +
           ": its process ran no project code (npm, the test runner, "
           "a compiler)");
  b.metadata().format = cpu ? "cpuprofile" : "heapprofile";
  b.metadata().producer = "V8, " + std::to_string(kept.size()) + " of the folder's " +
                          std::to_string(files.size()) + " profiles";
  return LoadResult::success(b.finish());
}

} // namespace hotlines
