// Exactness against `go tool pprof`: for every pprof fixture, every event and both measures,
// the engine's hot functions equal flat/cum of `-top`, and its per-file line tables equal the
// per-line flat/cum of `-list` (go-shop sources and the Go runtime's own sources).
#include "formats/loader.h"
#include "query_test_util.h"
#include "server/engine/query_hot.h"
#include "server/engine/query_lines.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::string go_shop() {
  return fixture_path("go-shop");
}

int64_t number(const std::string &cell) {
  if (cell == ".") return 0;
  return std::stoll(cell); // "20000000ns", "109679943B", "31": digits first
}

// pprof's -unit for a value unit, so it prints exact integers.
std::string unit_flag(std::string_view unit) {
  if (unit == "nanoseconds") return "-unit=ns";
  if (unit == "bytes") return "-unit=B";
  return "";
}

struct Top {
  std::map<std::string, int64_t> flat, cum;
};

Top run_top(const std::string &file, const std::string &sample_index, const std::string &unit) {
  std::string cmd =
      "go tool pprof -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -sample_index=" +
      sample_index + " " + unit + " '" + file + "' 2>/dev/null";
  int status = 0;
  std::istringstream in(run_command(cmd, &status));
  EXPECT_EQ(status, 0) << cmd;
  Top t;
  bool rows = false;
  static const std::regex row(R"(^\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(.+)$)");
  for (std::string line; std::getline(in, line);) {
    if (line.find("flat%") != std::string::npos) {
      rows = true;
      continue;
    }
    std::smatch m;
    if (!rows || !std::regex_match(line, m, row)) continue;
    std::string name = m[3];
    if (name.ends_with(" (inline)")) name.resize(name.size() - 9);
    if (int64_t f = number(m[1])) t.flat[name] += f;
    t.cum[name] = number(m[2]);
  }
  return t;
}

// Per (file as printed, line): flat and cum from -list over all routines; lines that two
// routines both weigh are dropped (pprof splits them by function, we do not).
struct ListLines {
  std::map<std::pair<std::string, int32_t>, std::pair<int64_t, int64_t>> lines;
  std::set<std::pair<std::string, int32_t>> shared;
};

ListLines run_list(const std::string &file, const std::string &sample_index,
                   const std::string &unit) {
  std::string cmd = "go tool pprof -list=. -sample_index=" + sample_index + " " + unit +
                    " -source_path=" + go_shop() + " -trim_path=/build/go-shop '" + file +
                    "' 2>/dev/null";
  int status = 0;
  std::istringstream in(run_command(cmd, &status));
  EXPECT_EQ(status, 0) << cmd;
  ListLines out;
  static const std::regex routine(R"(^ROUTINE =+ (.+) in (.+)$)");
  static const std::regex source(R"(^\s*(\S+)\s+(\S+)\s+(\d+):.*$)");
  std::string current;
  std::set<std::pair<std::string, int32_t>> in_routine;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, routine)) {
      current = m[2];
      in_routine.clear();
      continue;
    }
    if (current.empty() || !std::regex_match(line, m, source)) continue;
    int64_t flat = number(m[1]), cum = number(m[2]);
    if (flat == 0 && cum == 0) continue;
    auto key = std::make_pair(current, static_cast<int32_t>(std::stoi(m[3])));
    if (out.lines.count(key) && !in_routine.count(key)) out.shared.insert(key);
    in_routine.insert(key);
    out.lines[key] = {flat, cum};
  }
  for (const auto &k : out.shared) out.lines.erase(k);
  return out;
}

class PprofOracle : public ::testing::TestWithParam<const char *> {};

TEST_P(PprofOracle, HotFunctionsAndLinesMatch) {
  std::string file = std::string(GetParam()).find('/') == std::string::npos
                         ? fixture_path("go-shop/profiles/" + std::string(GetParam()))
                         : fixture_path(GetParam());
  LoadResult r = load_profile_file(file);
  ASSERT_TRUE(r.ok()) << r.describe();
  auto idx = ProfileIndex::build(std::shared_ptr<const Profile>(std::move(r.profile)));
  const Profile &p = idx->profile();
  size_t compared_functions = 0, compared_lines = 0;
  for (const Event &e : p.events) {
    for (Measure m : {Measure::value, Measure::count}) {
      std::string sample_index(p.str(m == Measure::value ? e.value_label : e.count_label));
      if (sample_index.empty()) continue;
      SCOPED_TRACE(std::string(GetParam()) + " " + sample_index);
      View v;
      v.event = std::string(p.str(e.name));
      v.measure = m;
      ViewResult vr = compute_view(*idx, v);
      ASSERT_TRUE(vr.ok()) << vr.error;
      const ViewWeights &w = *vr.weights;
      std::string unit = m == Measure::value ? unit_flag(p.str(e.unit)) : "";

      Top top = run_top(file, sample_index, unit);
      std::map<std::string, int64_t> self, total;
      for (const FunctionRow &row : hot_functions(w, {}).rows) {
        if (row.self) self[std::string(row.name)] = row.self;
        total[std::string(row.name)] = row.total;
      }
      EXPECT_EQ(self, top.flat);
      EXPECT_EQ(total, top.cum);
      compared_functions += top.cum.size();
      if (top.cum.empty()) { // an empty profile (mutex.pprof): nothing to list
        EXPECT_EQ(w.total, 0);
        continue;
      }

      ListLines list = run_list(file, sample_index, unit);
      std::map<std::pair<std::string, int32_t>, std::pair<int64_t, int64_t>> ours;
      for (const RecordedFile &f : recorded_files(w)) {
        // pprof prints go-shop paths trimmed of /build/go-shop/.
        std::string name(f.file);
        if (name.starts_with("/build/go-shop/")) name = name.substr(15);
        for (const FileLine &l : file_lines(w, f.file).lines) {
          auto key = std::make_pair(name, l.line);
          if (list.shared.count(key)) continue;
          // -list only shows functions whose source it can read.
          if (!list.lines.count(key) &&
              !std::ifstream(name.starts_with("/") ? name : go_shop() + "/" + name))
            continue;
          ours[key] = {l.self, l.total};
        }
      }
      std::map<std::pair<std::string, int32_t>, std::pair<int64_t, int64_t>> theirs;
      for (const auto &[k, fc] : list.lines)
        if (ours.count(k) ||
            std::ifstream(k.first.starts_with("/") ? k.first : go_shop() + "/" + k.first))
          theirs[k] = fc;
      EXPECT_EQ(ours, theirs);
      compared_lines += theirs.size();
    }
  }
  if (std::string(GetParam()) != "mutex.pprof") {
    EXPECT_GT(compared_functions, 0u);
  }
  RecordProperty("functions_checked", static_cast<int>(compared_functions));
  RecordProperty("lines_checked", static_cast<int>(compared_lines));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, PprofOracle,
                         ::testing::Values("cpu.pprof", "mem.pprof", "block.pprof", "mutex.pprof",
                                           "java-shop/profiles/ap-alloc.pb"),
                         [](const auto &info) {
                           std::string n = info.param;
                           n = n.substr(n.find_last_of('/') + 1);
                           for (char &ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

} // namespace
