// JFR load benchmark. Without arguments: Google Benchmark over every .jfr fixture (parse +
// model, and parse + model + the query engine's precomputed per-event index; one and two
// threads), reporting bytes/s and samples/s. With `--load FILE [--threads N] [--repeat K]`:
// loads FILE as `hotlines info` does (load_profile_file: read chunk by chunk), builds the index,
// and prints one line of numbers for bench/jfr_load.sh — MB/s, samples/s, bytes/sample, CPU time,
// distinct stacks and their depth (counted after the timed load), peak RSS and peak anonymous
// (heap) RSS, and last the format and producer (the rest of the line), with the malloc policy of
// the hotlines binary. Single-threaded driver; the reader makes its own workers.
#include "formats/jfr_reader.h"
#include "formats/loader.h"
#include "formats/malloc_policy.h"
#include "server/engine/profile_index.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace hotlines;

namespace {

std::string read_all(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void BM_JfrLoad(benchmark::State &state, std::string path, unsigned threads, bool index) {
  const std::string data = read_all(path);
  LoadOptions o;
  o.threads = threads;
  size_t samples = 0;
  for (auto _ : state) {
    LoadResult r = read_jfr(data, o);
    if (!r.ok()) {
      state.SkipWithError(r.describe().c_str());
      return;
    }
    samples = r.profile->sample_count();
    if (index) {
      std::shared_ptr<const Profile> shared(std::move(r.profile));
      auto built = ProfileIndex::build(shared, nullptr, threads);
      benchmark::DoNotOptimize(built.get());
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * data.size()));
  state.counters["samples/s"] = benchmark::Counter(
      static_cast<double>(samples * state.iterations()), benchmark::Counter::kIsRate);
}

// Resident and file-backed pages of this process, in bytes (from /proc/self/statm).
void rss_now(size_t *resident, size_t *shared) {
  size_t size = 0, res = 0, shr = 0;
  if (FILE *f = fopen("/proc/self/statm", "r")) {
    if (fscanf(f, "%zu %zu %zu", &size, &res, &shr) != 3) res = shr = 0;
    fclose(f);
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  *resident = res * page;
  *shared = shr * page;
}

double cpu_seconds() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

int load_mode(const std::string &path, unsigned threads, int repeat) {
  // Peak anonymous memory (the model and the reader's tables), sampled while loading.
  std::atomic<bool> done{false};
  std::atomic<size_t> peak_anon{0};
  std::thread sampler([&] {
    while (!done.load()) {
      size_t res, shr;
      rss_now(&res, &shr);
      size_t anon = res > shr ? res - shr : 0;
      size_t cur = peak_anon.load();
      while (anon > cur && !peak_anon.compare_exchange_weak(cur, anon)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  size_t base_res, base_shr;
  rss_now(&base_res, &base_shr);
  const size_t base_anon = base_res - base_shr;
  double best = 1e30, best_cpu = 1e30, best_index = 1e30;
  size_t held = 0; // anonymous memory after the index is built, while it and the profile live
  size_t samples = 0, sample_bytes = 0, stacks = 0, frames = 0;
  size_t distinct = 0, max_depth = 0, depth_sum = 0;
  std::string producer;
  for (int k = 0; k < repeat; k++) {
    LoadOptions o;
    o.threads = threads;
    const double c0 = cpu_seconds();
    auto t0 = std::chrono::steady_clock::now();
    LoadResult r = load_profile_file(path, o);
    auto t1 = std::chrono::steady_clock::now();
    const double c1 = cpu_seconds();
    if (!r.ok()) {
      done = true;
      sampler.join();
      fprintf(stderr, "jfr_load_bench: %s\n", r.describe().c_str());
      return 1;
    }
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    best_cpu = std::min(best_cpu, c1 - c0);
    samples = r.profile->sample_count();
    sample_bytes = r.profile->sample_bytes();
    stacks = r.profile->stack_count();
    frames = r.profile->frames.size();
    producer = r.profile->metadata.format + " (" + r.profile->metadata.producer + ")";
    if (k == 0) { // distinct stacks the samples use (stack nodes also count their prefixes)
      const Profile &p = *r.profile;
      std::vector<bool> seen(p.stack_count(), false);
      std::vector<uint32_t> depth(p.stack_count()); // parents come before their children
      for (StackId s = 0; s < p.stack_count(); s++)
        depth[s] = p.stack_parent[s] == kNoStack ? 1 : depth[p.stack_parent[s]] + 1;
      distinct = 0, max_depth = 0, depth_sum = 0;
      for (const Event &e : p.events)
        for (size_t i = 0; i < e.samples.size(); i++)
          if (const StackId s = e.samples.stack_at(i); s != kNoStack && !seen[s]) {
            seen[s] = true;
            distinct++;
            depth_sum += depth[s];
            max_depth = std::max<size_t>(max_depth, depth[s]);
          }
    }
    std::shared_ptr<const Profile> shared(std::move(r.profile));
    auto t2 = std::chrono::steady_clock::now();
    auto index = ProfileIndex::build(shared, nullptr, threads);
    auto t3 = std::chrono::steady_clock::now();
    best_index = std::min(best_index, std::chrono::duration<double>(t3 - t2).count());
    size_t res, shr;
    rss_now(&res, &shr);
    held = std::max(held, res > shr + base_anon ? res - shr - base_anon : 0);
  }
  done = true;
  sampler.join();
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  const double size = static_cast<double>(std::filesystem::file_size(path));
  printf(
      "threads=%u seconds=%.3f MB/s=%.1f cpu_seconds=%.3f MB/cpu_s=%.1f index_seconds=%.3f "
      "MB/s_with_index=%.1f samples=%zu samples/s=%.0f bytes/sample=%.2f stacks=%zu "
      "frames=%zu distinct_stacks=%zu max_depth=%zu avg_depth=%.1f file_MB=%.1f peak_rss_MB=%.1f "
      "peak_heap_MB=%.1f held_MB=%.1f producer=%s\n",
      threads, best, size / best / 1e6, best_cpu, size / best_cpu / 1e6, best_index,
      size / (best + best_index) / 1e6, samples, samples / best,
      samples ? static_cast<double>(sample_bytes) / samples : 0.0, stacks, frames, distinct,
      max_depth, distinct ? static_cast<double>(depth_sum) / distinct : 0.0, size / 1e6,
      ru.ru_maxrss / 1024.0,
      (peak_anon.load() > base_anon ? peak_anon.load() - base_anon : 0) / 1e6, held / 1e6,
      producer.c_str());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  hotlines::set_malloc_policy();
  if (argc >= 3 && std::strcmp(argv[1], "--load") == 0) {
    unsigned threads = 1;
    int repeat = 1;
    for (int i = 3; i + 1 < argc; i += 2) {
      if (std::strcmp(argv[i], "--threads") == 0)
        threads = static_cast<unsigned>(std::atoi(argv[i + 1]));
      if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::max(1, std::atoi(argv[i + 1]));
    }
    return load_mode(argv[2], threads, repeat);
  }
  std::vector<std::string> files;
  for (const auto &e :
       std::filesystem::recursive_directory_iterator(HOTLINES_SOURCE_DIR "/tests/fixtures"))
    if (e.is_regular_file() && e.path().extension() == ".jfr") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string &f : files)
    for (bool index : {false, true})
      for (unsigned threads : {1u, 2u})
        benchmark::RegisterBenchmark((std::string(index ? "jfr_load_index/" : "jfr_load/") +
                                      std::filesystem::path(f).filename().string() +
                                      "/threads:" + std::to_string(threads))
                                         .c_str(),
                                     BM_JfrLoad, f, threads, index)
            ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
