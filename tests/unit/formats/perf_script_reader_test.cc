// Tests for the perf script reader on texts perf 6.1 printed for tests/fixtures/native-shop
// (see its README): every expected number is what `perf report` printed for the same
// perf.data (samples, event count, --sort srcline/sym/pid/dso, --children), and small texts
// in perf script's documented layout for what this machine's recording lacks (other events,
// comms with spaces, inlined frames, mangled names) and for malformed input.
#include "formats/loader.h"
#include "formats/native_names.h"
#include "formats/perf_script_reader.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace hotlines;
using namespace hotlines::test;

namespace {

std::string shop_profile(const std::string &name) {
  return fixture_path("native-shop/profiles/" + name);
}

const Function &leaf_function(const Profile &p, StackId s) {
  return p.functions[p.frames[p.stack_frame[s]].function];
}

// Samples whose leaf frame is in each function (perf report --no-children --sort sym).
std::map<std::string, int64_t> self_by_function(const Profile &p, int event = 0) {
  std::map<std::string, int64_t> out;
  const SampleColumns &c = p.events[event].samples;
  for (size_t i = 0; i < c.size(); i++)
    if (c.stack[i] != kNoStack) out[std::string(p.str(leaf_function(p, c.stack[i]).name))]++;
  return out;
}

// Samples with the function anywhere in their stack, once each (perf report --children).
int64_t total_of(const Profile &p, std::string_view name) {
  int64_t n = 0;
  const SampleColumns &c = p.events[0].samples;
  for (size_t i = 0; i < c.size(); i++)
    for (FrameId f : p.frames_of(c.stack[i]))
      if (p.str(p.functions[p.frames[f].function].name) == name) {
        n++;
        break;
      }
  return n;
}

LoadResult load_text(std::string_view text) {
  EXPECT_TRUE(looks_like_perf_script(text)) << text;
  return read_perf_script(text);
}

} // namespace

TEST(PerfScriptReader, CallchainsWithSourceLinesMatchPerfReport) {
  LoadResult r = load_profile_file(shop_profile("shop-perf-script.txt"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  EXPECT_EQ(p.metadata.format, "perf-script");
  EXPECT_EQ(p.metadata.producer, "perf 6.1.187");
  ASSERT_EQ(p.events.size(), 1u);
  const Event &e = p.events[0];
  EXPECT_EQ(p.str(e.name), "cpu-clock");
  EXPECT_EQ(p.str(e.unit), "nanoseconds");
  EXPECT_EQ(e.total_count, 389);       // perf report: Samples: 389 of event 'cpu-clock'
  EXPECT_EQ(e.total_value, 194500000); // Event count (approx.): 194500000
  // perf's `# sample duration : 1078.141 ms`, from the first to the last sample.
  EXPECT_EQ(p.metadata.duration_ns, 1078141000);
  EXPECT_TRUE(e.samples.has_time());

  // perf report --sort srcline --full-source-path: the leaf sample's file and line.
  std::map<std::pair<std::string, int>, int64_t> by_line;
  for (size_t i = 0; i < e.samples.size(); i++) {
    const Frame &f = p.frames[p.stack_frame[e.samples.stack[i]]];
    by_line[{std::string(p.str(p.functions[f.function].file)), f.line}]++;
  }
  EXPECT_EQ((by_line[{"/build/native-shop/shop.cc", 17}]), 266);
  EXPECT_EQ((by_line[{"/usr/include/c++/12/bits/charconv.h", 88}]), 47);
  EXPECT_EQ((by_line[{"/usr/include/c++/12/bits/charconv.h", 86}]), 25);

  // --sort sym (self) and --children.
  auto self = self_by_function(p);
  EXPECT_EQ(self["shop::Pricing::discount"], 266);
  EXPECT_EQ(self["shop::Pricing::labels"], 101);
  EXPECT_EQ(total_of(p, "shop::Pricing::discount"), 268);
  EXPECT_EQ(total_of(p, "shop::Pricing::labels"), 102);

  // --sort pid: threads by comm and tid, the pid as a label.
  std::map<std::pair<std::string, int64_t>, int64_t> by_thread;
  std::set<int64_t> pids;
  for (size_t i = 0; i < e.samples.size(); i++) {
    const Thread &t = p.threads[e.samples.thread_at(i)];
    by_thread[{std::string(p.str(t.name)), t.os_tid}]++;
    for (const Label &l : p.label_sets[e.samples.labels_at(i)])
      if (p.str(l.key) == "pid") pids.insert(l.num);
  }
  EXPECT_EQ((by_thread[{"shop", 7802}]), 272);
  EXPECT_EQ((by_thread[{"worker-1", 7806}]), 59);
  EXPECT_EQ((by_thread[{"worker-0", 7805}]), 58);
  EXPECT_EQ(pids, std::set<int64_t>{7802});

  // --sort dso: 7 samples in [kernel.kallsyms], every frame of it kernel, no other.
  int64_t kernel_leaves = 0;
  for (size_t i = 0; i < e.samples.size(); i++)
    if (p.str(leaf_function(p, e.samples.stack[i]).library) == "[kernel.kallsyms]") {
      kernel_leaves++;
      EXPECT_EQ(p.frames[p.stack_frame[e.samples.stack[i]]].kind, FrameKind::kernel);
    }
  EXPECT_EQ(kernel_leaves, 7);
  for (const Frame &f : p.frames)
    EXPECT_EQ(f.kind == FrameKind::kernel,
              p.str(p.functions[f.function].library) == "[kernel.kallsyms]");

  // `[unknown]` frames are one function, reported in a warning.
  int unknowns = 0;
  for (const Function &f : p.functions) unknowns += p.str(f.name) == "[unknown]";
  EXPECT_EQ(unknowns, 1);
  bool warned = false;
  for (const LoadWarning &w : p.metadata.warnings)
    warned |= w.message.find("[unknown] frames") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(PerfScriptReader, PlainGzippedTextHasTheSameSamplesWithoutLines) {
  LoadResult r = load_profile_file(shop_profile("shop-plain.txt.gz"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  EXPECT_EQ(p.metadata.format, "perf-script");
  EXPECT_EQ(p.metadata.producer, "perf script");
  EXPECT_EQ(p.events[0].total_count, 389);
  EXPECT_EQ(p.events[0].total_value, 194500000);
  auto self = self_by_function(p);
  EXPECT_EQ(self["shop::Pricing::discount"], 266);
  EXPECT_EQ(self["shop::Pricing::labels"], 101);
  for (const Frame &f : p.frames) EXPECT_EQ(f.line, 0);
  for (const LabelSet &l : p.label_sets) EXPECT_TRUE(l.empty()); // no pid without -F +pid
}

TEST(PerfScriptReader, SamplesWithoutCallchains) {
  // perf record without -g: `comm tid time: period event: addr sym+off (dso)` on one line,
  // comms right-aligned, each line followed by its srcline. perf report: 91 samples,
  // 182000000, discount 64, labels 23.
  LoadResult r = load_profile_file(shop_profile("shop-nocallchain.txt"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  EXPECT_EQ(p.events[0].total_count, 91);
  EXPECT_EQ(p.events[0].total_value, 182000000);
  auto self = self_by_function(p);
  EXPECT_EQ(self["shop::Pricing::discount"], 64);
  EXPECT_EQ(self["shop::Pricing::labels"], 23);
  for (size_t s = 0; s < p.stack_count(); s++) EXPECT_EQ(p.stack_parent[s], kNoStack);
  std::set<std::string> comms;
  for (const Thread &t : p.threads) comms.insert(std::string(p.str(t.name)));
  EXPECT_EQ(comms, (std::set<std::string>{"shop", "worker-0", "worker-1"}));
}

TEST(PerfScriptReader, EventsCommsInlinedAndUnknownFrames) {
  const char *text = "Web Content  4711/4712 [001] 100.000100:     1000 cycles:u: \n"
                     "\t            11d0 shop::inner (inlined)\n"
                     "  /src/shop.cc:7\n"
                     "\t            11db shop::outer+0x3b (/opt/shop)\n"
                     "  /src/shop.cc:12\n"
                     "\t    7fab413bd8a8 [unknown] ([unknown])\n"
                     "\t               0 [unknown] ([unknown])\n"
                     "\t           d44a3 [unknown] (/usr/lib/libstdc++.so.6)\n"
                     "\n"
                     "      swapper     0 [000] 100.000300:     250000 cpu-clock: \n"
                     "\tffffffff813a2313 finish_task_switch.isra.0+0x93 ([kernel.kallsyms])\n"
                     "\tffffffffc0a01234 nft_do_chain+0x10 ([nf_tables])\n"
                     "\n"
                     "Web Content  4711/4712 [001] 100.000500:     3000 cycles:u: \n"
                     "\n";
  LoadResult r = load_text(text);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  ASSERT_EQ(p.events.size(), 2u);
  EXPECT_EQ(p.str(p.events[0].name), "cycles:u");
  EXPECT_EQ(p.str(p.events[0].unit), "count");
  EXPECT_EQ(p.events[0].total_count, 2);
  EXPECT_EQ(p.events[0].total_value, 4000);
  EXPECT_EQ(p.events[0].stackless, 1u); // a sample without a callchain
  EXPECT_EQ(p.str(p.events[1].name), "cpu-clock");
  EXPECT_EQ(p.str(p.events[1].unit), "nanoseconds");
  EXPECT_EQ(p.metadata.duration_ns, 400000);

  std::vector<FrameId> frames = p.frames_of(p.events[0].samples.stack[0]);
  ASSERT_EQ(frames.size(), 3u); // three [unknown] frames in a row collapse into one
  const Frame &inl = p.frames[frames[0]];
  EXPECT_EQ(inl.kind, FrameKind::inlined);
  EXPECT_EQ(inl.line, 7);
  EXPECT_EQ(p.str(p.functions[inl.function].name), "shop::inner");
  EXPECT_EQ(p.str(p.functions[inl.function].file), "/src/shop.cc");
  const Frame &outer = p.frames[frames[1]];
  EXPECT_EQ(outer.kind, FrameKind::unknown);
  EXPECT_EQ(outer.line, 12);
  EXPECT_EQ(p.str(p.functions[outer.function].library), "/opt/shop");
  EXPECT_EQ(p.str(p.functions[p.frames[frames[2]].function].name), "[unknown]");
  const Thread &t = p.threads[p.events[0].samples.thread_at(0)];
  EXPECT_EQ(p.str(t.name), "Web Content");
  EXPECT_EQ(t.os_tid, 4712);

  std::vector<FrameId> kernel = p.frames_of(p.events[1].samples.stack[0]);
  ASSERT_EQ(kernel.size(), 2u);
  for (FrameId f : kernel) EXPECT_EQ(p.frames[f].kind, FrameKind::kernel); // a module too
  EXPECT_EQ(p.str(p.functions[p.frames[kernel[0]].function].name), "finish_task_switch.isra.0");
  ASSERT_EQ(p.metadata.warnings.size(), 1u);
  EXPECT_EQ(p.metadata.warnings[0].message,
            "3 [unknown] frames (addresses perf could not name; 2 of them in runs collapsed "
            "into one)");
}

TEST(PerfScriptReader, DemanglesWhatPerfPrintsWithNoDemangle) {
  // The mangled names of the fixture (perf script --no-demangle) and what perf printed for
  // them by default; Rust's legacy and v0 names as perf 6.1 demangled rustc 1.63 binaries.
  const std::pair<const char *, const char *> cases[] = {
      {"_ZN4shop7Pricing8discountEdl", "shop::Pricing::discount"},
      {"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_M_constructEmc@plt",
       "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> "
       ">::_M_construct@plt"},
      {"_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJZ4mainEUlvE_EEEEE6_M_runEv",
       "std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::{lambda()#1}> > "
       ">::_M_run"},
      {"_ZN4shop5twiceIdEET_S1_", "shop::twice<double>"},
      {"_ZN3std2rt19lang_start_internal17h2c2e962c94282c61E", "std::rt::lang_start_internal"},
      {"_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h22e091da16247ff6E.llvm."
       "632263585740233105",
       "std::rt::lang_start::{{closure}}"},
      {"_ZN2rs4shop16Pricing$LT$T$GT$8discount17h0123456789abcdefE",
       "rs::shop::Pricing<T>::discount"},
      // Rust v0 (rustc 1.63 -C symbol-mangling-version=v0), as perf 6.1 printed them.
      {"_RNvMNtCsfq2Zq5gqAK1_2v04shopINtB2_4CartdE5totalB4_", "<v0::shop::Cart<f64>>::total"},
      {"_RNvCsfq2Zq5gqAK1_2v04main", "v0::main"},
      {"_RNvCsfq2Zq5gqAK1_2v04main.llvm.123", "v0::main"},
      {"_RNvNvNvNv", "_RNvNvNvNv"},
      {"main", "main"},
      {"_Znot_mangled", "_Znot_mangled"},
  };
  // Generic arguments nested 3000 deep: bounded by the demangler, the name comes back as it is.
  std::string deep = "_RINvCs1_1a1f" + std::string(3000, 'I');
  EXPECT_EQ(demangle_native(deep), deep);
  for (auto [mangled, perf] : cases) EXPECT_EQ(demangle_native(mangled), perf) << mangled;
}

TEST(PerfScriptReader, DetectionAndMalformedInput) {
  EXPECT_FALSE(looks_like_perf_script("main;shop::discount 12\nmain 3\n"));
  EXPECT_FALSE(looks_like_perf_script("# only comments\n"));
  EXPECT_EQ(detect_format("shop 1/1 1.000001: 1 cpu-clock: \n\t 10 main+0x1 (/a)\n"),
            Format::perf_script);
  EXPECT_EQ(format_name(Format::perf_script), "perf-script");

  // A bad line inside loads the rest with a warning naming its line.
  LoadResult r = load_text("shop 1/1 1.000001: 1 cpu-clock: \n"
                           "\t 10 main+0x1 (/a)\n"
                           "garbage here\n"
                           "\n"
                           "shop 1/1 1.000002: 1 cpu-clock: \n"
                           "\t 10 main+0x1 (/a)\n");
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_count, 2);
  ASSERT_EQ(r.profile->metadata.warnings.size(), 1u);
  EXPECT_EQ(r.profile->metadata.warnings[0].line, 3);
  EXPECT_NE(r.profile->metadata.warnings[0].message.find("not a frame"), std::string::npos);

  // Nothing valid: an error on the first bad line.
  LoadResult bad = read_perf_script("# comment\nno header here\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error_line, 2);
  EXPECT_NE(bad.error.find("not a sample header"), std::string::npos) << bad.error;
  LoadResult empty = read_perf_script("");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error_line, 1);
}
