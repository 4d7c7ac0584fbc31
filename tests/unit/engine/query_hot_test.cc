// Tests for views and hot functions/lines: hand-built profiles for recursion, ties, empty
// views, hidden frames, no-idle, include/exclude, windows and grouping, plus a randomized
// cross-check of every filter against a naive per-sample reference.
#include "query_test_util.h"
#include "server/engine/line_keys.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/view_filter.h"

#include <gtest/gtest.h>

#include <random>
#include <thread>

using namespace hotlines;
using namespace hotlines::test;

namespace {

TEST(QueryHot, RecursionCountsTotalOncePerSample) {
  TestProfile t;
  FrameId a = t.java("p/A", "a", 1), b = t.java("p/B", "b", 2), c = t.java("p/C", "c", 3);
  t.sample("cpu", {a, b, a, b, c});
  t.sample("cpu", {a, b, a, b});
  t.sample("cpu", {a});
  auto idx = index_of(t);
  auto v = view_of(*idx, View{});
  HotFunctions h = hot_functions(*v, {});
  EXPECT_EQ(h.view_total, 3);
  auto m = rows_of(h);
  EXPECT_EQ(m["p.A.a"], std::make_pair(int64_t{1}, int64_t{3}));
  EXPECT_EQ(m["p.B.b"], std::make_pair(int64_t{1}, int64_t{2}));
  EXPECT_EQ(m["p.C.c"], std::make_pair(int64_t{1}, int64_t{1}));
  // The same through a filtered (computed, not precomputed) view.
  View f;
  f.threads.names = {"main"};
  auto fv = view_of(*idx, f);
  EXPECT_EQ(fv->tables, nullptr);
  EXPECT_EQ(rows_of(hot_functions(*fv, {})), m);
}

// build() computes the default event's views; another event's are computed on first use,
// once, whichever thread asks first, and equal what build() would have made of them.
TEST(QueryHot, OtherEventsViewsAreComputedOnceOnFirstUse) {
  TestProfile t;
  FrameId a = t.java("p/A", "a", 1), b = t.java("p/B", "b", 2);
  t.sample("cpu", {a, b});
  t.sample("alloc", {a, b}, "main", 0, 1, 100);
  t.sample("alloc", {a}, "main", 0, 1, 40);
  t.sample("alloc", {a, b}, "worker", 0, 2, 7);
  auto idx = index_of(t);
  ASSERT_EQ(idx->profile().metadata.default_event, 0);
  std::shared_ptr<const ViewWeights> seen[4];
  std::vector<std::thread> askers;
  for (int i = 0; i < 4; i++)
    askers.emplace_back(
        [&, i] { seen[i] = idx->unfiltered(1, i % 2 ? Measure::value : Measure::count); });
  for (std::thread &th : askers) th.join();
  ASSERT_NE(seen[0], nullptr);
  ASSERT_NE(seen[1], nullptr);
  EXPECT_EQ(seen[0], seen[2]); // one view per event and measure
  EXPECT_EQ(seen[1], seen[3]);
  EXPECT_EQ(idx->unfiltered(1, Measure::value), seen[1]);
  EXPECT_EQ(idx->unfiltered(2, Measure::value), nullptr); // no such event
  const ViewWeights &bytes = *seen[1];
  EXPECT_EQ(bytes.total, 147);
  EXPECT_EQ(seen[0]->total, 4);
  ASSERT_NE(bytes.tables, nullptr);
  EXPECT_EQ(bytes.tables->thread_weight, (std::vector<int64_t>{140, 7}));
  View v;
  v.event = "alloc";
  auto m = rows_of(hot_functions(*view_of(*idx, v), {}));
  EXPECT_EQ(m["p.A.a"], std::make_pair(int64_t{40}, int64_t{147}));
  EXPECT_EQ(m["p.B.b"], std::make_pair(int64_t{107}, int64_t{107}));
  // The same sums from a filtered view (computed per query, not at load).
  v.threads.names = {"main", "worker"};
  EXPECT_EQ(rows_of(hot_functions(*view_of(*idx, v), {})), m);

  // An index that builds nothing ahead (the CLI's) answers the same, files and lines too.
  auto lazy = ProfileIndex::build(idx->shared_profile(), nullptr, 0, /*editor=*/false);
  v.threads.names.clear();
  EXPECT_EQ(rows_of(hot_functions(*view_of(*lazy, v), {})), m);
  auto files = [](const ViewWeights &w) {
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    for (const RecordedFile &f : recorded_files(w)) out[std::string(f.file)] = {f.self, f.total};
    for (const FileLine &l : file_lines(w, "p/B.java").lines)
      out["B:" + std::to_string(l.line)] = {l.self, l.total};
    return out;
  };
  const auto want = files(*view_of(*idx, v));
  EXPECT_EQ(want.at("p/A.java"), std::make_pair(int64_t{40}, int64_t{147}));
  EXPECT_EQ(want.at("B:2"), std::make_pair(int64_t{107}, int64_t{107}));
  EXPECT_EQ(files(*view_of(*lazy, v)), want);
}

TEST(QueryHot, TiesOrderByOtherWeightThenName) {
  TestProfile t;
  FrameId r = t.java("p/R", "root"), x = t.java("p/X", "x"), y = t.java("p/Y", "y"),
          z = t.java("p/Z", "z");
  t.sample("cpu", {r, z});
  t.sample("cpu", {r, y});
  t.sample("cpu", {r, x});
  t.sample("cpu", {r, x, y}); // y: self 2, total 2; x: self 1, total 2
  auto idx = index_of(t);
  for (bool filtered : {false, true}) {
    View vw;
    if (filtered) vw.threads.patterns = {"ma"};
    auto v = view_of(*idx, vw);
    HotFunctions h = hot_functions(*v, {});
    ASSERT_EQ(h.rows.size(), 4u);
    EXPECT_EQ(h.rows[0].name, "p.Y.y");
    EXPECT_EQ(h.rows[1].name, "p.X.x"); // self 1, total 2
    EXPECT_EQ(h.rows[2].name, "p.Z.z"); // self 1, total 1
    EXPECT_EQ(h.rows[3].name, "p.R.root");
    HotOptions by_total;
    by_total.sort = SortBy::total;
    h = hot_functions(*v, by_total);
    EXPECT_EQ(h.rows[0].name, "p.R.root");
    EXPECT_EQ(h.rows[1].name, "p.Y.y"); // total 2, self 2
    EXPECT_EQ(h.rows[2].name, "p.X.x"); // total 2, self 1
    HotOptions top;
    top.top = 2;
    EXPECT_EQ(hot_functions(*v, top).rows.size(), 2u);
    EXPECT_EQ(hot_functions(*v, top).matched, 4u);
  }
}

TEST(QueryHot, EmptyViewsAndEmptyProfiles) {
  TestProfile t;
  FrameId a = t.java("p/A", "a", 1);
  t.sample("cpu", {a}, "main", 5);
  auto idx = index_of(t);
  View v;
  v.threads.names = {"nobody"};
  auto w = view_of(*idx, v);
  EXPECT_EQ(w->total, 0);
  EXPECT_TRUE(hot_functions(*w, {}).rows.empty());
  EXPECT_TRUE(file_lines(*w, "p/A.java").lines.empty());
  EXPECT_TRUE(file_lines(*w, "p/A.java").found);
  EXPECT_FALSE(file_lines(*w, "nope.java").found);
  View win;
  win.from_ns = 10;
  EXPECT_EQ(view_of(*idx, win)->total, 0);

  TestProfile empty;
  empty.sample("cpu", {});
  auto eidx = index_of(empty);
  auto ew = view_of(*eidx, View{});
  EXPECT_EQ(ew->total, 1);
  EXPECT_EQ(ew->empty, 0); // a sample without a stack is the frame `[no stack]`
  HotFunctions eh = hot_functions(*ew, {});
  ASSERT_EQ(eh.rows.size(), 1u);
  EXPECT_EQ(eh.rows[0].name, "[no stack]");
  EXPECT_EQ(eh.rows[0].self, 1);
}

TEST(QueryHot, UnknownEventAndWindowWithoutTimesAreErrors) {
  TestProfile t;
  t.sample("cpu", {t.java("p/A", "a")});
  auto idx = index_of(t);
  View v;
  v.event = "wall";
  ViewResult r = compute_view(*idx, v);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("events: cpu"), std::string::npos) << r.error;
  View w;
  w.to_ns = 5;
  r = compute_view(*idx, w);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("timestamps"), std::string::npos) << r.error;
}

TEST(QueryHot, HiddenFramesLeaveTheirCallersAsLeaves) {
  TestProfile t;
  FrameId app = t.java("p/App", "run"), fw = t.java("fw/Proxy", "invoke"),
          work = t.java("p/App", "work");
  t.sample("cpu", {app, fw, work});
  t.sample("cpu", {app, fw});
  t.sample("cpu", {fw}); // becomes an empty stack
  auto idx = index_of(t);
  View v;
  v.hide = {"fw."};
  auto w = view_of(*idx, v);
  EXPECT_EQ(w->total, 3);
  EXPECT_EQ(w->empty, 1);
  auto m = rows_of(hot_functions(*w, {}));
  EXPECT_EQ(m.count("fw.Proxy.invoke"), 0u);
  EXPECT_EQ(m["p.App.run"], std::make_pair(int64_t{1}, int64_t{2}));
  EXPECT_EQ(m["p.App.work"], std::make_pair(int64_t{1}, int64_t{1}));
}

TEST(QueryHot, NoIdleDropsParkedAndSyscallCancelLeaves) {
  TestProfile t;
  FrameId run = t.java("p/W", "run"), park = t.java("jdk/internal/misc/Unsafe", "park"),
          cancel = t.native("__syscall_cancel_arch_end"), epoll = t.native("epoll_wait"),
          busy = t.java("p/W", "busy"),
          futex = t.native("futex_wait.constprop.0", FrameKind::kernel),
          v8_idle = t.native("(idle)");
  t.sample("wall", {run, park});
  t.sample("wall", {v8_idle}); // V8's profiles
  t.sample("wall", {run, cancel});
  t.sample("wall", {run, epoll});
  t.sample("wall", {run, futex});
  t.sample("wall", {run, busy});
  t.sample("wall", {park, busy}); // idle frame not at the leaf: kept
  auto idx = index_of(t);
  View v;
  v.no_idle = true;
  auto w = view_of(*idx, v);
  EXPECT_EQ(w->total, 2);
  auto m = rows_of(hot_functions(*w, {}));
  EXPECT_EQ(m["p.W.busy"].first, 2);
}

TEST(QueryHot, IncludeExcludeAndMethodFilter) {
  TestProfile t;
  FrameId a = t.java("p/A", "a"), b = t.java("p/B", "b"), c = t.java("p/C", "c");
  t.sample("cpu", {a, b});
  t.sample("cpu", {a, c});
  t.sample("cpu", {b, c}, "main", 0, 3);
  auto idx = index_of(t);
  View inc;
  inc.include = {"B.b"};
  EXPECT_EQ(view_of(*idx, inc)->total, 4);
  View exc;
  exc.exclude = {"B.b"};
  EXPECT_EQ(view_of(*idx, exc)->total, 1);
  View re;
  re.include = {"^p\\.(A|C)\\."};
  EXPECT_EQ(view_of(*idx, re)->total, 5);
  HotOptions o;
  o.method = "C.c";
  HotFunctions h = hot_functions(*view_of(*idx, View{}), o);
  ASSERT_EQ(h.rows.size(), 1u);
  EXPECT_EQ(h.rows[0].self, 4);
  auto names = closest_function_names(*view_of(*idx, View{}), "C.cc");
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0], "p.C.c");
}

TEST(QueryHot, ThreadFiltersByNameIdSubstringAndRegex) {
  TestProfile t;
  FrameId a = t.java("p/A", "a");
  t.sample("cpu", {a}, "pool-1-thread-1", 0, 1, -1, 101);
  t.sample("cpu", {a}, "pool-1-thread-2", 0, 2, -1, 102);
  t.sample("cpu", {a}, "main", 0, 4, -1, 1);
  auto idx = index_of(t);
  auto total = [&](ThreadFilter f) {
    View v;
    v.threads = f;
    return view_of(*idx, v)->total;
  };
  EXPECT_EQ(total({{"main"}, {}, {}}), 4);
  EXPECT_EQ(total({{}, {102}, {}}), 2);
  EXPECT_EQ(total({{}, {}, {"pool"}}), 3);
  EXPECT_EQ(total({{}, {}, {"thread-[2-9]$"}}), 2);
  EXPECT_EQ(total({{"main"}, {101}, {}}), 5);
}

TEST(QueryHot, WindowIsHalfOpen) {
  TestProfile t;
  FrameId a = t.java("p/A", "a");
  for (int i = 0; i < 10; i++) t.sample("cpu", {a}, "main", i * 100);
  auto idx = index_of(t);
  View v;
  v.from_ns = 200;
  v.to_ns = 500;
  EXPECT_EQ(view_of(*idx, v)->total, 3); // 200, 300, 400
}

TEST(QueryHot, FqnGroupingSplitsOverloads) {
  TestProfile t;
  FrameId i = t.java_desc("p/P", "price", "(I)D", 3), l = t.java_desc("p/P", "price", "(J)D", 7);
  t.sample("cpu", {i});
  t.sample("cpu", {l});
  t.sample("cpu", {l});
  auto idx = index_of(t);
  EXPECT_EQ(hot_functions(*view_of(*idx, View{}), {}).rows.size(), 1u);
  View fq;
  fq.grouping = FunctionGrouping::fqn;
  HotFunctions h = hot_functions(*view_of(*idx, fq), {});
  ASSERT_EQ(h.rows.size(), 2u);
  EXPECT_EQ(h.rows[0].name, "p.P.price(J)D");
  EXPECT_EQ(h.rows[1].name, "p.P.price(I)D");
}

TEST(QueryLines, FileTablesUseOuterClassAndCountLinesOncePerSample) {
  TestProfile t;
  FrameId main = t.java("org/acme/Main", "main", 10);
  FrameId d15 = t.java("org/acme/Pricing", "discount", 15);
  FrameId d15i = t.java("org/acme/Pricing", "discount", 15, FrameKind::inlined);
  FrameId spin = t.java("org/acme/Pricing$Inner", "spin", 43);
  FrameId lam = t.java("org/acme/Main$$Lambda$14.0x00007f", "run", 0);
  // The JDK recorder spells hidden classes dotted: same file as the slashed names.
  FrameId dotted = t.java("org.acme.Pricing$$Lambda+0x00007f1eec007c30/1545242146", "run", 0);
  FrameId nat = t.native("libmSin");
  t.sample("cpu", {main, d15, d15i}); // line 15 twice in one stack
  t.sample("cpu", {main, d15, spin});
  t.sample("cpu", {lam, main, d15, nat});
  auto idx = index_of(t);
  EXPECT_EQ(recorded_file_key(idx->profile(),
                              idx->profile().functions[idx->profile().frames[spin].function]),
            "org/acme/Pricing.java");
  EXPECT_EQ(recorded_file_key(idx->profile(),
                              idx->profile().functions[idx->profile().frames[lam].function]),
            "org/acme/Main.java");
  EXPECT_EQ(recorded_file_key(idx->profile(),
                              idx->profile().functions[idx->profile().frames[dotted].function]),
            "org/acme/Pricing.java");
  for (bool filtered : {false, true}) {
    View vw;
    if (filtered) vw.threads.patterns = {"main"};
    auto v = view_of(*idx, vw);
    FileLines fl = file_lines(*v, "org/acme/Pricing.java");
    ASSERT_TRUE(fl.found);
    ASSERT_EQ(fl.lines.size(), 2u);
    EXPECT_EQ(fl.lines[0].line, 15);
    EXPECT_EQ(fl.lines[0].self, 1);
    EXPECT_EQ(fl.lines[0].total, 3);
    EXPECT_EQ(fl.lines[1].line, 43);
    EXPECT_EQ(fl.lines[1].self, 1);
    EXPECT_EQ(fl.lines[1].total, 1);
    EXPECT_EQ(fl.total, 3);
    EXPECT_EQ(fl.self, 2);
    auto files = recorded_files(*v);
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(files[0].file, "org/acme/Pricing.java"); // total 3 like Main, more self
    EXPECT_EQ(files[1].file, "org/acme/Main.java");
  }
}

TEST(QueryLines, HotLinesByFunctionAndLine) {
  TestProfile t;
  FrameId a1 = t.path("main.work", "/src/w.go", 10), a2 = t.path("main.work", "/src/w.go", 11),
          r = t.path("main.main", "/src/m.go", 3);
  t.sample("cpu", {r, a1}, "main", 0, 5);
  t.sample("cpu", {r, a2}, "main", 0, 2);
  t.sample("cpu", {r, a1, a2}, "main", 0, 1);
  auto idx = index_of(t);
  auto v = view_of(*idx, View{});
  HotLines h = hot_lines(*v, {});
  ASSERT_EQ(h.rows.size(), 3u);
  EXPECT_EQ(h.rows[0].line, 10);
  EXPECT_EQ(h.rows[0].self, 5);
  EXPECT_EQ(h.rows[0].total, 6);
  EXPECT_EQ(h.rows[1].line, 11);
  EXPECT_EQ(h.rows[1].self, 3);
  EXPECT_EQ(h.rows[2].function, "main.main");
  HotOptions o;
  o.method = "main.work";
  h = hot_lines(*v, o, true);
  ASSERT_EQ(h.rows.size(), 2u);
  EXPECT_EQ(h.rows[0].line, 10);
  EXPECT_EQ(h.rows[1].line, 11);
  FileLines fl = file_lines(*v, "/src/w.go");
  ASSERT_EQ(fl.lines.size(), 2u);
  EXPECT_EQ(fl.total, 8);
}

// ---- randomized cross-check against a naive per-sample aggregation ----

struct RandomProfile {
  std::shared_ptr<const ProfileIndex> index;
  struct S {
    std::vector<FrameId> leaf_first;
    std::string thread;
    int64_t time, count, value;
  };
  std::vector<S> samples;
};

RandomProfile random_profile(uint32_t seed) {
  std::mt19937 rng(seed);
  TestProfile t;
  std::vector<FrameId> frames;
  const char *classes[] = {"a/Alpha", "a/Alpha$In", "b/Beta", "c/Gamma", "c/Gamma$1"};
  const char *methods[] = {"run", "work", "calc", "park", "wait"};
  for (const char *c : classes)
    for (const char *m : methods)
      for (int line : {0, 3, 7})
        frames.push_back(t.java(c, m, line, line == 7 ? FrameKind::inlined : FrameKind::jit));
  frames.push_back(t.native("epoll_wait"));
  frames.push_back(t.native("memcpy"));
  frames.push_back(t.java("jdk/internal/misc/Unsafe", "park", 0));
  const char *threads[] = {"main", "pool-1-thread-1", "pool-1-thread-2", "worker-3", "GC"};
  RandomProfile rp;
  for (int i = 0; i < 3000; i++) {
    int depth = std::uniform_int_distribution<int>(0, 9)(rng);
    std::vector<FrameId> root_first;
    for (int d = 0; d < depth; d++)
      root_first.push_back(
          frames[std::uniform_int_distribution<size_t>(0, d < 2 ? 5 : frames.size() - 1)(rng)]);
    std::string th = threads[rng() % 5];
    int64_t time = std::uniform_int_distribution<int64_t>(0, 999999)(rng);
    int64_t count = 1 + rng() % 3, value = rng() % 1000 + 1;
    t.sample("alloc", root_first, th, time, count, value);
    rp.samples.push_back({{root_first.rbegin(), root_first.rend()}, th, time, count, value});
  }
  rp.index = index_of(t);
  // A sample recorded without a stack has the one frame `[no stack]`.
  const Profile &p = rp.index->profile();
  const SampleColumns &c = p.events[p.find_event("alloc")].samples;
  for (size_t i = 0; i < rp.samples.size(); i++)
    if (rp.samples[i].leaf_first.empty()) {
      rp.samples[i].leaf_first = p.frames_of(c.stack[i]);
      EXPECT_EQ(rp.samples[i].leaf_first.size(), 1u);
      EXPECT_EQ(p.str(p.functions[p.frames[rp.samples[i].leaf_first[0]].function].name),
                "[no stack]");
    }
  return rp;
}

TEST(QueryHot, RandomViewsMatchNaiveAggregation) {
  RandomProfile rp = random_profile(7);
  const ProfileIndex &idx = *rp.index;
  const Profile &p = idx.profile();
  std::mt19937 rng(11);
  const std::vector<std::string> names = {"Alpha.run", "Beta.work", "Gamma$1", "calc", "In.park"};
  for (int round = 0; round < 60; round++) {
    View v;
    v.measure = round % 2 ? Measure::count : Measure::value;
    if (rng() % 3 == 0) v.threads.patterns = {rng() % 2 ? "pool" : "main"};
    if (rng() % 3 == 0) {
      v.from_ns = rng() % 500000;
      v.to_ns = *v.from_ns + rng() % 600000;
    }
    if (rng() % 3 == 0) v.hide = {names[rng() % names.size()]};
    if (rng() % 4 == 0) v.include = {names[rng() % names.size()]};
    if (rng() % 4 == 0) v.exclude = {names[rng() % names.size()]};
    v.no_idle = rng() % 3 == 0;
    auto contains = [&](const std::vector<std::string> &pats, std::string_view name) {
      for (const std::string &s : pats)
        if (name.find(s) != std::string_view::npos) return true;
      return false;
    };
    NaiveSums want;
    for (const auto &s : rp.samples) {
      if (!v.threads.patterns.empty() && s.thread.find(v.threads.patterns[0]) == std::string::npos)
        continue;
      if (v.from_ns && (s.time < *v.from_ns || s.time >= *v.to_ns)) continue;
      std::vector<std::string> fn_names;
      for (FrameId f : s.leaf_first)
        fn_names.emplace_back(p.str(p.functions[p.frames[f].function].name));
      bool any_inc = false, any_exc = false;
      for (auto &n : fn_names) {
        any_inc |= contains(v.include, n);
        any_exc |= contains(v.exclude, n);
      }
      if (!v.include.empty() && !any_inc) continue;
      if (any_exc) continue;
      if (v.no_idle && !fn_names.empty() &&
          (fn_names[0] == "epoll_wait" || fn_names[0] == "jdk.internal.misc.Unsafe.park"))
        continue;
      int64_t w = v.measure == Measure::count ? s.count : s.value;
      want.total += w;
      std::vector<FrameId> kept;
      for (size_t i = 0; i < s.leaf_first.size(); i++)
        if (!contains(v.hide, fn_names[i])) kept.push_back(s.leaf_first[i]);
      std::set<std::string> seen, seen_lines;
      for (size_t i = 0; i < kept.size(); i++) {
        const Frame &fr = p.frames[kept[i]];
        const Function &fn = p.functions[fr.function];
        std::string name(p.str(fn.name));
        std::string line;
        if (fr.line > 0 && fn.class_name) {
          std::string cls(p.str(fn.class_name));
          line = cls.substr(0, cls.find('$')) + ".java:" + std::to_string(fr.line);
        }
        if (i == 0) {
          want.self[name] += w;
          if (!line.empty()) want.line_self[line] += w;
        }
        if (seen.insert(name).second) want.total_by[name] += w;
        if (!line.empty() && seen_lines.insert(line).second) want.line_total[line] += w;
      }
    }
    ViewResult r = compute_view(idx, v);
    ASSERT_TRUE(r.ok()) << r.error;
    const ViewWeights &w = *r.weights;
    ASSERT_EQ(w.total, want.total) << "round " << round;
    std::map<std::string, int64_t> got_self, got_total;
    for (const FunctionRow &row : hot_functions(w, {}).rows) {
      if (row.self) got_self[std::string(row.name)] = row.self;
      got_total[std::string(row.name)] = row.total;
    }
    EXPECT_EQ(got_self, want.self) << "round " << round;
    EXPECT_EQ(got_total, want.total_by) << "round " << round;
    std::map<std::string, int64_t> got_ls, got_lt;
    for (const RecordedFile &f : recorded_files(w))
      for (const FileLine &l : file_lines(w, f.file).lines) {
        std::string key = std::string(f.file) + ":" + std::to_string(l.line);
        if (l.self) got_ls[key] = l.self;
        got_lt[key] = l.total;
      }
    EXPECT_EQ(got_ls, want.line_self) << "round " << round;
    EXPECT_EQ(got_lt, want.line_total) << "round " << round;
  }
}

// A deep tree with more nodes than samples: the second worker of a pass keeps (node, weight)
// pairs instead of an array per node; the weights are the same as one worker's, unfiltered and
// filtered.
TEST(QueryHot, TwoWorkersOnATreeOfMoreNodesThanSamples) {
  ProfileBuilder b;
  Function fn;
  fn.name = b.intern("deep");
  Frame fr;
  fr.function = b.function(fn);
  const FrameId f = b.frame(fr);
  const EventId cpu = b.event("cpu", "ns");
  const ThreadId main_thread = b.thread("main");
  std::vector<StackId> chain; // one path of 300,000 nodes
  for (StackId s = kNoStack; chain.size() < 300000;) chain.push_back(s = b.stack(s, f));
  std::vector<int64_t> want(chain.size(), 0);
  for (size_t i = 0; i < 120000; i++) {
    const size_t at = (i * 7919) % chain.size();
    const int64_t value = static_cast<int64_t>(i % 5 + 1);
    b.add_sample(cpu, chain[at], main_thread, 1, value);
    want[at] += value;
  }
  std::shared_ptr<const Profile> p = b.finish();
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto idx = ProfileIndex::build(p, nullptr, threads);
    View v;
    v.event = "cpu";
    for (bool filtered : {false, true}) {
      if (filtered) v.threads.names = {"main"};
      ViewResult r = compute_view(*idx, v, nullptr, threads);
      ASSERT_TRUE(r.ok()) << r.error;
      const ViewWeights &w = *r.weights;
      ASSERT_EQ(w.tree->size(), chain.size());
      std::vector<int64_t> self(chain.size());
      for (size_t k = 0; k < chain.size(); k++)
        self[k] = w.self().at(w.tree->node_of_stack(chain[k]));
      EXPECT_EQ(self, want) << (filtered ? "filtered" : "unfiltered");
      EXPECT_EQ(w.total, 360000);
      EXPECT_EQ(w.cum()[w.tree->node_of_stack(chain[0])], 360000);
    }
  }
}

// Samples in time order with a window over part of them: a pass on two workers splits the
// window's blocks between them, not the sample indices (which would leave one worker all of
// it), and the view is the same as one worker's.
TEST(QueryHot, AWindowIsSplitEvenlyBetweenWorkers) {
  ProfileBuilder b;
  Function fn;
  fn.name = b.intern("f");
  Frame fr;
  fr.function = b.function(fn);
  const StackId stack = b.stack(kNoStack, b.frame(fr));
  const EventId cpu = b.event("cpu", "ns");
  const ThreadId main_thread = b.thread("main");
  constexpr size_t kSamples = 1000000;
  int64_t want = 0;
  for (size_t i = 0; i < kSamples; i++) {
    const int64_t t = static_cast<int64_t>(i), value = t % 3 + 1;
    b.add_sample(cpu, stack, main_thread, t, 1, value);
    if (t >= 600000 && t < 900000) want += value;
  }
  auto idx = ProfileIndex::build(b.finish());
  View v;
  v.event = "cpu";
  std::string error;
  SampleFilter all;
  ASSERT_TRUE(all.compile(*idx, v, nullptr, &error)) << error;
  EXPECT_EQ(all.split(2), (std::vector<size_t>{0, 500000, kSamples}));
  v.from_ns = 600000;
  v.to_ns = 900000;
  SampleFilter window;
  ASSERT_TRUE(window.compile(*idx, v, nullptr, &error)) << error;
  const std::vector<size_t> bounds = window.split(2);
  ASSERT_EQ(bounds.size(), 3u);
  EXPECT_EQ(bounds[0], 0u);
  EXPECT_EQ(bounds[2], kSamples);
  EXPECT_EQ(bounds[1] % PackedInts::kBlock, 0u);
  EXPECT_NEAR(static_cast<double>(bounds[1]), 750000.0, PackedInts::kBlock);
  for (unsigned threads : {1u, 2u}) {
    ViewResult r = compute_view(*idx, v, nullptr, threads);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.weights->total, want) << threads << " threads";
    EXPECT_EQ(r.weights->samples, 300000u) << threads << " threads";
  }
}

} // namespace
