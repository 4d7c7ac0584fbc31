// pprof load benchmark. Without arguments: Google Benchmark of read_pprof over the pprof
// fixtures (and over $HOTLINES_BENCH_PPROF when set). `--make DIR [--stacks N]` generates
// DIR/pprof-1m.pb.gz (a Go-like cpu profile with N >= 1,000,000 distinct stacks, written by
// write_pprof) unless it exists. `--compare FILE` times our load (file -> model, best of 3) and
// `go tool pprof -top FILE` in the same run and prints the ratio and each one's peak RSS
// (bench/pprof_load.sh).
// Single-threaded.
#include "formats/gzip.h"
#include "formats/loader.h"
#include "formats/pprof_reader.h"
#include "formats/pprof_writer.h"
#include "formats/profile_builder.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace hotlines;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string read_all(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string inflate_if_gzip(std::string data) {
  if (!is_gzip(data)) return data;
  std::string out, err;
  if (!gunzip(data, &out, &err)) fprintf(stderr, "gunzip: %s\n", err.c_str());
  return out;
}

void BM_PprofRead(benchmark::State &state, std::string path) {
  const std::string data = inflate_if_gzip(read_all(path));
  size_t samples = 0;
  for (auto _ : state) {
    LoadResult r = read_pprof(data);
    if (!r.ok()) {
      state.SkipWithError(r.describe().c_str());
      return;
    }
    samples = r.profile->sample_count();
    benchmark::DoNotOptimize(r.profile.get());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
  state.counters["samples/s"] = benchmark::Counter(
      static_cast<double>(samples * state.iterations()), benchmark::Counter::kIsRate);
}

// A Go-like cpu profile: 40 packages x 500 functions, stacks made of one of 4000 shared
// trunks (depth 6-16, from main.main) plus a random tail of depth 3-10; one call in ten goes
// through one of 3000 fixed inline sites (a callee always inlined into the same caller line,
// as compilers do), 64 threads. Samples are added until `want` distinct stacks.
std::unique_ptr<Profile> make_profile(size_t want) {
  std::mt19937_64 rng(20261121);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  ProfileBuilder b;
  std::vector<FunctionId> fns;
  for (int pkg = 0; pkg < 40; pkg++)
    for (int f = 0; f < 500; f++) {
      Function fn;
      std::string name =
          "example.com/bench/pkg" + std::to_string(pkg) + ".Func" + std::to_string(f);
      fn.name = fn.system_name = b.intern(name);
      fn.file = b.intern("/build/bench/pkg" + std::to_string(pkg) + "/file" +
                         std::to_string(f / 50) + ".go");
      fn.start_line = 10 + (f % 50) * 40;
      fns.push_back(b.function(fn));
    }
  auto random_frame = [&](FrameKind kind) {
    FunctionId fn = fns[pick(fns.size())];
    int line = b.profile().functions[fn].start_line + 1 + static_cast<int>(pick(38));
    return b.frame(Frame{fn, line, -1, kind});
  };
  std::vector<std::pair<FrameId, FrameId>> inline_sites; // (caller, inlined callee)
  for (int i = 0; i < 3000; i++)
    inline_sites.push_back({random_frame(FrameKind::unknown), random_frame(FrameKind::inlined)});
  auto call = [&](StackId s) {
    if (pick(10) != 0) return b.stack(s, random_frame(FrameKind::unknown));
    auto [caller, callee] = inline_sites[pick(inline_sites.size())];
    return b.stack(b.stack(s, caller), callee);
  };
  Function main_fn;
  main_fn.name = main_fn.system_name = b.intern("main.main");
  main_fn.file = b.intern("/build/bench/main.go");
  FrameId main_frame = b.frame(Frame{b.function(main_fn), 12, -1, FrameKind::unknown});
  std::vector<StackId> trunks;
  for (int t = 0; t < 4000; t++) {
    StackId s = b.stack(kNoStack, main_frame);
    for (size_t d = 6 + pick(11); d > 0; d--) s = call(s);
    trunks.push_back(s);
  }
  EventId cpu = b.event("cpu", "nanoseconds");
  b.event_at(cpu).count_label = b.intern("samples");
  b.event_at(cpu).value_label = b.intern("cpu");
  std::vector<ThreadId> threads;
  for (int t = 0; t < 64; t++) threads.push_back(b.thread("worker-" + std::to_string(t), 1000 + t));
  std::vector<bool> seen;
  size_t distinct = 0;
  while (distinct < want) {
    StackId s = trunks[pick(trunks.size())];
    for (size_t d = 3 + pick(8); d > 0; d--) s = call(s);
    if (s >= seen.size()) seen.resize(s + 1 + seen.size() / 2, false);
    if (!seen[s]) {
      seen[s] = true;
      distinct++;
    }
    int64_t count = 1 + static_cast<int64_t>(pick(3));
    b.add_sample(cpu, s, threads[pick(threads.size())], count, count * 10000000);
  }
  b.metadata().period = 10000000;
  b.metadata().period_type = "cpu/nanoseconds";
  return b.finish();
}

int make_mode(const std::string &dir, size_t stacks) {
  std::filesystem::create_directories(dir);
  std::string path = dir + "/pprof-1m.pb.gz";
  if (std::filesystem::exists(path)) {
    printf("%s exists\n", path.c_str());
    return 0;
  }
  auto t0 = Clock::now();
  auto p = make_profile(stacks);
  double built = seconds_since(t0);
  t0 = Clock::now();
  std::string bytes = write_pprof(*p, {});
  double written = seconds_since(t0);
  std::ofstream(path + ".tmp", std::ios::binary) << bytes;
  std::filesystem::rename(path + ".tmp", path);
  printf("wrote %s: %zu distinct stacks requested, %zu samples, %zu stack nodes, %.1f MB "
         "gzipped (model %.1fs, write %.1fs)\n",
         path.c_str(), stacks, p->sample_count(), p->stack_count(), bytes.size() / 1e6, built,
         written);
  return 0;
}

double time_command(const std::string &cmd, int *status) {
  auto t0 = Clock::now();
  int rc = system(cmd.c_str());
  double s = seconds_since(t0);
  *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return s;
}

int compare_mode(const std::string &path) {
  double best = 1e30, best_inflate = 0, best_read = 0;
  size_t samples = 0, stacks = 0, distinct = 0;
  double bytes_per_sample = 0;
  for (int run = 0; run < 3; run++) {
    auto t0 = Clock::now();
    LoadResult r = load_profile_file(path);
    double total = seconds_since(t0);
    if (!r.ok()) {
      fprintf(stderr, "load failed: %s\n", r.describe().c_str());
      return 1;
    }
    if (total < best) best = total;
    samples = r.profile->sample_count();
    stacks = r.profile->stack_count();
    bytes_per_sample =
        static_cast<double>(r.profile->sample_bytes()) / std::max<size_t>(samples, 1);
    if (run == 0) {
      std::vector<bool> seen(stacks, false);
      for (const Event &e : r.profile->events)
        for (size_t i = 0; i < e.samples.size(); i++)
          if (const StackId s = e.samples.stack_at(i); s != kNoStack && !seen[s]) {
            seen[s] = true;
            distinct++;
          }
    }
  }
  struct rusage self {}; // peak of the loads (one model at a time), before the breakdown below
  getrusage(RUSAGE_SELF, &self);
  // Where the time goes: inflate vs decode + model.
  {
    std::string gz = read_all(path);
    auto t0 = Clock::now();
    std::string raw = inflate_if_gzip(gz);
    best_inflate = seconds_since(t0);
    t0 = Clock::now();
    LoadResult r = read_pprof(raw);
    best_read = seconds_since(t0);
  }
  printf("file                 %s (%.1f MB)\n", path.c_str(),
         std::filesystem::file_size(path) / 1e6);
  printf("model                %zu samples, %zu distinct stacks, %zu stack nodes, %.1f "
         "bytes/sample\n",
         samples, distinct, stacks, bytes_per_sample);
  printf("hotlines load        %.3f s  (best of 3; inflate %.3f s + decode/model %.3f s), peak RSS "
         "%.1f MB\n",
         best, best_inflate, best_read, self.ru_maxrss / 1024.0);
  int status = 0;
  double go = time_command("go tool pprof -top '" + path + "' > /dev/null 2>&1", &status);
  if (status != 0) {
    printf("go tool pprof -top   failed (exit %d): is golang-go installed?\n", status);
    return 1;
  }
  struct rusage children {};
  getrusage(RUSAGE_CHILDREN, &children); // the largest waited-for descendant: go's pprof
  printf("go tool pprof -top   %.3f s, peak RSS %.1f MB\n", go, children.ru_maxrss / 1024.0);
  printf("ratio                %.1fx faster than go tool pprof -top (target >= 5x)\n", go / best);
  return go / best >= 5 ? 0 : 2;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() >= 2 && args[0] == "--make") {
    size_t stacks = 1000000;
    if (args.size() >= 4 && args[2] == "--stacks") stacks = std::stoul(args[3]);
    return make_mode(args[1], stacks);
  }
  if (args.size() == 2 && args[0] == "--compare") return compare_mode(args[1]);

  std::string dir = std::string(HOTLINES_SOURCE_DIR) + "/tests/fixtures/";
  for (const char *f : {"go-shop/profiles/cpu.pprof", "go-shop/profiles/mem.pprof",
                        "java-shop/profiles/ap-alloc.pb"})
    benchmark::RegisterBenchmark(("pprof_read/" + std::string(f)).c_str(), BM_PprofRead, dir + f);
  if (const char *big = getenv("HOTLINES_BENCH_PPROF"))
    benchmark::RegisterBenchmark("pprof_read/large", BM_PprofRead, std::string(big))
        ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
