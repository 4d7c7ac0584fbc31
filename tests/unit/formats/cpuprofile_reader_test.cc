// Tests for the V8 profile readers (.cpuprofile, .heapprofile), their JSON document and source
// maps, on small hand-written profiles whose answers are worked out here: sample durations from
// timeDeltas, positionTicks lines, `(root)` dropped, source-mapped frames (a map file written
// beside a script in a temporary folder, and an inline data: map), a folder of profiles, and
// hostile input (errors name the JSON path and offset; a deep tree does not recurse). The real
// Node runs against the oracle are tests/node/.
#include "formats/cpuprofile_reader.h"
#include "formats/heapprofile_reader.h"
#include "formats/json_doc.h"
#include "formats/loader.h"
#include "formats/source_map.h"
#include "formats/v8_profile_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace hotlines;

namespace {

// root -> main (a.js, line 0) -> hot (a.js, line 4, ticks on lines 6 and 7)
//                              -> (garbage collector)
const char kProfile[] = R"j({"nodes":[
 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":0,"children":[2]},
 {"id":2,"callFrame":{"functionName":"main","scriptId":"1","url":"/nowhere/a.js","lineNumber":0,"columnNumber":0},"hitCount":1,"children":[3,4]},
 {"id":3,"callFrame":{"functionName":"hot","scriptId":"1","url":"/nowhere/a.js","lineNumber":4,"columnNumber":12},"hitCount":3,"positionTicks":[{"line":7,"ticks":2},{"line":6,"ticks":1}]},
 {"id":4,"callFrame":{"functionName":"(garbage collector)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"hitCount":1}],
 "startTime":1000,"endTime":1100,"samples":[3,3,2,4,3],"timeDeltas":[10,20,5,30,15]})j";

int64_t line_value(const Profile &p, int32_t line, int64_t *count) {
  const Event &e = p.events[0];
  int64_t v = 0;
  *count = 0;
  for (size_t i = 0; i < e.samples.size(); i++) {
    if (e.samples.stack[i] == kNoStack) continue;
    const Frame &f = p.frames[p.stack_frame[e.samples.stack[i]]];
    if (f.line == line && p.str(p.functions[f.function].name).rfind("hot", 0) == 0)
      v += e.samples.value_at(i), ++*count;
  }
  return v;
}

TEST(CpuProfile, SamplesLastUntilTheNextAndTakeTheirLines) {
  LoadResult r = load_profile_bytes(kProfile);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.metadata.format, "cpuprofile");
  EXPECT_EQ(detect_format(kProfile), Format::cpuprofile);
  ASSERT_EQ(p.events.size(), 1u);
  const Event &e = p.events[0];
  EXPECT_EQ(p.str(e.name), "cpu");
  EXPECT_EQ(p.str(e.unit), "nanoseconds");
  // Times 1010, 1030, 1035, 1065, 1080 (µs); each sample until the next, the last until 1100.
  EXPECT_EQ(e.total_count, 5);
  EXPECT_EQ(e.total_value, (20 + 5 + 30 + 15 + 20) * 1000);
  EXPECT_EQ(e.samples.time_at(0), 10'000);
  EXPECT_EQ(e.samples.time_at(4), 80'000);
  // hot's samples (at 1010, 1030, 1080) take line 7 twice, then line 6: 20+5 µs and 20 µs.
  int64_t count = 0;
  EXPECT_EQ(line_value(p, 7, &count), 25'000);
  EXPECT_EQ(count, 2);
  EXPECT_EQ(line_value(p, 6, &count), 20'000);
  EXPECT_EQ(count, 1);
  // (root) is no frame: main is a root; hot's caller frame is main at its first line.
  for (size_t s = 0; s < p.stack_count(); s++) {
    const Function &f = p.functions[p.frames[p.stack_frame[s]].function];
    EXPECT_NE(p.str(f.name), "(root)");
    if (p.stack_parent[s] == kNoStack) {
      EXPECT_EQ(p.str(f.name), "main (a.js:1)");
    }
  }
  EXPECT_EQ(p.check_valid(), "");
}

TEST(CpuProfile, HostileInputNamesThePath) {
  struct Case {
    std::string json, error;
  } cases[] = {
      {R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":7}}],"startTime":0,"endTime":1,"samples":[],"timeDeltas":[]})",
       "nodes[0].callFrame.url: expected a string, got a number"},
      {R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":""},"children":[9]}],"startTime":0,"endTime":1,"samples":[],"timeDeltas":[]})",
       "nodes[0].children[0]: no node has id 9"},
      {R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":""},"children":[2]},{"id":2,"callFrame":{"functionName":"g","url":""},"children":[1]}],"startTime":0,"endTime":1,"samples":[],"timeDeltas":[]})",
       "is on a cycle of children"},
      {R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":""}}],"startTime":0,"endTime":1,"samples":[1,1],"timeDeltas":[1]})",
       "timeDeltas has 1 entries for 2 samples"},
      {R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":"","lineNumber":0},"positionTicks":[{"line":0,"ticks":1}]}],"startTime":0,"endTime":1,"samples":[1],"timeDeltas":[1]})",
       "nodes[0].positionTicks[0].line: 0 is not a line"},
      {R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":""}}],"startTime":0,"endTime":1,"samples":[2],"timeDeltas":[1]})",
       "samples[0]: no node has id 2"},
      {R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":""}}],"startTime":0.5,)",
       "cpuprofile: "},
  };
  for (const Case &c : cases) {
    LoadResult r = read_cpuprofile(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_NE(r.error.find(c.error), std::string::npos) << r.error;
    EXPECT_GE(r.error_offset, 0) << r.error;
  }
}

TEST(CpuProfile, DeepTreesAndDeepJsonDoNotRecurse) {
  // 200000 nested arrays: the parser keeps its own stack.
  std::string deep(200000, '[');
  deep += std::string(200000, ']');
  JsonDoc doc;
  std::string err;
  int64_t at = -1;
  EXPECT_TRUE(doc.parse(deep, &err, &at)) << err;
  // A call tree 100000 frames deep, one sample at the bottom.
  const int depth = 100000;
  std::string nodes;
  for (int i = 1; i <= depth; i++) {
    nodes += (i > 1 ? "," : "") + std::string(R"({"id":)") + std::to_string(i) +
             R"(,"callFrame":{"functionName":"f)" + std::to_string(i % 7) + R"(","url":""})" +
             (i < depth ? R"(,"children":[)" + std::to_string(i + 1) + "]" : "") + "}";
  }
  std::string json = R"({"nodes":[)" + nodes + R"(],"startTime":0,"endTime":5,"samples":[)" +
                     std::to_string(depth) + R"(],"timeDeltas":[1]})";
  LoadResult r = read_cpuprofile(json);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->stack_count(), static_cast<size_t>(depth));
  EXPECT_EQ(r.profile->events[0].total_value, 4000);
  // The same depth nested (a .heapprofile's `head`): read in a time linear in the nodes (a JSON
  // path per node would cost its depth), and an error at the bottom names the whole path.
  std::string heap;
  for (int i = 1; i <= depth; i++)
    heap += R"({"id":)" + std::to_string(i) +
            R"(,"selfSize":1,"callFrame":{"functionName":"f","url":""},"children":[)";
  std::string tail;
  for (int i = 1; i <= depth; i++) tail += "]}";
  LoadResult h = read_heapprofile(R"({"head":)" + heap + tail + "}");
  ASSERT_TRUE(h.ok()) << h.describe();
  EXPECT_EQ(h.profile->events[0].total_value, depth);
  LoadResult bad = read_heapprofile(R"({"head":)" + heap + R"({"id":0})" + tail + "}");
  ASSERT_FALSE(bad.ok());
  std::string path = "head";
  for (int i = 0; i < depth; i++) path += ".children[0]";
  EXPECT_NE(bad.error.find(path + ": no callFrame"), std::string::npos);
}

TEST(SourceMap, DecodesVlqAndFindsPositions) {
  // Line 0: col 0 -> a.ts 0:0; col 4 -> a.ts 2:1. Line 1: nothing. Line 2: col 2 -> b.ts 5:0.
  SourceMap m;
  ASSERT_EQ(m.parse(R"({"version":3,"sources":["a.ts","../b.ts"],"sourceRoot":"src",
                       "mappings":"AAAA,IAEC;;ECGD"})",
                    "/p/dist"),
            "");
  ASSERT_EQ(m.sources().size(), 2u);
  EXPECT_EQ(m.sources()[0], "/p/dist/src/a.ts");
  EXPECT_EQ(m.sources()[1], "/p/dist/b.ts");
  EXPECT_EQ(m.find(0, 3)->line, 0);
  EXPECT_EQ(m.find(0, 9)->line, 2);
  EXPECT_EQ(m.find(0, 9)->column, 1);
  EXPECT_FALSE(m.find(1, 0));
  EXPECT_FALSE(m.find(2, 1));
  EXPECT_EQ(m.find(2, std::nullopt)->source, 1u); // no column: the line's first mapped segment
  EXPECT_EQ(m.find(2, std::nullopt)->line, 5);
  EXPECT_FALSE(m.find(2, -1));         // a column before the line: its start, unmapped
  EXPECT_EQ(m.find(0, -172)->line, 0); // a.ts 0:0 at column 0
  EXPECT_FALSE(m.find(1, std::nullopt));
  EXPECT_EQ(m.find_next(1, 0)->line, 5);
  SourceMap bad;
  EXPECT_NE(bad.parse(R"({"version":3,"sources":["a.ts"],"mappings":"AAAA,A!"})", "/")
                .find("malformed base64 VLQ number at character 6"),
            std::string::npos);
  EXPECT_NE(bad.parse(R"({"version":3,"sources":["a.ts"],"mappings":"ACAA"})", "/")
                .find("source index out of range"),
            std::string::npos);
}

// A script beside its map file, and one with its map inline: frames land on the .ts lines.
TEST(CpuProfile, FramesFollowSourceMaps) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("hotlines-cpuprofile-" + std::to_string(getpid()));
  fs::create_directories(dir / "dist");
  // Generated line 2 (0-based 1) -> src/x.ts line 10; line 3 -> src/x.ts line 12.
  const std::string map = R"({"version":3,"sources":["../src/x.ts"],"mappings":";AASA;AAEA"})";
  std::ofstream(dir / "dist" / "x.js") << "\"use strict\";\nfunction f() {\n  work();\n}\n"
                                       << "//# sourceMappingURL=x.js.map\n";
  std::ofstream(dir / "dist" / "x.js.map") << map;
  // The same map inline, base64.
  std::string b64 =
      "eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpbIi4uL3NyYy94LnRzIl0sIm1hcHBpbmdzIjoiO0FBU0E7QUFFQSJ9";
  std::ofstream(dir / "dist" / "y.js")
      << "\"use strict\";\nfunction f() {\n  work();\n}\n"
      << "//# sourceMappingURL=data:application/json;charset=utf-8;base64," << b64 << "\n";
  for (const char *script : {"x.js", "y.js"}) {
    const std::string url = "file://" + (dir / "dist" / script).string();
    const std::string json =
        R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":")" + url +
        R"(","lineNumber":1,"columnNumber":0},"positionTicks":[{"line":3,"ticks":1}]}],)"
        R"("startTime":0,"endTime":10,"samples":[1,1],"timeDeltas":[1,1]})";
    LoadResult r = read_cpuprofile(json);
    ASSERT_TRUE(r.ok()) << r.describe();
    const Profile &p = *r.profile;
    const Event &e = p.events[0];
    const Frame &first = p.frames[p.stack_frame[e.samples.stack[0]]];
    const Frame &second = p.frames[p.stack_frame[e.samples.stack[1]]];
    const Function &f = p.functions[first.function];
    EXPECT_EQ(p.str(f.file), (dir / "src" / "x.ts").string()) << script;
    EXPECT_EQ(f.start_line, 10);
    EXPECT_EQ(p.str(f.name), "f (x.ts:10)");
    EXPECT_EQ(first.line, 12);  // positionTicks line 3 -> x.ts:12
    EXPECT_EQ(second.line, 10); // no ticks left: the function's first line
    EXPECT_EQ(p.str(f.system_name), url + ":2:1");
  }
  // Without source maps (the fuzzers' setting) frames stay on the script.
  LoadOptions off;
  off.source_maps = false;
  const std::string url = "file://" + (dir / "dist" / "x.js").string();
  LoadResult r = read_cpuprofile(
      R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":")" + url +
          R"(","lineNumber":1,"columnNumber":0}}],"startTime":0,"endTime":1,"samples":[1],"timeDeltas":[0]})",
      off);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.profile->str(r.profile->functions[0].file), (dir / "dist" / "x.js").string());
  fs::remove_all(dir);
}

// vitest runs src/m.ts transformed under its own path, in a module function that V8 starts
// 172 columns before the script's text. Its ticks on positions that map to nothing keep the
// function's start: their generated lines are no lines of m.ts.
TEST(CpuProfile, ModuleWrapperAndUnmappedTicksKeepTheStartLine) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("hotlines-cpuprofile-wrapper-" + std::to_string(getpid()));
  fs::create_directories(dir / "src");
  // Generated line 0: column 0 maps to nothing, column 5 to m.ts line 7. Line 1: nothing.
  std::ofstream(dir / "src" / "m.ts.map")
      << R"({"version":3,"sources":["m.ts"],"mappings":"A,KAMA;A"})";
  std::ofstream(dir / "src" / "m.ts") << "const a = 1;\nwork(a);\n//# sourceMappingURL=m.ts.map\n";
  const std::string url = "file://" + (dir / "src" / "m.ts").string();
  LoadResult r = read_cpuprofile(
      R"({"nodes":[{"id":1,"callFrame":{"functionName":"","url":")" + url +
      R"(","lineNumber":0,"columnNumber":-172},"positionTicks":[{"line":1,"ticks":1},)"
      R"({"line":2,"ticks":1}]}],"startTime":0,"endTime":10,"samples":[1,1,1],)"
      R"("timeDeltas":[1,1,1]})");
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  const Event &e = p.events[0];
  ASSERT_EQ(e.samples.stack.size(), 3u);
  const Function &f = p.functions[p.frames[p.stack_frame[e.samples.stack[0]]].function];
  EXPECT_EQ(p.str(f.name), "(anonymous) (m.ts:7)"); // the first mapped segment from column 0
  for (size_t i = 0; i < 3; i++)
    EXPECT_EQ(p.frames[p.stack_frame[e.samples.stack[i]]].line, 7) << i;
  fs::remove_all(dir);
}

// One process's profile: a function of `url` sampled once, `delta` µs after `start`.
std::string one_sample(const std::string &url, int64_t start, int64_t delta) {
  return R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":")" + url +
         R"(","lineNumber":0,"columnNumber":0}}],"startTime":)" + std::to_string(start) +
         R"(,"endTime":)" + std::to_string(start + delta + 10) +
         R"(,"samples":[1],"timeDeltas":[)" + std::to_string(delta) + "]}";
}

// A --cpu-prof-dir of three processes: the runner (node: built-ins only) is left out, the two
// that ran project code are threads `pid N` on one clock.
TEST(CpuProfileFolder, KeepsTheProcessesThatRanProjectCode) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("hotlines-cpuprofiles-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  LoadResult empty = load_profile_file(dir.string());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error, "cannot read " + dir.string() +
                             ": is a directory, without .cpuprofile or .heapprofile files (a "
                             "folder of V8 profiles loads as one profile)");
  std::ofstream(dir / "CPU.20250101.120000.100.0.001.cpuprofile")
      << one_sample("node:internal/test_runner/runner", 0, 5);
  std::ofstream(dir / "CPU.20250101.120001.200.0.002.cpuprofile")
      << one_sample("file:///project/dist/a.test.js", 5000, 20);
  std::ofstream(dir / "CPU.20250101.120001.300.0.003.cpuprofile")
      << one_sample("/project/dist/b.test.js", 1000, 30);
  std::ofstream(dir / "notes.txt") << "not a profile";
  LoadResult r = load_profile_file(dir.string());
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  ASSERT_EQ(p.threads.size(), 2u);
  EXPECT_EQ(p.str(p.threads[0].name), "pid 200");
  EXPECT_EQ(p.str(p.threads[1].name), "pid 300");
  const Event &e = p.events[0];
  ASSERT_EQ(e.samples.size(), 2u);
  // Times from the earliest start kept (1000 µs): 5020 - 1000 and 1030 - 1000.
  EXPECT_EQ(e.samples.time_at(0), 4'020'000);
  EXPECT_EQ(e.samples.time_at(1), 30'000);
  EXPECT_EQ(e.total_value, 20'000); // each lasts 10 µs, to its endTime
  ASSERT_EQ(p.metadata.warnings.size(), 1u);
  EXPECT_NE(
      p.metadata.warnings[0].message.find("left out CPU.20250101.120000.100.0.001.cpuprofile"),
      std::string::npos);
  // A file that is not JSON fails the load, naming it.
  std::ofstream(dir / "CPU.20250101.120002.400.0.004.cpuprofile") << "{\"nodes\": [";
  LoadResult bad = load_profile_file(dir.string());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("CPU.20250101.120002.400.0.004.cpuprofile: the JSON text ends inside"),
            std::string::npos)
      << bad.error;
  fs::remove_all(dir);
}

TEST(HeapProfile, SamplesAreAllocationsInBytes) {
  const char json[] = R"j({"head":{"callFrame":{"functionName":"(root)","scriptId":"0","url":"",
    "lineNumber":-1,"columnNumber":-1},"selfSize":0,"id":1,"children":[
    {"callFrame":{"functionName":"make","scriptId":"1","url":"/nowhere/m.js","lineNumber":2,
     "columnNumber":0},"selfSize":96,"id":2,"children":[]}]},
    "samples":[{"size":64,"nodeId":2,"ordinal":1},{"size":32,"nodeId":2,"ordinal":2}]})j";
  EXPECT_EQ(detect_format(json), Format::heapprofile);
  LoadResult r = load_profile_bytes(json);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Event &e = r.profile->events[0];
  EXPECT_EQ(r.profile->str(e.name), "alloc");
  EXPECT_EQ(r.profile->str(e.unit), "bytes");
  EXPECT_EQ(e.total_count, 2);
  EXPECT_EQ(e.total_value, 96);
  LoadResult bad = read_heapprofile(R"({"head":{"callFrame":{"functionName":"x","url":""},"id":1,
    "children":[{"callFrame":{"functionName":"y","url":[]},"id":2}]}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("head.children[0].callFrame.url: expected a string, got an array"),
            std::string::npos)
      << bad.error;
}

} // namespace

// The hotlines preload's files: `hotlines-<pid>-<thread>-<ms>.cpuprofile` with a
// `.scripts.json` beside it naming the map a script was compiled with (a runner's in-memory
// transform). That map is used, not the file on disk (which has none: the original source);
// threads are `pid N` (`pid N worker T`); a .scripts.json of the wrong shape is a warning that
// names where.
TEST(CpuProfileFolder, PreloadScriptsMapsAndNames) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("hotlines-preload-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "p" / "src");
  const std::string script = (dir / "p" / "src" / "cart.js").string();
  std::ofstream(script) << "// the original source, no map comment\n";
  // Generated line 2 (0-based 1) -> cart.js line 6 (0-based 5), as babel moves lines.
  const std::string b64 =
      "eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpbImNhcnQuanMiXSwibWFwcGluZ3MiOiI7QUFLQSJ9";
  const std::string url = "file://" + script;
  std::ofstream(dir / "hotlines-42-0-1700000000000.cpuprofile")
      << R"({"nodes":[{"id":1,"callFrame":{"functionName":"f","url":")" + url +
             R"(","lineNumber":1,"columnNumber":0}}],"startTime":0,"endTime":10,)"
             R"("samples":[1],"timeDeltas":[1]})";
  std::ofstream(dir / "hotlines-42-0-1700000000000.scripts.json")
      << R"({"scripts":[{"url":")" + url +
             R"(","sourceMapURL":"data:application/json;charset=utf-8;base64,)" + b64 + R"("}]})";
  std::ofstream(dir / "hotlines-42-3-1700000000001.cpuprofile") << one_sample(url, 0, 5);
  std::ofstream(dir / "hotlines-42-3-1700000000001.scripts.json") << R"({"scripts":[{"url":1}]})";
  LoadResult r = load_profile_file(dir.string());
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  std::vector<std::string> threads;
  for (const Thread &t : p.threads) threads.push_back(std::string(p.str(t.name)));
  EXPECT_EQ(threads, (std::vector<std::string>{"pid 42", "pid 42 worker 3"}));
  ASSERT_EQ(p.events[0].samples.size(), 2u);
  const Frame &mapped = p.frames[p.stack_frame[p.events[0].samples.stack[0]]];
  EXPECT_EQ(mapped.line, 6);
  EXPECT_EQ(p.str(p.functions[mapped.function].file), script);
  ASSERT_EQ(p.metadata.warnings.size(), 1u);
  EXPECT_EQ(p.metadata.warnings[0].message,
            "source maps of hotlines-42-3-1700000000001.cpuprofile: " +
                (dir / "hotlines-42-3-1700000000001.scripts.json").string() +
                ": scripts[0] is not {\"url\": string, \"sourceMapURL\": string}");
  fs::remove_all(dir);
}

// An index map: each section's map shifted to its offset (line; column on its first line).
TEST(SourceMap, IndexMapSections) {
  SourceMap m;
  ASSERT_EQ(m.parse(R"({"version":3,"sections":[
      {"offset":{"line":0,"column":0},"map":{"version":3,"sources":["a.ts"],"mappings":"AAAA;AACA"}},
      {"offset":{"line":1,"column":10},"map":{"version":3,"sources":["b.ts"],"mappings":"AAKA;EACA"}}]})",
                    "/p"),
            "");
  ASSERT_EQ(m.sources().size(), 2u);
  EXPECT_EQ(m.sources()[1], "/p/b.ts");
  EXPECT_EQ(m.find(0, 0)->line, 0);
  EXPECT_EQ(m.find(1, 3)->line, 1); // a.ts's line 1, before b's column 10
  EXPECT_EQ(m.find(1, 3)->source, 0u);
  EXPECT_EQ(m.find(1, 12)->source, 1u);
  EXPECT_EQ(m.find(1, 12)->line, 5);
  EXPECT_EQ(m.find(2, 2)->line, 6); // b's second line, its column not shifted
  EXPECT_EQ(m.find(2, std::nullopt)->source, 1u);
  SourceMap bad;
  EXPECT_EQ(
      bad.parse(R"({"version":3,"sections":[{"offset":{"line":0,"column":0},"url":"x.map"}]})",
                "/p"),
      "sections[0].map: expected an object (a section's `url` is not read)");
  EXPECT_EQ(
      bad.parse(R"({"version":3,"sections":[{"offset":{"line":-1,"column":0},"map":{}}]})", "/p"),
      "sections[0].offset: expected {line, column}, integers >= 0");
  EXPECT_EQ(
      bad.parse(
          R"({"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sources":[],"mappings":"","sections":[]}}]})",
          "/p"),
      "sections[0].map: an index map inside an index map");
}
