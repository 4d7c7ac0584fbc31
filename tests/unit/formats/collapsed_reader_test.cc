// Tests for the collapsed stacks reader: the async-profiler fixtures checked against totals
// computed independently from the text, and every malformed-input rule.
#include "formats/collapsed_reader.h"
#include "formats/loader.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

using namespace hotlines;
using namespace hotlines::test;

namespace {

// Independent tallies from the raw text: per thread frame, per `Class.method:LINE` frame key
// (self = leaf, total = once per line), and the grand total.
struct TextTally {
  int64_t total = 0;
  std::map<std::string, int64_t> per_thread, line_self, line_total;
};

TextTally tally_text(const std::string &text) {
  TextTally t;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    size_t sp = line.rfind(' ');
    int64_t n = std::stoll(line.substr(sp + 1));
    t.total += n;
    std::vector<std::string> frames;
    std::stringstream fs(line.substr(0, sp));
    for (std::string f; std::getline(fs, f, ';');) frames.push_back(f);
    if (!frames.empty() && frames[0].front() == '[') {
      std::string th = frames[0].substr(1, frames[0].size() - 2);
      t.per_thread[th.substr(0, th.find(" tid="))] += n;
      frames.erase(frames.begin());
    }
    std::set<std::string> seen;
    for (size_t i = 0; i < frames.size(); i++) {
      std::string f = frames[i];
      if (f.size() > 4 && f.compare(f.size() - 4, 2, "_[") == 0) f.resize(f.size() - 4);
      size_t colon = f.rfind(':');
      if (colon == std::string::npos || f.find('/') == std::string::npos || f[colon - 1] == ':')
        continue;
      std::string key = f; // e.g. org/acme/shop/Pricing.discount:15
      if (i + 1 == frames.size()) t.line_self[key] += n;
      if (seen.insert(key).second) t.line_total[key] += n;
    }
  }
  return t;
}

// The same tallies computed from the model.
TextTally tally_model(const Profile &p) {
  TextTally t;
  const Event &e = p.events[0];
  for (size_t i = 0; i < e.samples.size(); i++) {
    int64_t n = e.samples.count_at(i);
    t.total += n;
    std::string th(p.str(p.threads[e.samples.thread_at(i)].name));
    t.per_thread[th] += n;
    std::set<std::string> seen;
    bool leaf = true;
    for (StackId s = e.samples.stack[i]; s != kNoStack; s = p.stack_parent[s], leaf = false) {
      const Frame &fr = p.frames[p.stack_frame[s]];
      const Function &fn = p.functions[fr.function];
      if (fr.line == 0 || !fn.class_name) continue;
      std::string key = std::string(p.str(fn.class_name)) + "." + std::string(p.str(fn.method)) +
                        ":" + std::to_string(fr.line);
      if (leaf) t.line_self[key] += n;
      if (seen.insert(key).second) t.line_total[key] += n;
    }
  }
  return t;
}

LoadResult parse(std::string_view text) {
  return read_collapsed(text);
}

} // namespace

TEST(CollapsedReader, AsyncProfilerCpuFixture) {
  std::string text = read_file(java_profile("ap-cpu.collapsed"));
  LoadResult r = load_profile_file(java_profile("ap-cpu.collapsed"));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  EXPECT_EQ(p.metadata.format, "collapsed");
  EXPECT_EQ(p.sample_count(), 130u);
  EXPECT_EQ(p.events[0].total_count, 452);
  EXPECT_EQ(p.events[0].total_count, tally_text(text).total);
  // Not a threaded file: `[break_stack_range]` is a frame, all samples on one thread.
  EXPECT_EQ(p.threads.size(), 1u);
  EXPECT_TRUE(p.metadata.warnings.empty());
  // Java frames get dotted display names and keep their internal class.
  bool found = false;
  for (const Function &f : p.functions)
    if (p.str(f.name) == "org.acme.shop.Pricing.discount") {
      found = true;
      EXPECT_EQ(p.str(f.class_name), "org/acme/shop/Pricing");
    }
  EXPECT_TRUE(found);
  EXPECT_LE(p.sample_bytes() / p.sample_count(), 24u);
}

TEST(CollapsedReader, JfrconvLinesAndThreadsFixture) {
  std::string text = read_file(java_profile("ap-cpu-lines-threads.collapsed"));
  LoadResult r = read_collapsed(text);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  TextTally want = tally_text(text), got = tally_model(p);
  EXPECT_EQ(got.total, 2530);
  EXPECT_EQ(got.total, want.total);
  EXPECT_EQ(got.per_thread, want.per_thread);
  EXPECT_EQ(got.line_self, want.line_self);
  EXPECT_EQ(got.line_total, want.line_total);
  EXPECT_GT(want.line_self.at("org/acme/shop/Pricing.discount:15"), 0);
  // Thread ids are kept and kinds are parsed from the `_[x]` suffixes.
  bool worker = false;
  for (const Thread &t : p.threads)
    if (p.str(t.name) == "worker-0") {
      worker = true;
      EXPECT_EQ(t.os_tid, 24733);
    }
  EXPECT_TRUE(worker);
  std::set<FrameKind> kinds;
  for (const Frame &f : p.frames) kinds.insert(f.kind);
  EXPECT_TRUE(kinds.count(FrameKind::jit) && kinds.count(FrameKind::inlined) &&
              kinds.count(FrameKind::interpreted) && kinds.count(FrameKind::kernel));
  for (const Function &f : p.functions) {
    EXPECT_EQ(p.str(f.name).find("_["), std::string_view::npos) << p.str(f.name);
  }
}

TEST(CollapsedReader, ThreadsLinesKindsAndSpaces) {
  LoadResult r = parse("[main tid=7];a/b/C.run:12_[j];frame with spaces;x::y_[k] 5\r\n"
                       "\n"
                       "[main tid=7];a/b/C.run:12_[i] 9223372036854775807\n");
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  EXPECT_EQ(p.threads.size(), 1u);
  EXPECT_EQ(p.str(p.threads[0].name), "main");
  EXPECT_EQ(p.threads[0].os_tid, 7);
  EXPECT_EQ(p.sample_count(), 2u);
  // Weights are clamped so that the total is exact at 2^63-1 instead of overflowing.
  EXPECT_EQ(p.events[0].samples.count_at(1), INT64_MAX - 5);
  EXPECT_EQ(p.events[0].total_count, INT64_MAX);
  const auto leaf = p.frames_of(p.events[0].samples.stack[0]);
  ASSERT_EQ(leaf.size(), 3u);
  EXPECT_EQ(p.str(p.functions[p.frames[leaf[0]].function].name), "x::y");
  EXPECT_EQ(p.frames[leaf[0]].kind, FrameKind::kernel);
  EXPECT_EQ(p.str(p.functions[p.frames[leaf[1]].function].name), "frame with spaces");
  EXPECT_EQ(p.frames[leaf[2]].line, 12);
  EXPECT_EQ(p.frames[leaf[2]].kind, FrameKind::jit);
  EXPECT_EQ(p.str(p.functions[p.frames[leaf[2]].function].name), "a.b.C.run");
}

// Lambda classes of different JVMs and runs, slashed or dotted, are one function.
TEST(CollapsedReader, LambdaFramesOfEveryJvmAreOneFunction) {
  LoadResult r = parse("main;org/acme/Foo$$Lambda$399.0x0000000800c1b840.run 1\n"
                       "main;org/acme/Foo$$Lambda.0x000001f0a1b2c3d4.run 2\n"
                       "main;org/acme/Foo$$Lambda.399573350.run 4\n"
                       "main;org.acme.Foo$$Lambda.399573350.run 8\n");
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  std::set<std::string_view> names;
  for (int64_t s : p.events[0].samples.stack.to_vector())
    names.insert(
        p.str(p.functions[p.frames[p.frames_of(static_cast<StackId>(s))[0]].function].name));
  EXPECT_EQ(names, std::set<std::string_view>{"org.acme.Foo$$Lambda.run"});
}

TEST(CollapsedReader, Utf8Names) {
  LoadResult r = parse("main;größe;日本 3\n");
  ASSERT_TRUE(r.ok());
  const auto fr = r.profile->frames_of(r.profile->events[0].samples.stack[0]);
  EXPECT_EQ(r.profile->str(r.profile->functions[r.profile->frames[fr[0]].function].name), "日本");
}

TEST(CollapsedReader, MalformedLinesAreSkippedAndReported) {
  LoadResult r = parse("a;b 1\nno count here\na;;b 2\na;b 3\nx -4\na;b 99999999999999999999\n");
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->events[0].total_count, 4);
  ASSERT_EQ(r.profile->metadata.warnings.size(), 1u);
  const LoadWarning &w = r.profile->metadata.warnings[0];
  EXPECT_EQ(w.line, 2);
  EXPECT_NE(w.message.find("skipped 4 malformed lines"), std::string::npos) << w.message;
  EXPECT_NE(w.message.find("'no count here'"), std::string::npos) << w.message;
}

TEST(CollapsedReader, NoValidLineIsAnError) {
  LoadResult r = parse("\n\nhello world\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error_line, 3);
  EXPECT_NE(r.error.find("hello world"), std::string::npos) << r.error;
  EXPECT_FALSE(parse("").ok());
  EXPECT_FALSE(parse("   \n\r\n").ok());
}

TEST(CollapsedReader, ZeroCountLinesAreValidButEmpty) {
  LoadResult r = parse("a;b 0\na;c 2\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.profile->sample_count(), 1u);
  EXPECT_TRUE(r.profile->metadata.warnings.empty());
}

// Threads are hashed, not scanned: 300,000 distinct threads load (in linear time; a linear
// scan per new thread took 33 s) as 300,000 threads, each with its own sample.
TEST(CollapsedReader, ManyDistinctThreads) {
  constexpr int kThreads = 300000;
  std::string text;
  text.reserve(kThreads * 40);
  for (int i = 0; i < kThreads; i++)
    text += "[worker-" + std::to_string(i) + " tid=" + std::to_string(i + 1) + "];main;run " +
            std::to_string(i % 7 + 1) + "\n";
  LoadResult r = read_collapsed(text);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  ASSERT_EQ(p.threads.size(), size_t(kThreads));
  EXPECT_EQ(p.str(p.threads[12345].name), "worker-12345");
  EXPECT_EQ(p.threads[12345].os_tid, 12346);
  EXPECT_EQ(p.threads[kThreads - 1].os_tid, kThreads);
  EXPECT_EQ(p.sample_count(), size_t(kThreads));
}
