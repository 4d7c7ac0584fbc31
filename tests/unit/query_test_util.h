// Helpers for the query tests: a TestProfile's index, a view's weights, query results as text
// or maps to compare, and a naive reference aggregation to compare with.
#pragma once

#include "server/engine/profile_index.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_tree.h"
#include "server/engine/view_weights.h"
#include "test_profile.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

namespace hotlines::test {

// The engine's index of a hand-built profile.
inline std::shared_ptr<const ProfileIndex> index_of(TestProfile &t) {
  return ProfileIndex::build(t.finish());
}

// The weights of a view of the index (a failed view fails the test).
inline std::shared_ptr<const ViewWeights> view_of(const ProfileIndex &idx, const View &v = {}) {
  ViewResult r = compute_view(idx, v);
  EXPECT_TRUE(r.ok()) << r.error;
  return r.weights;
}

// The label of a node the view's queries returned (hottest_path's nodes carry no tree).
inline std::string label_of(const ViewWeights &v, const TreeNode &n) {
  return std::string(v.functions().label(n.function_key));
}

// Hot functions as name -> (self, total).
inline std::map<std::string, std::pair<int64_t, int64_t>> rows_of(const HotFunctions &h) {
  std::map<std::string, std::pair<int64_t, int64_t>> m;
  for (const FunctionRow &r : h.rows) m[std::string(r.name)] = {r.self, r.total};
  return m;
}

// A call tree as "name total/self" per node, indented by depth.
inline std::string dump(const CallTree &t) {
  std::string s;
  for (const TreeNode &n : t.nodes)
    s += std::string(n.depth * 2, ' ') + std::string(t.name(n)) + " " + std::to_string(n.total) +
         "/" + std::to_string(n.self) + "\n";
  return s;
}

// Naive reference: self/total per function label and per "file:line" for a list of samples
// given as (frames leaf first, weight).
struct NaiveSums {
  int64_t total = 0;
  std::map<std::string, int64_t> self, total_by;
  std::map<std::string, int64_t> line_self, line_total;
};

} // namespace hotlines::test
