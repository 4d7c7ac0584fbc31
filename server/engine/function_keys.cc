// FunctionKeys (see function_keys.h).
// Threading: Built once per profile and grouping; read-only afterwards, any thread.
#include "server/engine/function_keys.h"

#include "server/engine/name_pattern.h"

#include <algorithm>
#include <unordered_map>

namespace hotlines {

std::string function_label(const Profile &p, const Function &f, FunctionGrouping grouping) {
  std::string label(p.str(f.name));
  if (grouping == FunctionGrouping::fqn) {
    std::string_view sys = p.str(f.system_name);
    size_t paren = sys.find('(');
    if (paren != std::string_view::npos && label.find('(') == std::string::npos)
      label.append(sys.substr(paren));
  }
  return label;
}

FunctionKeys::FunctionKeys(const Profile &p, FunctionGrouping grouping) {
  key_of_function_.resize(p.functions.size());
  std::unordered_map<std::string, uint32_t> ids;
  for (size_t f = 0; f < p.functions.size(); f++) {
    std::string label = function_label(p, p.functions[f], grouping);
    auto [it, inserted] = ids.try_emplace(label, static_cast<uint32_t>(labels_.size()));
    if (inserted) {
      labels_.push_back(std::move(label));
      function_of_key_.push_back(static_cast<FunctionId>(f));
    }
    key_of_function_[f] = it->second;
  }
  map_.count = static_cast<uint32_t>(labels_.size());
  map_.of_frame.resize(p.frames.size());
  for (size_t i = 0; i < p.frames.size(); i++)
    map_.of_frame[i] = key_of_function_[p.frames[i].function];
  sorted_.resize(labels_.size());
  for (uint32_t k = 0; k < sorted_.size(); k++) sorted_[k] = k;
  std::sort(sorted_.begin(), sorted_.end(),
            [&](uint32_t a, uint32_t b) { return labels_[a] < labels_[b]; });
  rank_.resize(labels_.size());
  for (uint32_t i = 0; i < sorted_.size(); i++) rank_[sorted_[i]] = i;
  hash_.resize(labels_.size());
  for (size_t k = 0; k < labels_.size(); k++) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : labels_[k]) {
      h ^= c;
      h *= 0x100000001b3ull;
    }
    hash_[k] = h;
  }
}

uint32_t FunctionKeys::find(std::string_view label) const {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), label,
                             [&](uint32_t k, std::string_view l) { return labels_[k] < l; });
  return it != sorted_.end() && labels_[*it] == label ? *it : kNoKey;
}

std::vector<uint8_t> FunctionKeys::match(std::string_view pattern,
                                         const std::atomic<bool> *cancel) const {
  std::vector<uint8_t> out(labels_.size(), 0);
  if (uint32_t k = find(pattern); k != kNoKey) {
    out[k] = 1;
    return out;
  }
  NamePattern np{std::string(pattern)};
  if (!np.ok()) return out;
  for (size_t k = 0; k < labels_.size(); k++) {
    if (cancel && cancel->load(std::memory_order_relaxed)) break;
    out[k] = np.matches(labels_[k]);
  }
  return out;
}

bool FunctionKeys::check_method(std::string_view pattern, std::string *error) const {
  if (find(pattern) != kNoKey) return true;
  NamePattern np{std::string(pattern)};
  if (!np.ok()) *error = np.error();
  return np.ok();
}

} // namespace hotlines
