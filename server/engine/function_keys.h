// FunctionKeys: how frames group into functions. By default functions aggregate by display
// name (Function::name), so one method's interpreted, JIT and inlined frames, and hidden
// lambda classes of different runs, are one row. With FunctionGrouping::fqn, overloads split:
// the label adds the recorded descriptor (`Pricing.discount(I)D`) when the format has one.
// Immutable once built; thread-safe. Refers to nothing after construction.
#pragma once

#include "formats/profile.h"
#include "server/engine/key_map.h"

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace hotlines {

enum class FunctionGrouping : uint8_t { name, fqn };

class FunctionKeys {
public:
  FunctionKeys(const Profile &profile, FunctionGrouping grouping);

  const KeyMap &map() const { return map_; }
  size_t size() const { return labels_.size(); }
  const std::string &label(uint32_t key) const { return labels_[key]; }
  // The first function with this key (for its file, class and start line).
  FunctionId function(uint32_t key) const { return function_of_key_[key]; }
  uint32_t key_of_function(FunctionId f) const { return key_of_function_[f]; }
  // The key's position in label order (compare ranks instead of strings when sorting).
  uint32_t rank(uint32_t key) const { return rank_[key]; }
  // A 64-bit hash of the label (stable across runs: FNV-1a).
  uint64_t label_hash(uint32_t key) const { return hash_[key]; }
  // Exact label lookup; kNoKey when absent.
  uint32_t find(std::string_view label) const;
  // Per-key flags for a user's method pattern: the key whose label is exactly the pattern,
  // else every key whose label matches it as a NamePattern (none for an invalid pattern).
  // Polls `cancel` before each label; once it fires the remaining keys stay unmatched.
  std::vector<uint8_t> match(std::string_view pattern,
                             const std::atomic<bool> *cancel = nullptr) const;
  // True when match() can use `pattern`: a label exactly, or a valid NamePattern; else false
  // with the pattern's error.
  bool check_method(std::string_view pattern, std::string *error) const;

private:
  KeyMap map_;
  std::vector<std::string> labels_;
  std::vector<FunctionId> function_of_key_;
  std::vector<uint32_t> key_of_function_;
  std::vector<uint32_t> sorted_; // keys sorted by label, for find()
  std::vector<uint32_t> rank_;
  std::vector<uint64_t> hash_;
};

// The label of a function under a grouping (display name, or display name + descriptor).
std::string function_label(const Profile &profile, const Function &f, FunctionGrouping grouping);

} // namespace hotlines
