// Tests for exporting views: materialize_view (valid profiles with only the view's samples
// and stacks without hidden frames) and the collapsed writer (threads, lines, kinds) read
// back by the collapsed reader.
#include "formats/collapsed_reader.h"
#include "formats/collapsed_writer.h"
#include "query_test_util.h"
#include "server/engine/materialize_view.h"
#include "server/engine/query_hot.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

TEST(QueryExport, MaterializeKeepsOnlyTheView) {
  TestProfile t;
  FrameId run = t.java("p/Main", "run", 3), fw = t.java("fw/Proxy", "invoke", 9),
          calc = t.java("p/Calc", "calc", 10, FrameKind::inlined);
  t.sample("cpu", {run, fw, calc}, "main", 100, 2);
  t.sample("cpu", {run, fw}, "worker-1", 200, 1);
  t.sample("cpu", {run}, "main", 300, 4);
  t.sample("alloc", {run}, "main", 300, 1, 512);
  auto p = t.finish();
  View v;
  v.threads.names = {"main"};
  v.hide = {"fw."};
  std::string err;
  auto m = materialize_view(*p, v, &err);
  ASSERT_NE(m, nullptr) << err;
  EXPECT_EQ(m->check_valid(), "");
  ASSERT_EQ(m->events.size(), 1u);
  EXPECT_EQ(m->str(m->events[0].name), "cpu");
  EXPECT_EQ(m->events[0].total_count, 6);
  EXPECT_EQ(m->events[0].samples.time.to_vector(), (std::vector<int64_t>{100, 300}));
  // run;calc without the proxy frame.
  std::vector<FrameId> frames = m->frames_of(m->events[0].samples.stack[0]);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0], calc);
  EXPECT_EQ(frames[1], run);

  View bad;
  bad.event = "nope";
  EXPECT_EQ(materialize_view(*p, bad, &err), nullptr);
  EXPECT_NE(err.find("nope"), std::string::npos);
}

TEST(QueryExport, CollapsedWriterRoundTrips) {
  TestProfile t;
  FrameId run = t.java("p/Main", "run", 3), calc = t.java("p/Calc", "calc", 10, FrameKind::inlined),
          k = t.native("do_syscall_64", FrameKind::kernel);
  t.sample("cpu", {run, calc}, "main", 0, 2, -1, 7);
  t.sample("cpu", {run, calc}, "main", 0, 1, -1, 7);
  t.sample("cpu", {run, calc, k}, "worker-1", 0, 1, -1, 8);
  auto p = t.finish();
  EXPECT_EQ(write_collapsed(*p), "p/Main.run;p/Calc.calc 3\n"
                                 "p/Main.run;p/Calc.calc;do_syscall_64 1\n");
  CollapsedOptions o;
  o.threads = o.lines = o.kinds = true;
  std::string text = write_collapsed(*p, o);
  EXPECT_EQ(text, "[main tid=7];p/Main.run:3_[j];p/Calc.calc:10_[i] 3\n"
                  "[worker-1 tid=8];p/Main.run:3_[j];p/Calc.calc:10_[i];do_syscall_64_[k] 1\n");
  LoadResult r = read_collapsed(text);
  ASSERT_TRUE(r.ok()) << r.error;
  auto idx = ProfileIndex::build(std::shared_ptr<const Profile>(std::move(r.profile)));
  ViewResult v = compute_view(*idx, {});
  ASSERT_TRUE(v.ok());
  HotFunctions h = hot_functions(*v.weights, {});
  ASSERT_EQ(h.rows.size(), 3u);
  EXPECT_EQ(h.rows[0].name, "p.Calc.calc");
  EXPECT_EQ(h.rows[0].self, 3);
  EXPECT_EQ(h.rows[0].total, 4);
  EXPECT_EQ(h.rows[0].file, "p/Calc.java");
}

} // namespace
