// Exactness against `go tool pprof` (Debian golang-go): for every fixture and every sample type
// (-sample_index), per-function flat/cum from `-top`, per-line flat/cum from `-top -lines` and
// `-list`, and the total must equal what the model gives. The same holds for pprof files our
// writer produced from pprof, collapsed and (once the JFR reader lands) JFR inputs.
// Set HOTLINES_SKIP_GO_TESTS=1 to skip when go is not installed (CI installs golang-go).
#include "formats/loader.h"
#include "formats/pprof_reader.h"
#include "formats/pprof_writer.h"
#include "pprof_oracle.h"
#include "pprof_proto_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::string tmp_dir() {
  std::string d = std::string(HOTLINES_BUILD_DIR) + "/pprof-gotool-test";
  std::filesystem::create_directories(d);
  return d;
}

std::vector<std::string> fixture_paths() {
  std::vector<std::string> out;
  for (const auto &e : std::filesystem::directory_iterator(fixture_path("go-shop/profiles")))
    if (e.path().extension() == ".pprof") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  out.push_back(java_profile("ap-alloc.pb"));
  return out;
}

bool require_go() {
  if (have_go_pprof()) return true;
  if (getenv("HOTLINES_SKIP_GO_TESTS")) return false;
  ADD_FAILURE() << "go tool pprof not found: apt-get install golang-go (or set "
                   "HOTLINES_SKIP_GO_TESTS=1)";
  return false;
}

// "Showing nodes accounting for X, P% of TOTAL total" -> TOTAL.
bool parse_total(const std::string &out, int64_t *total) {
  size_t end = out.find(" total\n");
  if (end == std::string::npos) return false;
  size_t start = out.rfind(" of ", end);
  if (start == std::string::npos) return false;
  return parse_amount(out.substr(start + 4, end - start - 4), total);
}

// go tool pprof leaves samples without locations out of its rows; hotlines shows them as the
// frame `[no stack]`. Takes that row out of `model` and expects it to hold exactly the weight
// missing from go's rows (every sample with a stack has one leaf row).
void expect_no_stack_row_is_the_rest(Weights *model, const Weights &go, int64_t total) {
  int64_t flat = 0;
  for (const auto &[key, w] : go) flat += w.flat;
  auto it = model->find("[no stack]");
  if (go.count("[no stack]")) return; // a file our writer made: a location like any other
  if (it == model->end()) {
    EXPECT_EQ(flat, total) << "samples without a stack, but no [no stack] row";
    return;
  }
  EXPECT_EQ(it->second.flat, total - flat);
  EXPECT_EQ(it->second.cum, total - flat);
  model->erase(it);
}

// The sample types go tool pprof -raw lists ("alloc_space/bytes"), and the default one.
std::vector<std::string> raw_sample_types(const std::string &file, std::string *dflt) {
  int status = -1;
  std::string out = go_pprof("-raw", file, &status);
  std::vector<std::string> types;
  size_t at = out.find("Samples:\n");
  if (status != 0 || at == std::string::npos) {
    ADD_FAILURE() << "go tool pprof -raw failed:\n" << out;
    return types;
  }
  size_t eol = out.find('\n', at + 9);
  std::istringstream row(out.substr(at + 9, eol - at - 9));
  std::string t;
  while (row >> t) {
    const std::string mark = "[dflt]";
    if (t.size() > mark.size() && t.compare(t.size() - mark.size(), mark.size(), mark) == 0) {
      t.resize(t.size() - mark.size());
      *dflt = t;
    }
    types.push_back(t);
  }
  return types;
}

// Compares every sample type of `file` as go tool pprof reads it with the model `p`.
// `source_flags` lets -list find sources; `what` names the case in failures.
void expect_same_as_go(const Profile &p, const std::string &file, const std::string &what,
                       const std::string &source_flags = "") {
  std::vector<PprofSampleType> types = pprof_sample_types(p);
  std::string dflt;
  std::vector<std::string> listed = raw_sample_types(file, &dflt), ours;
  for (const PprofSampleType &t : types) ours.push_back(t.type + "/" + t.unit);
  std::vector<std::string> a = listed, b = ours;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b) << what << ": every sample type in the file must be selectable in the model";
  if (!dflt.empty() && !p.events.empty()) {
    PprofSampleType d;
    ASSERT_TRUE(find_pprof_sample_type(p, dflt.substr(0, dflt.find('/')), &d)) << what;
    EXPECT_EQ(d.event, p.metadata.default_event) << what << ": default sample type " << dflt;
  }

  for (const PprofSampleType &t : types) {
    SCOPED_TRACE(what + " -sample_index=" + t.type);
    std::string flags = "-sample_index=" + shell_quote(t.type) + " " + unit_flag(t.unit) +
                        " -nodecount=1000000 -nodefraction=0 -edgefraction=0";
    int status = -1;
    std::string err;

    std::string top = go_pprof("-top " + flags, file, &status);
    ASSERT_EQ(status, 0) << top;
    Weights go_fn = parse_top(top, &err);
    EXPECT_EQ(err, "");
    int64_t total = -1;
    ASSERT_TRUE(parse_total(top, &total)) << top;
    EXPECT_EQ(total, model_total(p, t));
    Weights model_fn = model_weights(p, t, Granularity::functions);
    expect_no_stack_row_is_the_rest(&model_fn, go_fn, total);
    EXPECT_EQ(diff_weights(model_fn, go_fn), "") << "per function (-top)";
    EXPECT_FALSE(model_fn.empty() && total != 0);

    std::string lines = go_pprof("-top -lines " + flags, file, &status);
    ASSERT_EQ(status, 0) << lines;
    Weights go_lines = parse_top(lines, &err);
    EXPECT_EQ(err, "");
    Weights model_lines = model_weights(p, t, Granularity::lines);
    expect_no_stack_row_is_the_rest(&model_lines, go_lines, total);
    EXPECT_EQ(diff_weights(model_lines, go_lines), "") << "per line (-top -lines)";
    printf("  %-45s %-16s total %-12lld functions %-4zu lines %-4zu", what.c_str(), t.type.c_str(),
           static_cast<long long>(total), model_fn.size(), model_lines.size());

    // -list shows the functions whose source it finds; every line it shows must match.
    if (total == 0) {
      printf("\n");
      continue;
    }
    std::string list = go_pprof("-list . " + flags + " " + source_flags, file, &status);
    ASSERT_EQ(status, 0) << list;
    std::set<std::string> routines;
    Weights go_list = parse_list(list, &routines, &err);
    EXPECT_EQ(err, "");
    Weights model_list;
    for (const auto &[k, v] : model_list_weights(p, t))
      if (routines.count(k.substr(0, k.rfind(':')))) model_list[k] = v;
    EXPECT_EQ(diff_weights(model_list, go_list), "") << "per line (-list)";
    printf(" list lines %zu\n", model_list.size());
    if (!source_flags.empty()) {
      EXPECT_FALSE(routines.empty()) << "-list found no sources";
    }
  }
}

// -list flags that find go-shop's sources (other fixtures record no file names).
std::string source_flags_for(const std::string &fixture) {
  if (fixture.find("go-shop") == std::string::npos) return "";
  return "-source_path=" + shell_quote(fixture_path("go-shop")) + " -trim_path=/build/go-shop";
}

std::string write_file(const std::string &name, const std::string &bytes) {
  std::string path = tmp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string stem(const std::string &path) {
  return std::filesystem::path(path).filename().string();
}

} // namespace

TEST(PprofGoTool, FixturesMatchExactly) {
  if (!require_go()) GTEST_SKIP();
  for (const std::string &path : fixture_paths()) {
    LoadResult r = load_profile_file(path);
    ASSERT_TRUE(r.ok()) << r.describe();
    expect_same_as_go(*r.profile, path, stem(path), source_flags_for(path));
  }
}

TEST(PprofGoTool, PprofRoundTripMatchesExactly) {
  if (!require_go()) GTEST_SKIP();
  for (const std::string &path : fixture_paths()) {
    LoadResult r = load_profile_file(path);
    ASSERT_TRUE(r.ok()) << r.describe();
    std::string error;
    std::string out = write_file(stem(path) + ".pb.gz", write_pprof(*r.profile, {}, &error));
    ASSERT_EQ(error, "");
    expect_same_as_go(*r.profile, out, stem(path) + " -> pprof", source_flags_for(path));
    // And the written file read back by us again.
    LoadResult again = load_profile_file(out);
    ASSERT_TRUE(again.ok()) << again.describe();
    expect_same_as_go(*again.profile, out, stem(path) + " -> pprof -> model",
                      source_flags_for(path));
  }
}

TEST(PprofGoTool, CollapsedToPprofMatchesExactly) {
  if (!require_go()) GTEST_SKIP();
  for (const char *name : {"ap-cpu.collapsed", "ap-cpu-lines-threads.collapsed"}) {
    LoadResult r = load_profile_file(java_profile(name));
    ASSERT_TRUE(r.ok()) << r.describe();
    std::string error;
    std::string out = write_file(std::string(name) + ".pb.gz", write_pprof(*r.profile, {}, &error));
    ASSERT_EQ(error, "");
    expect_same_as_go(*r.profile, out, std::string(name) + " -> pprof");
  }
}

TEST(PprofGoTool, JfrToPprofMatchesExactly) {
  if (!require_go()) GTEST_SKIP();
  int loaded = 0;
  std::string why;
  for (const char *name :
       {"ap-cpu.jfr", "ap-wall.jfr", "ap-multi.jfr", "ap-cpu-then-wall-2chunks.jfr",
        "jdk-profile.jfr", "jdk-alloc-lock.jfr"}) {
    LoadResult r = load_profile_file(java_profile(name));
    if (!r.ok()) {
      why += std::string(name) + ": " + r.describe() + "\n";
      continue;
    }
    loaded++;
    std::string error;
    std::string out = write_file(std::string(name) + ".pb.gz", write_pprof(*r.profile, {}, &error));
    ASSERT_EQ(error, "");
    expect_same_as_go(*r.profile, out, std::string(name) + " -> pprof");
  }
  if (loaded == 0) GTEST_SKIP() << "the JFR reader cannot load the fixtures yet:\n" << why;
}

TEST(PprofGoTool, SyntheticCasesMatchExactly) {
  if (!require_go()) GTEST_SKIP();
  // drop_frames, inlining, an unsymbolized location, recursion, an empty stack, labels.
  ProtoProfile pp;
  pp.type("samples", "count");
  pp.type("cpu", "nanoseconds");
  uint64_t mallocf = pp.frame("malloc", 1, "m.c");
  uint64_t newf = pp.frame("operator new(unsigned long)", 2, "n.cc");
  uint64_t inner = pp.function("app::inner", "app.cc"), outer = pp.function("app::Work", "app.cc");
  uint64_t inl = pp.location({{inner, 5}, {outer, 11}});
  uint64_t work = pp.location({{outer, 12}});
  uint64_t root = pp.frame("main", 20, "app.cc");
  uint64_t m = pp.mapping("/lib/libc.so.6");
  uint64_t raw1 = pp.location({}, 0x1234, m), raw2 = pp.location({}, 0x5678, m);
  pp.pb.set_drop_frames(pp.s("malloc|operator new"));
  pp.sample({mallocf, newf, inl, root}, {5, 50});
  pp.sample({mallocf, root}, {1, 10});
  pp.sample({work, work, inl, root}, {2, 20}); // recursion: cum once per sample
  pp.sample({raw1, raw2, work, root}, {3, 30});
  pp.sample({}, {1, 7});
  pp.label(pp.sample({inl, root}, {4, 40}), "thread", "worker");
  std::string path = write_file("synthetic.pb", pp.bytes());
  LoadResult r = load_profile_file(path);
  ASSERT_TRUE(r.ok()) << r.describe();
  expect_same_as_go(*r.profile, path, "synthetic");
  std::string error;
  std::string out = write_file("synthetic-out.pb.gz", write_pprof(*r.profile, {}, &error));
  expect_same_as_go(*r.profile, out, "synthetic -> pprof");
}
