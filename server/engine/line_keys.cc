// LineKeys and recorded file keys (see line_keys.h).
// Threading: Built once per profile; read-only afterwards, any thread.
#include "server/engine/line_keys.h"

#include "formats/jvm_names.h"
#include "server/engine/flat_map.h"

#include <algorithm>

namespace hotlines {

std::string kotlin_facade_file(std::string_view simple) {
  if (simple.size() <= 2 || simple.substr(simple.size() - 2) != "Kt") return {};
  simple.remove_suffix(2);
  if (size_t parts = simple.rfind("__"); parts != std::string_view::npos)
    simple.remove_prefix(parts + 2); // Bar__UtilKt: a part of the multi-file facade Bar
  if (simple.empty()) return {};
  return std::string(simple) + ".kt";
}

std::string recorded_file_key(const Profile &p, const Function &f) {
  if (f.file) return std::string(p.str(f.file));
  if (!f.class_name) return {};
  std::string cls = jvm_internal_class(p.str(f.class_name));
  size_t slash = cls.rfind('/');
  size_t start = slash == std::string::npos ? 0 : slash + 1;
  size_t dollar = cls.find('$', start);
  if (dollar != std::string::npos) cls.resize(dollar);
  if (cls.empty()) return {};
  if (std::string kt = kotlin_facade_file(std::string_view(cls).substr(start)); !kt.empty())
    return cls.substr(0, start) + kt;
  return cls + ".java";
}

namespace {
bool kind_has_source(FrameKind k) {
  return k != FrameKind::native && k != FrameKind::cpp && k != FrameKind::kernel;
}
} // namespace

LineKeys::LineKeys(const Profile &p) {
  function_file_.assign(p.functions.size(), kNoKey);
  file_names_.reserve(64);
  std::unordered_map<std::string, uint32_t> ids;
  for (size_t f = 0; f < p.functions.size(); f++) {
    std::string key = recorded_file_key(p, p.functions[f]);
    if (key.empty()) continue;
    auto [it, inserted] = ids.try_emplace(key, static_cast<uint32_t>(file_names_.size()));
    if (inserted) file_names_.push_back(key);
    function_file_[f] = it->second;
  }
  for (uint32_t i = 0; i < file_names_.size(); i++) file_ids_.emplace(file_names_[i], i);
  files_.count = static_cast<uint32_t>(file_names_.size());
  files_.of_frame.assign(p.frames.size(), kNoKey);
  lines_.of_frame.assign(p.frames.size(), kNoKey);
  FlatMap<uint32_t> line_ids(p.frames.size() + 16);
  for (size_t i = 0; i < p.frames.size(); i++) {
    const Frame &fr = p.frames[i];
    uint32_t file = function_file_[fr.function];
    if (file == kNoKey || !kind_has_source(fr.kind)) continue;
    files_.of_frame[i] = file;
    if (fr.line < 1) continue;
    uint64_t key = (static_cast<uint64_t>(file) << 32) | static_cast<uint32_t>(fr.line);
    bool inserted = false;
    uint32_t &id =
        line_ids.find_or_insert(key, static_cast<uint32_t>(line_file_.size()), &inserted);
    if (inserted) {
      line_file_.push_back(file);
      line_number_.push_back(fr.line);
    }
    lines_.of_frame[i] = id;
  }
  lines_.count = static_cast<uint32_t>(line_file_.size());
  file_lines_.resize(file_names_.size());
  for (uint32_t k = 0; k < lines_.count; k++) file_lines_[line_file_[k]].push_back(k);
  for (auto &v : file_lines_)
    std::sort(v.begin(), v.end(),
              [&](uint32_t a, uint32_t b) { return line_number_[a] < line_number_[b]; });
}

uint32_t LineKeys::find_file(std::string_view name) const {
  auto it = file_ids_.find(name);
  return it == file_ids_.end() ? kNoKey : it->second;
}

} // namespace hotlines
