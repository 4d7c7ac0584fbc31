// Helpers for the query tests: a TestProfile's index, and a naive reference aggregation to
// compare with.
#pragma once

#include "server/engine/profile_index.h"
#include "test_profile.h"

#include <map>
#include <memory>
#include <string>

namespace hotlines::test {

// The engine's index of a hand-built profile.
inline std::shared_ptr<const ProfileIndex> index_of(TestProfile &t) {
  return ProfileIndex::build(t.finish());
}

// Naive reference: self/total per function label and per "file:line" for a list of samples
// given as (frames leaf first, weight).
struct NaiveSums {
  int64_t total = 0;
  std::map<std::string, int64_t> self, total_by;
  std::map<std::string, int64_t> line_self, line_total;
};

} // namespace hotlines::test
