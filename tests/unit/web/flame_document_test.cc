// The web view's data document (server/web/flame_document.h) and the export's source paths:
// the tree and rows reproduce the engine's flame graph, bucket
// rules, initial selections, the row cap, and source resolution on a temporary tree.
#include "query_test_util.h"
#include "server/engine/callee_shape.h"
#include "server/engine/query_tree.h"
#include "server/sources/profile_resolution.h"
#include "server/web/flame_document.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace hotlines {
namespace {

using Json = nlohmann::ordered_json;
using test::TestProfile;

std::shared_ptr<const ProfileIndex> sample_index() {
  TestProfile t;
  FrameId run = t.java("java/lang/Thread", "run", 840, FrameKind::interpreted);
  FrameId work = t.java("org/acme/Shop", "work", 10);
  FrameId work_inl = t.java("org/acme/Shop", "work", 11, FrameKind::inlined);
  FrameId calc = t.java("org/acme/Calc", "calc", 20);
  FrameId sin = t.native("libmSin");
  // cpu: 2 threads over 3 s; a recursion (work -> calc -> work); an inlined variant.
  t.sample("cpu", {run, work, calc}, "main", 5'000'000, 1, -1, 100);
  t.sample("cpu", {run, work, calc}, "main", 25'000'000, 1, -1, 100);
  t.sample("cpu", {run, work, calc, sin}, "worker-1", 45'000'000, 1, -1, 200);
  t.sample("cpu", {run, work_inl, calc}, "worker-1", 2'999'000'000, 1, -1, 200);
  t.sample("cpu", {run, work, calc, work, sin}, "main", 1'000'000'000, 1, -1, 100);
  t.sample("cpu", {run}, "main", 1'500'000'000, 1, -1, 100);
  // alloc: values differ from counts.
  t.sample("alloc", {run, work}, "main", 10'000'000, 1, 4096, 100);
  t.sample("alloc", {run, work, calc}, "worker-1", 20'000'000, 2, 100, 200);
  t.metadata().duration_ns = 3'000'000'000;
  return index_of(t);
}

Json build(const ProfileIndex &index, FlameDocumentOptions o = {}) {
  Json j;
  std::string error;
  EXPECT_TRUE(build_flame_document(index, o, &j, &error)) << error;
  return j;
}

TEST(FlameDocument, BucketWidthsAreRound) {
  EXPECT_EQ(flame_bucket_ns(3'000'000'000, 200), 20'000'000);
  EXPECT_EQ(flame_bucket_ns(1'000'000'000, 200), 5'000'000);
  EXPECT_EQ(flame_bucket_ns(1'100'000'000, 200), 10'000'000);
  EXPECT_EQ(flame_bucket_ns(7, 200), 1);
  EXPECT_EQ(flame_bucket_ns(0, 0), 1);
}

// Per event, the rows summed into nodes and up the tree give the engine's flame graph.
TEST(FlameDocument, RowsReproduceTheEngineFlameGraphOfEveryEvent) {
  auto index = sample_index();
  Json d = build(*index);
  const Json &nodes = d["nodes"], &rows = d["rows"];
  const size_t n = nodes["parent"].size();
  ASSERT_GT(n, 0u);
  for (size_t i = 0; i < n; i++) EXPECT_LT(nodes["parent"][i].get<int64_t>(), int64_t(i));
  const Profile &p = index->profile();
  for (EventId e = 0; e < p.events.size(); e++) {
    for (Measure m : {Measure::count, Measure::value}) {
      std::vector<int64_t> self(n, 0), total(n, 0);
      int64_t all = 0;
      for (size_t r = 0; r < rows["event"].size(); r++) {
        if (rows["event"][r] != e) continue;
        int64_t w = m == Measure::count || !rows.contains("value")
                        ? rows["count"][r].get<int64_t>()
                        : rows["value"][r].get<int64_t>();
        all += w;
        int64_t node = rows["node"][r];
        if (node >= 0) self[node] += w;
      }
      total = self;
      for (size_t i = n; i-- > 0;)
        if (int64_t par = nodes["parent"][i]; par >= 0) total[par] += total[i];
      std::shared_ptr<const ViewWeights> v = index->unfiltered(e, m);
      EXPECT_EQ(all, v->total);
      CallTree t = flame_graph(*v);
      std::map<uint64_t, std::pair<int64_t, int64_t>> engine;
      for (const TreeNode &tn : t.nodes) engine[tn.id] = {tn.self, tn.total};
      std::map<uint64_t, std::pair<int64_t, int64_t>> ours;
      for (size_t i = 0; i < n; i++)
        if (total[i] > 0) ours[nodes["id"][i].get<uint64_t>()] = {self[i], total[i]};
      EXPECT_EQ(ours, engine) << "event " << e << " measure " << int(m);
    }
  }
  // Sums of the rows are the events' totals.
  int64_t cpu = 0;
  for (size_t r = 0; r < rows["event"].size(); r++)
    if (rows["event"][r] == 0) cpu += rows["count"][r].get<int64_t>();
  EXPECT_EQ(cpu, 6);
  EXPECT_EQ(d["events"][0]["name"], "cpu");
  EXPECT_EQ(d["events"][1]["total_value"], 4196);
}

TEST(FlameDocument, NodesCarryTheHeaviestFramesKindAndLine) {
  auto index = sample_index();
  Json d = build(*index);
  const Json &f = d["functions"], &nodes = d["nodes"];
  std::map<std::string, std::pair<std::string, int>> top; // function -> kind, line (depth 1)
  for (size_t i = 0; i < nodes["fn"].size(); i++) {
    int64_t par = nodes["parent"][i];
    if (par < 0 || nodes["parent"][par] != -1) continue;
    top[f[nodes["fn"][i].get<size_t>()]["name"]] = {d["kinds"][nodes["kind"][i].get<size_t>()],
                                                    nodes["line"][i]};
  }
  // Shop.work under Thread.run: 4 cpu samples through the JIT frame (line 10), 1 inlined.
  EXPECT_EQ(top["org.acme.Shop.work"], std::make_pair(std::string("jit"), 10));
}

TEST(FlameDocument, TimelineBucketsAndInitialSelection) {
  auto index = sample_index();
  FlameDocumentOptions o;
  o.event = "alloc";
  o.measure = Measure::count;
  o.threads.patterns = {"work"};
  Json d = build(*index, o);
  EXPECT_EQ(d["timeline"]["bucket_ns"], 20'000'000);
  EXPECT_EQ(d["timeline"]["buckets"], 150);
  EXPECT_EQ(d["initial"]["event"], 1);
  EXPECT_EQ(d["initial"]["measure"], "count");
  ASSERT_EQ(d["initial"]["threads"].size(), 1u);
  EXPECT_EQ(d["threads"][d["initial"]["threads"][0].get<size_t>()]["name"], "worker-1");
  // The sample at 2.999 s is in the last bucket, the one at 45 ms in bucket 2.
  std::multiset<int64_t> buckets;
  for (size_t r = 0; r < d["rows"]["event"].size(); r++)
    if (d["rows"]["event"][r] == 0) buckets.insert(d["rows"]["bucket"][r].get<int64_t>());
  EXPECT_EQ(buckets, (std::multiset<int64_t>{0, 1, 2, 50, 75, 149}));
}

TEST(FlameDocument, TooManyRowsWidenTheBuckets) {
  auto index = sample_index();
  EXPECT_EQ(build(*index)["rows"]["event"].size(), 8u);
  FlameDocumentOptions o;
  o.max_rows = 7;
  // 80 ms buckets put main's samples at 5 and 25 ms into one row.
  Json d = build(*index, o);
  EXPECT_EQ(d["rows"]["event"].size(), 7u);
  EXPECT_EQ(d["timeline"]["bucket_ns"], 80'000'000);
  EXPECT_EQ(d["timeline"]["buckets"], 38);
  // A cap below the distinct (node, thread) pairs ends at one bucket.
  o.max_rows = 1;
  d = build(*index, o);
  EXPECT_EQ(d["timeline"]["buckets"], 1);
  EXPECT_EQ(d["rows"]["event"].size(), 7u);
}

TEST(FlameDocument, UnknownEventIsAnError) {
  auto index = sample_index();
  FlameDocumentOptions o;
  o.event = "wall";
  Json d;
  std::string error;
  EXPECT_FALSE(build_flame_document(*index, o, &d, &error));
  EXPECT_EQ(error, "no event 'wall' in the profile (events: cpu, alloc)");
}

TEST(FlameDocument, BaselineCarriesTheBaselineFlameGraph) {
  auto index = sample_index();
  TestProfile b;
  FrameId run = b.java("java/lang/Thread", "run", 840);
  FrameId work = b.java("org/acme/Shop", "work", 10);
  b.sample("cpu", {run, work}, "main", 0, 3);
  auto base = index_of(b);
  FlameDocumentOptions o;
  o.baseline = base.get();
  o.baseline_title = "before.jfr";
  Json d = build(*index, o);
  ASSERT_TRUE(d.contains("baseline"));
  EXPECT_EQ(d["baseline"]["total"], 3);
  EXPECT_EQ(d["baseline"]["nodes"]["id"].size(), 2u);
  // Equal paths, equal ids: Thread.run -> Shop.work is in both.
  std::set<uint64_t> ours;
  for (const Json &id : d["nodes"]["id"]) ours.insert(id.get<uint64_t>());
  for (const Json &id : d["baseline"]["nodes"]["id"]) EXPECT_TRUE(ours.count(id.get<uint64_t>()));
  o.event = "alloc";
  Json dj;
  std::string error;
  EXPECT_FALSE(build_flame_document(*index, o, &dj, &error));
  EXPECT_EQ(error, "the baseline has no event 'alloc'");
}

class FlameDocumentSources : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("hotlines-flame-src-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    for (const char *f : {"src/main/java/org/acme/Shop.java", "src/main/kotlin/org/acme/Calc.kt"}) {
      std::filesystem::create_directories((root_ / f).parent_path());
      std::ofstream(root_ / f) << "package org.acme;\n";
    }
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::filesystem::path root_;
};

// Functions carry the workspace resolution: the file, its path, or why there is none.
TEST_F(FlameDocumentSources, FunctionsCarryTheirResolution) {
  auto index = sample_index();
  auto ws = std::make_shared<WorkspaceIndex>();
  ws->add_root(root_.string());
  ws->build();
  auto sources = ProfileResolution::build(index->shared_profile(), SourceResolver(ws, {}));
  FlameDocumentOptions o;
  o.sources = sources.get();
  Json d = build(*index, o);
  std::map<std::string, Json> by_name;
  for (const Json &f : d["functions"]) by_name[f["name"]] = f;
  const Json &shop = by_name["org.acme.Shop.work"];
  EXPECT_EQ(shop["status"], "resolved");
  EXPECT_EQ(shop["file"], "org/acme/Shop.java");
  EXPECT_EQ(shop["path"], (root_ / "src/main/java/org/acme/Shop.java").string());
  EXPECT_EQ(by_name["org.acme.Calc.calc"]["file"], "org/acme/Calc.kt");
  const Json &run = by_name["java.lang.Thread.run"];
  EXPECT_EQ(run["status"], "external");
  EXPECT_FALSE(run.contains("path"));
  EXPECT_NE(run["why"].get<std::string>(), "");
  EXPECT_EQ(by_name["libmSin"]["status"], "external");
  EXPECT_EQ(d["link"]["roots"], Json::array({root_.string()}));
  // Without a resolution every function says sources were not looked up.
  Json none = build(*index);
  EXPECT_EQ(none["functions"][0]["why"], "sources were not looked up");
}

} // namespace
} // namespace hotlines
