// Source resolution benchmark on a generated workspace: 100,000 source files in a temporary
// folder (a multi-module tree: 20 Maven modules x 40 packages x 100 Java classes, plus 20,000
// C files in 200 folders, plus 5,000 files in skipped `target/` and `.git` folders), and a
// synthetic profile of 100,000 functions: 60,000 JVM methods (5 per class over 12,000 classes,
// a tenth of them absent from the tree, and JDK classes), 40,000 C functions recorded under
// /build/ci-agent/... (path-suffix matches). Measures the index build (target: 100k files in
// < 2 s), resolving every function of the profile (declaration lines scanned from the files),
// the file -> functions lookup and the report. The tree is deleted at exit.
// Single-threaded driver.
#include "formats/jvm_names.h"
#include "formats/profile_builder.h"
#include "server/engine/profile_index.h"
#include "server/sources/profile_resolution.h"
#include "server/sources/resolution_report.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace hotlines;

namespace {

constexpr int kModules = 20, kPackages = 40, kClasses = 100;
constexpr int kCDirs = 200, kCFiles = 100;
constexpr int kMethodsPerClass = 5, kProfileClasses = 12'000, kCFunctions = 40'000;

std::string class_rel(int m, int p, int c) {
  return "mod" + std::to_string(m) + "/src/main/java/com/acme/m" + std::to_string(m) + "/p" +
         std::to_string(p) + "/C" + std::to_string(c) + ".java";
}
std::string c_rel(int d, int f) {
  return "native/lib" + std::to_string(d % 20) + "/d" + std::to_string(d) + "/f" +
         std::to_string(f) + ".c";
}

struct Tree {
  std::string root;
  size_t files = 0;
  double write_s = 0;
  Tree() {
    char tmpl[] = "/tmp/hotlines-ws-bench-XXXXXX";
    const char *d = mkdtemp(tmpl);
    root = d ? d : "/tmp/hotlines-ws-bench";
    auto start = std::chrono::steady_clock::now();
    auto write = [&](const std::string &rel, const std::string &text) {
      std::string path = root + "/" + rel;
      std::filesystem::create_directories(std::filesystem::path(path).parent_path());
      std::ofstream(path) << text;
      files++;
    };
    for (int m = 0; m < kModules; m++)
      for (int p = 0; p < kPackages; p++)
        for (int c = 0; c < kClasses; c++) {
          std::string pkg = "com.acme.m" + std::to_string(m) + ".p" + std::to_string(p);
          std::string text = "package " + pkg + ";\n\npublic class C" + std::to_string(c) + " {\n";
          for (int k = 0; k < kMethodsPerClass; k++)
            text +=
                "    public long m" + std::to_string(k) + "(int n) {\n        return n;\n    }\n";
          text += "}\n";
          write(class_rel(m, p, c), text);
        }
    for (int d = 0; d < kCDirs; d++)
      for (int f = 0; f < kCFiles; f++) write(c_rel(d, f), "int f(void) { return 0; }\n");
    for (int i = 0; i < 4000; i++)
      write("mod0/target/classes/x" + std::to_string(i) + ".class", "");
    for (int i = 0; i < 1000; i++) write(".git/objects/o" + std::to_string(i), "");
    write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  ~Tree() {
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
  }
};

Tree &tree() {
  static Tree t;
  return t;
}

std::shared_ptr<const WorkspaceIndex> built_index() {
  static std::shared_ptr<const WorkspaceIndex> ix = [] {
    auto w = std::make_shared<WorkspaceIndex>();
    w->add_root(tree().root);
    w->build();
    return w;
  }();
  return ix;
}

std::shared_ptr<const Profile> &profile() {
  static std::shared_ptr<const Profile> p = [] {
    ProfileBuilder b;
    std::vector<FrameId> frames;
    for (int i = 0; i < kProfileClasses; i++) {
      // Unique (module, package, class) per i; one class in ten (C100..) is not in the tree.
      int m = i % kModules, p = (i / kModules) % kPackages, c = i / (kModules * kPackages);
      if (i % 10 == 9) c += 100;
      std::string cls =
          "com/acme/m" + std::to_string(m) + "/p" + std::to_string(p) + "/C" + std::to_string(c);
      if (i % 50 == 0) cls = "java/util/Gen" + std::to_string(i); // JDK
      for (int k = 0; k < kMethodsPerClass; k++) {
        Function f;
        std::string method = "m" + std::to_string(k);
        std::string inner = k == 4 ? cls + "$Inner" : cls;
        f.name = b.intern(jvm_display_name(inner, method));
        f.class_name = b.intern(inner);
        f.method = b.intern(method);
        frames.push_back(b.frame(Frame{b.function(f), 0, -1, FrameKind::jit}));
      }
    }
    for (int i = 0; i < kCFunctions; i++) {
      int d = i % kCDirs, file = (i / kCDirs) % kCFiles;
      Function f;
      f.name = b.intern("fn" + std::to_string(i));
      f.file = b.intern("/build/ci-agent/_work/3/s/" + c_rel(d, file));
      f.start_line = 1;
      frames.push_back(b.frame(Frame{b.function(f), 2, -1, FrameKind::unknown}));
    }
    // 100,000 samples on stacks of 4 frames.
    EventId e = b.event("cpu", "samples");
    ThreadId t = b.thread("main");
    uint64_t x = 88172645463325252ull;
    for (int s = 0; s < 100'000; s++) {
      StackId st = kNoStack;
      for (int d = 0; d < 4; d++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        st = b.stack(st, frames[x % frames.size()]);
      }
      b.add_sample(e, st, t, 1, 1);
    }
    return std::shared_ptr<const Profile>(b.finish());
  }();
  return p;
}

std::shared_ptr<const ProfileResolution> resolved() {
  static std::shared_ptr<const ProfileResolution> r = [] {
    SourceResolver resolver(built_index(), {});
    return ProfileResolution::build(profile(), resolver);
  }();
  return r;
}

void BM_IndexBuild100kFiles(benchmark::State &st) {
  for (auto _ : st) {
    WorkspaceIndex ix;
    ix.add_root(tree().root);
    ix.build();
    st.counters["files"] = static_cast<double>(ix.size());
    st.counters["seconds"] = ix.build_seconds();
  }
}
void BM_ResolveProfile100kFunctions(benchmark::State &st) {
  for (auto _ : st) {
    SourceResolver resolver(built_index(), {}); // a fresh scan cache each time
    auto r = ProfileResolution::build(profile(), resolver);
    st.counters["functions"] = static_cast<double>(profile()->functions.size());
    st.counters["resolved"] = static_cast<double>(r->count(ResolutionStatus::resolved));
    st.counters["unresolved"] = static_cast<double>(r->count(ResolutionStatus::unresolved));
    st.counters["external"] = static_cast<double>(r->count(ResolutionStatus::external));
  }
}
void BM_FunctionsInFile(benchmark::State &st) {
  auto r = resolved();
  std::string path = tree().root + "/" + class_rel(3, 7, 11);
  for (auto _ : st) benchmark::DoNotOptimize(r->functions_in(path).size());
}
void BM_LongestSuffix(benchmark::State &st) {
  auto ix = built_index();
  std::string rec = "/build/ci-agent/_work/3/s/" + c_rel(17, 42);
  std::vector<std::string_view> comps = path_components(rec);
  size_t matched = 0;
  for (auto _ : st) benchmark::DoNotOptimize(ix->longest_suffix(comps, &matched));
}
void BM_Report(benchmark::State &st) {
  auto r = resolved();
  auto index = ProfileIndex::build(profile());
  auto view = index->unfiltered(0, Measure::value);
  for (auto _ : st) benchmark::DoNotOptimize(build_resolution_report(*r, *view, 20));
}

} // namespace

BENCHMARK(BM_IndexBuild100kFiles)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);
BENCHMARK(BM_ResolveProfile100kFunctions)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3);
BENCHMARK(BM_FunctionsInFile)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LongestSuffix)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Report)->Unit(benchmark::kMillisecond);

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  Tree &t = tree();
  printf("generated %zu files in %.1f s under %s\n", t.files, t.write_s, t.root.c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
