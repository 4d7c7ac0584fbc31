// Query engine benchmark on a synthetic profile of 10 million samples: a JVM-like call graph
// (6,000 methods in 300 classes, recursion), 200,000 leaf stacks 8-64 frames deep walked down
// a shared call tree (about 1.5 million stack nodes), 200 threads, samples over 60 s skewed
// toward hot stacks. Each query runs as repetitions of one
// iteration, reporting mean, p50 and p99 (ms). Targets (issue 5): per-file line table <= 5 ms
// and hot functions <= 50 ms unfiltered, thread- or window-filtered hot list <= 300 ms, full
// flame graph <= 300 ms. With HOTLINES_QUERY_BENCH_PROFILE=FILE the same queries run on a real
// profile instead (e.g. the JFR load benchmark's large recording; HOTLINES_QUERY_BENCH_EVENT
// picks its event, e.g. lock for the one with most samples); the thread filter then takes
// the heaviest thread group and the window the middle quarter. Single-threaded driver;
// filtered views use both cores.
#include "formats/loader.h"
#include "formats/profile_builder.h"
#include "server/engine/profile_index.h"
#include "server/engine/query_diff.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "server/engine/query_threads.h"
#include "server/engine/query_timeline.h"
#include "server/engine/query_tree.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

using namespace hotlines;

namespace {

constexpr size_t kSamples = 10'000'000;
constexpr size_t kFunctions = 6000, kClasses = 300, kStacks = 200'000, kThreads = 200;
constexpr int64_t kSpanNs = 60'000'000'000;

struct Synthetic {
  std::shared_ptr<const ProfileIndex> index;
  std::string event; // empty: the default event
  std::string thread_pattern = "pool-2-";
  int64_t window_from = 20'000'000'000, window_to = 35'000'000'000;
  std::string hot_file;   // the file with the most weight
  std::string hot_method; // a method in the middle of many stacks
  double build_ms = 0, index_ms = 0;
};

View base_view(const Synthetic &s) {
  View v;
  v.event = s.event;
  return v;
}

void describe(Synthetic &out) {
  auto v = compute_view(*out.index, base_view(out)).weights;
  auto files = recorded_files(*v);
  if (!files.empty()) out.hot_file = std::string(files[0].file);
  HotOptions by_total;
  by_total.sort = SortBy::total;
  by_total.top = 40;
  HotFunctions h = hot_functions(*v, by_total);
  if (!h.rows.empty()) out.hot_method = std::string(h.rows.back().name);
}

Synthetic load_real(const char *path) {
  Synthetic out;
  if (const char *e = getenv("HOTLINES_QUERY_BENCH_EVENT")) out.event = e;
  auto t0 = std::chrono::steady_clock::now();
  LoadResult r = load_profile_file(path);
  if (!r.ok()) {
    fprintf(stderr, "%s\n", r.describe().c_str());
    exit(1);
  }
  auto t1 = std::chrono::steady_clock::now();
  auto profile = std::shared_ptr<const Profile>(std::move(r.profile));
  out.index = ProfileIndex::build(profile);
  auto t2 = std::chrono::steady_clock::now();
  out.build_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  out.index_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
  ThreadsResult tr = thread_weights(*out.index, base_view(out), true);
  if (!tr.rows.empty()) out.thread_pattern = tr.rows[0].name.substr(0, tr.rows[0].name.find('*'));
  out.window_from = out.index->end_ns() * 3 / 8;
  out.window_to = out.index->end_ns() * 5 / 8;
  describe(out);
  fprintf(stderr,
          "%s: %zu samples, %zu stacks, %zu frames; loaded in %.0f ms, indexed in %.0f ms\n", path,
          profile->sample_count(), profile->stack_count(), profile->frames.size(), out.build_ms,
          out.index_ms);
  return out;
}

const Synthetic &synthetic() {
  static Synthetic s = [] {
    if (const char *path = getenv("HOTLINES_QUERY_BENCH_PROFILE")) return load_real(path);
    Synthetic out;
    auto t0 = std::chrono::steady_clock::now();
    std::mt19937_64 rng(42);
    ProfileBuilder b;
    // Methods: class c in package c % 30, 3-6 frames (lines) each.
    std::vector<std::vector<FrameId>> frames(kFunctions);
    for (size_t f = 0; f < kFunctions; f++) {
      size_t c = f % kClasses;
      std::string cls = "com/acme/pkg" + std::to_string(c % 30) + "/Class" + std::to_string(c) +
                        (c % 7 == 0 ? "$Inner" : "");
      std::string method = "method" + std::to_string(f);
      Function fn;
      fn.name = b.intern(cls.substr(0, cls.size()) + "." + method); // display-like name
      std::string display = cls;
      std::replace(display.begin(), display.end(), '/', '.');
      fn.name = b.intern(display + "." + method);
      fn.class_name = b.intern(cls);
      fn.method = b.intern(method);
      fn.system_name = b.intern("(I)V");
      FunctionId id = b.function(fn);
      int n = 3 + static_cast<int>(rng() % 4);
      for (int l = 0; l < n; l++)
        frames[f].push_back(b.frame(Frame{id, static_cast<int32_t>(10 + f % 500 + l * 3), -1,
                                          l == 0 ? FrameKind::jit : FrameKind::inlined}));
    }
    // Call graph: callees are mostly in later layers; some recursion.
    std::vector<std::vector<size_t>> callees(kFunctions);
    for (size_t f = 0; f < kFunctions; f++) {
      int n = 3 + static_cast<int>(rng() % 6);
      for (int i = 0; i < n; i++) {
        size_t g = rng() % 20 == 0 ? f : std::min(kFunctions - 1, f + 1 + rng() % 400);
        callees[f].push_back(g);
      }
    }
    // Distinct stacks: walks down a shared call tree. At each level a walk follows an existing
    // child (hotter first) and branches into a new callee with a small probability, so
    // framework prefixes are shared and stacks diverge toward the leaves, as in real profiles.
    struct Node {
      StackId stack;
      uint32_t function;
      std::vector<uint32_t> children;
    };
    std::vector<Node> tree;
    std::vector<uint32_t> roots;
    for (uint32_t r = 0; r < 20; r++) {
      tree.push_back({b.stack(kNoStack, frames[r][0]), r, {}});
      roots.push_back(r);
    }
    std::vector<StackId> stacks(kStacks);
    std::vector<uint32_t> root_of(kStacks);
    auto skewed = [&](size_t n) {
      double u = std::uniform_real_distribution<double>(0, 1)(rng);
      return static_cast<size_t>(u * u * u * static_cast<double>(n));
    };
    for (size_t s = 0; s < kStacks; s++) {
      uint32_t root = roots[skewed(roots.size())];
      uint32_t node = root;
      int depth = 8 + static_cast<int>(rng() % 57);
      for (int d = 1; d < depth; d++) {
        Node &cur = tree[node];
        if (!cur.children.empty() && rng() % 1000 >= 15) {
          node = cur.children[skewed(cur.children.size())];
          continue;
        }
        const auto &cs = callees[cur.function];
        uint32_t f = static_cast<uint32_t>(cs[skewed(cs.size())]);
        const auto &fr = frames[f];
        StackId st = b.stack(cur.stack, fr[rng() % fr.size()]);
        uint32_t id = static_cast<uint32_t>(tree.size());
        tree[node].children.push_back(id);
        tree.push_back({st, f, {}});
        node = id;
      }
      stacks[s] = tree[node].stack;
      root_of[s] = root;
    }
    std::vector<ThreadId> threads(kThreads);
    for (size_t t = 0; t < kThreads; t++) {
      std::string name = t == 0 ? "main"
                         : t < 8
                             ? "GC Thread#" + std::to_string(t)
                             : "pool-" + std::to_string(1 + t % 5) + "-thread-" + std::to_string(t);
      threads[t] = b.thread(name, 1000 + static_cast<int64_t>(t));
    }
    EventId cpu = b.event("cpu", "samples");
    for (size_t i = 0; i < kSamples; i++) {
      double u = std::uniform_real_distribution<double>(0, 1)(rng);
      size_t s = static_cast<size_t>(u * u * u * kStacks);
      size_t t = (root_of[s] * 10 + rng() % 10) % kThreads;
      int64_t time = static_cast<int64_t>(i) * (kSpanNs / static_cast<int64_t>(kSamples)) +
                     static_cast<int64_t>(rng() % 5000);
      b.add_sample(cpu, stacks[s], threads[t], time, 1, 1);
    }
    b.metadata().format = "synthetic";
    b.metadata().duration_ns = kSpanNs;
    auto profile = std::shared_ptr<const Profile>(b.finish());
    auto t1 = std::chrono::steady_clock::now();
    out.index = ProfileIndex::build(profile);
    auto t2 = std::chrono::steady_clock::now();
    out.build_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    out.index_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
    describe(out);
    fprintf(stderr,
            "synthetic profile: %zu samples, %zu stacks, %zu frames; built in %.0f ms, indexed in "
            "%.0f ms\n",
            profile->sample_count(), profile->stack_count(), profile->frames.size(), out.build_ms,
            out.index_ms);
    return out;
  }();
  return s;
}

std::shared_ptr<const ViewWeights> view(const View &v) {
  ViewResult r = compute_view(*synthetic().index, v);
  if (!r.ok()) fprintf(stderr, "view failed: %s\n", r.error.c_str());
  return r.weights;
}

View base() {
  return base_view(synthetic());
}

View thread_view() {
  View v = base();
  v.threads.patterns = {synthetic().thread_pattern};
  return v;
}
View window_view() {
  View v = base();
  v.from_ns = synthetic().window_from;
  v.to_ns = synthetic().window_to;
  return v;
}

void BM_LineTableUnfiltered(benchmark::State &st) {
  auto v = view(base());
  for (auto _ : st) benchmark::DoNotOptimize(file_lines(*v, synthetic().hot_file));
}
void BM_HotFunctionsUnfiltered(benchmark::State &st) {
  for (auto _ : st) {
    auto v = view(base());
    HotOptions o;
    o.top = 50;
    benchmark::DoNotOptimize(hot_functions(*v, o));
  }
}
void BM_HotFunctionsThreadFiltered(benchmark::State &st) {
  for (auto _ : st) {
    auto v = view(thread_view());
    HotOptions o;
    o.top = 50;
    benchmark::DoNotOptimize(hot_functions(*v, o));
  }
}
void BM_HotFunctionsWindowFiltered(benchmark::State &st) {
  for (auto _ : st) {
    auto v = view(window_view());
    HotOptions o;
    o.top = 50;
    benchmark::DoNotOptimize(hot_functions(*v, o));
  }
}
void BM_HotFunctionsHiddenFrames(benchmark::State &st) {
  for (auto _ : st) {
    View h = base();
    h.hide = {"pkg3."};
    auto v = view(h);
    HotOptions o;
    o.top = 50;
    benchmark::DoNotOptimize(hot_functions(*v, o));
  }
}
void BM_LineTableWindowFiltered(benchmark::State &st) {
  for (auto _ : st)
    benchmark::DoNotOptimize(file_lines(*view(window_view()), synthetic().hot_file));
}
void BM_HotLinesUnfiltered(benchmark::State &st) {
  auto v = view(base());
  HotOptions o;
  o.top = 50;
  for (auto _ : st) benchmark::DoNotOptimize(hot_lines(*v, o));
}
void BM_FlameGraphFull(benchmark::State &st) {
  auto v = view(base());
  for (auto _ : st) benchmark::DoNotOptimize(flame_graph(*v));
}
void BM_CallTreeOfMethod(benchmark::State &st) {
  auto v = view(base());
  TreeOptions o;
  o.method = synthetic().hot_method;
  for (auto _ : st) benchmark::DoNotOptimize(call_tree(*v, o));
}
void BM_CallersOfMethod(benchmark::State &st) {
  auto v = view(base());
  TreeOptions o;
  o.direction = TreeDirection::callers;
  o.method = synthetic().hot_method;
  for (auto _ : st) benchmark::DoNotOptimize(call_tree(*v, o));
}
void BM_HottestPath(benchmark::State &st) {
  auto v = view(base());
  for (auto _ : st) benchmark::DoNotOptimize(hottest_path(*v, {}));
}
void BM_ThreadsUnfiltered(benchmark::State &st) {
  for (auto _ : st) benchmark::DoNotOptimize(thread_weights(*synthetic().index, base(), true));
}
void BM_ThreadsWindowFiltered(benchmark::State &st) {
  for (auto _ : st)
    benchmark::DoNotOptimize(thread_weights(*synthetic().index, window_view(), true));
}
void BM_Timeline(benchmark::State &st) {
  for (auto _ : st) benchmark::DoNotOptimize(timeline(*synthetic().index, base(), {}));
}
void BM_DiffTwoWindows(benchmark::State &st) {
  for (auto _ : st) {
    View a = base(), b = base();
    a.to_ns = synthetic().window_to;
    b.from_ns = synthetic().window_to;
    benchmark::DoNotOptimize(diff_functions(*view(a), *view(b), {}));
  }
}

double percentile(const std::vector<double> &v, double p) {
  std::vector<double> s = v;
  std::sort(s.begin(), s.end());
  if (s.empty()) return 0;
  size_t i = static_cast<size_t>(std::ceil(p * static_cast<double>(s.size()))) - 1;
  return s[std::min(i, s.size() - 1)];
}
double p50(const std::vector<double> &v) {
  return percentile(v, 0.50);
}
double p99(const std::vector<double> &v) {
  return percentile(v, 0.99);
}

void fast(benchmark::internal::Benchmark *b) {
  b->Iterations(1)
      ->Repetitions(200)
      ->Unit(benchmark::kMillisecond)
      ->ReportAggregatesOnly(true)
      ->ComputeStatistics("p50", p50)
      ->ComputeStatistics("p99", p99);
}
void slow(benchmark::internal::Benchmark *b) {
  b->Iterations(1)
      ->Repetitions(30)
      ->Unit(benchmark::kMillisecond)
      ->ReportAggregatesOnly(true)
      ->ComputeStatistics("p50", p50)
      ->ComputeStatistics("p99", p99);
}

BENCHMARK(BM_LineTableUnfiltered)->Apply(fast);
BENCHMARK(BM_HotFunctionsUnfiltered)->Apply(fast);
BENCHMARK(BM_HotFunctionsThreadFiltered)->Apply(slow);
BENCHMARK(BM_HotFunctionsWindowFiltered)->Apply(slow);
BENCHMARK(BM_HotFunctionsHiddenFrames)->Apply(slow);
BENCHMARK(BM_LineTableWindowFiltered)->Apply(slow);
BENCHMARK(BM_HotLinesUnfiltered)->Apply(slow);
BENCHMARK(BM_FlameGraphFull)->Apply(slow);
BENCHMARK(BM_CallTreeOfMethod)->Apply(slow);
BENCHMARK(BM_CallersOfMethod)->Apply(slow);
BENCHMARK(BM_HottestPath)->Apply(slow);
BENCHMARK(BM_ThreadsUnfiltered)->Apply(fast);
BENCHMARK(BM_ThreadsWindowFiltered)->Apply(slow);
BENCHMARK(BM_Timeline)->Apply(slow);
BENCHMARK(BM_DiffTwoWindows)->Apply(slow);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  synthetic(); // build outside the timed runs
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
