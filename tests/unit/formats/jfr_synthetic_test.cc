// The JFR reader on recordings written by tests/unit/formats/jfr_test_writer.h: every string
// encoding, compressed and fixed-width integers, pools spread over many checkpoints, fields in
// unusual orders, unknown event types, missing references, settings inherited across chunks, tick
// rates other than 1 GHz, truncated and concatenated files.
#include "formats/jfr_reader.h"
#include "formats/loader.h"
#include "jfr_test_util.h"
#include "jfr_test_writer.h"

#include <gtest/gtest.h>

using namespace hotlines;
using namespace hotlines::test;

namespace {

using Enc = JfrBytes::Enc;
using F = JfrTestField;

F ticks_field(const std::string &name) {
  return F{name, "long", false, false, {{"jdk.jfr.Timestamp", "TICKS"}}};
}
F span_field(const std::string &name) {
  return F{name, "long", false, false, {{"jdk.jfr.Timespan", "TICKS"}}};
}
F ref(const std::string &name, const std::string &type) {
  return F{name, type, true, false, {}};
}

struct Options {
  bool compressed = true;
  int checkpoints = 1;
  // Event field order: 0 as the JDK writes them; 1 startTime (and duration) first as the JDK
  // requires, the others shuffled among extra fields; 2 any order (startTime last).
  int layout = 0;
  int64_t ticks_per_second = 1'000'000'000;
  std::string exec_setting = "itimer";
};

// The fields of jdk.ExecutionSample and jdk.JavaMonitorEnter in each layout, with the extra
// fields of layouts 1 and 2 (an inline struct, a string array, floating point, small ints).
std::vector<std::pair<std::string, std::vector<F>>> event_layouts(int layout) {
  const F extra("extra", "test.Inner"), names("names", "java.lang.String", false, true);
  const F ratio("ratio", "double"), tail("tail", "float");
  if (layout == 0)
    return {{"jdk.ExecutionSample",
             {ticks_field("startTime"), ref("sampledThread", "java.lang.Thread"),
              ref("stackTrace", "jdk.types.StackTrace")}},
            {"jdk.JavaMonitorEnter",
             {ticks_field("startTime"), span_field("duration"),
              ref("eventThread", "java.lang.Thread"), ref("stackTrace", "jdk.types.StackTrace")}}};
  if (layout == 1)
    return {{"jdk.ExecutionSample",
             {ticks_field("startTime"), extra, ref("stackTrace", "jdk.types.StackTrace"), names,
              ratio, ref("sampledThread", "java.lang.Thread"), tail}},
            {"jdk.JavaMonitorEnter",
             {ticks_field("startTime"), span_field("duration"), F("c", "char"),
              ref("stackTrace", "jdk.types.StackTrace"), F("s", "short"),
              ref("eventThread", "java.lang.Thread"), F("b", "byte")}}};
  return {{"jdk.ExecutionSample",
           {ref("stackTrace", "jdk.types.StackTrace"), extra, names, ratio,
            ref("sampledThread", "java.lang.Thread"), ticks_field("startTime"), tail}},
          {"jdk.JavaMonitorEnter",
           {ref("stackTrace", "jdk.types.StackTrace"), span_field("duration"), F("c", "char"),
            ref("eventThread", "java.lang.Thread"), F("s", "short"), ticks_field("startTime"),
            F("b", "byte")}}};
}

// The pool types of threads and stack traces, as the JDK declares them.
void declare_stack_types(JfrTestChunk &c) {
  c.declare("java.lang.Thread", {{"osName", "java.lang.String"},
                                 {"osThreadId", "long"},
                                 {"javaName", "java.lang.String"},
                                 {"javaThreadId", "long"}});
  c.declare("jdk.types.Symbol", {{"string", "java.lang.String"}}, "", true);
  c.declare("java.lang.Class", {ref("name", "jdk.types.Symbol"), {"modifiers", "int"}});
  c.declare("jdk.types.Method", {ref("type", "java.lang.Class"),
                                 ref("name", "jdk.types.Symbol"),
                                 ref("descriptor", "jdk.types.Symbol"),
                                 {"modifiers", "int"},
                                 {"hidden", "boolean"}});
  c.declare("jdk.types.FrameType", {{"description", "java.lang.String"}}, "", true);
  c.declare("jdk.types.StackFrame", {ref("method", "jdk.types.Method"),
                                     {"lineNumber", "int"},
                                     {"bytecodeIndex", "int"},
                                     ref("type", "jdk.types.FrameType")});
  c.declare("jdk.types.StackTrace",
            {{"truncated", "boolean"}, F{"frames", "jdk.types.StackFrame", false, true, {}}});
}

// jdk.ActiveSetting as the JDK and async-profiler declare it: the recording's settings.
void declare_active_setting(JfrTestChunk &c) {
  c.declare("jdk.ActiveSetting",
            {ticks_field("startTime"),
             {"id", "long"},
             {"name", "java.lang.String"},
             {"value", "java.lang.String"}},
            "jdk.jfr.Event");
}

void declare_types(JfrTestChunk &c, int layout) {
  declare_stack_types(c);
  c.declare("test.Inner", {{"x", "int"}, {"y", "java.lang.String"}});
  // Fields of the two events whose layout varies, in the order of `layout`.
  for (const auto &[event, fields] : event_layouts(layout))
    c.declare(event, fields, "jdk.jfr.Event");
  c.declare("profiler.WallClockSample",
            {ticks_field("startTime"),
             ref("sampledThread", "java.lang.Thread"),
             ref("stackTrace", "jdk.types.StackTrace"),
             {"samples", "int"}},
            "jdk.jfr.Event");
  c.declare("jdk.ObjectAllocationInNewTLAB",
            {ticks_field("startTime"),
             ref("eventThread", "java.lang.Thread"),
             ref("stackTrace", "jdk.types.StackTrace"),
             ref("objectClass", "java.lang.Class"),
             {"allocationSize", "long"},
             {"tlabSize", "long"}},
            "jdk.jfr.Event");
  declare_active_setting(c);
  c.declare("test.Odd",
            {ticks_field("startTime"),
             {"inner", "test.Inner"},
             F{"names", "java.lang.String", false, true, {}},
             {"f", "float"},
             {"d", "double"},
             {"c", "char"},
             {"s", "short"},
             {"b", "byte"}},
            "jdk.jfr.Event");
}

void write_pools(JfrTestChunk &c) {
  const char *kinds[] = {"Interpreted", "JIT compiled", "Inlined",    "Native",
                         "C++",         "Kernel",       "C1 compiled"};
  for (int k = 0; k < 7; k++)
    c.pool("jdk.types.FrameType", k, [=](JfrBytes &b) { b.str(kinds[k]); });
  c.pool("java.lang.String", 77, [](JfrBytes &b) { b.str("pooled-name", Enc::utf16); });
  struct Sym {
    int key;
    std::string s;
    Enc enc;
  };
  for (const Sym &s :
       std::vector<Sym>{{1, "org/acme/Shop", Enc::utf8},
                        {2,
                         "pr\xC3\xAF"
                         "ce",
                         Enc::latin1}, // "price" with ï
                        {3, "(I)D", Enc::utf16},
                        {4, "org/acme/Main$$Lambda$14+0x0000000801001400", Enc::utf8},
                        {5, "run", Enc::pool},
                        {6, "()V", Enc::utf8},
                        {7, "libc.so.6", Enc::utf8},
                        {8, "memcpy", Enc::latin1},
                        {9, "", Enc::empty}})
    c.pool("jdk.types.Symbol", s.key, [=](JfrBytes &b) { b.str(s.s, s.enc, 78); });
  c.pool("java.lang.String", 78, [](JfrBytes &b) { b.str("run", Enc::latin1); });
  for (const std::pair<int, int> &ks : std::vector<std::pair<int, int>>{{1, 1}, {2, 4}, {3, 7}})
    c.pool("java.lang.Class", ks.first, [sym = ks.second](JfrBytes &b) {
      b.i64(sym);
      b.i32(1);
    });
  struct M {
    int key, cls, name, desc;
  };
  for (const M &m : std::vector<M>{{1, 1, 2, 3}, {2, 2, 5, 6}, {3, 3, 8, 6}, {4, 1, 5, 6}})
    c.pool("jdk.types.Method", m.key, [=](JfrBytes &b) {
      b.i64(m.cls);
      b.i64(m.name);
      b.i64(m.desc);
      b.i32(1);
      b.boolean(false);
    });
  struct Th {
    int key;
    std::string os;
    Enc os_enc;
    int64_t os_tid;
    std::string java;
    Enc java_enc;
    int64_t java_tid;
  };
  for (const Th &t : std::vector<Th>{
           {1, "os-main", Enc::utf8, 100, "main", Enc::latin1, 1},
           {2, "GC Thread#0", Enc::utf16, 101, "", Enc::null, 0},
           {3, "x", Enc::utf8, 102, "\xE4\xB8\x96\xE7\x95\x8C\xF0\x9F\x98\x80", Enc::utf16, 3},
           {4, "os-4", Enc::utf8, 103, "", Enc::pool, 4}})
    c.pool("java.lang.Thread", t.key, [=](JfrBytes &b) {
      b.str(t.os, t.os_enc);
      b.i64(t.os_tid);
      b.str(t.java, t.java_enc, 77);
      b.i64(t.java_tid);
    });
  struct Fr {
    int method, line, bci, type;
  };
  auto stack = [&](int key, std::vector<Fr> frames) {
    c.pool("jdk.types.StackTrace", key, [=](JfrBytes &b) {
      b.boolean(false);
      b.i32(static_cast<int64_t>(frames.size()));
      for (const Fr &f : frames) {
        b.i64(f.method);
        b.i32(f.line);
        b.i32(f.bci);
        b.i64(f.type);
      }
    });
  };
  stack(1, {{3, 0, 0, 3}, {1, 15, 3, 1}, {2, 7, 1, 0}}); // leaf first: native, JIT, interpreted
  stack(2, {{1, 16, 9, 2}, {4, 20, 2, 6}});              // inlined, C1
  stack(3, {});
}

void write_extras(JfrBytes &b) { // extra, names, ratio
  b.i32(42);                     // extra.x
  b.str("inner", Enc::utf16);    // extra.y
  b.i32(2);                      // names[]
  b.str("a", Enc::latin1);
  b.str("b", Enc::pool, 77);
  b.f64(0.5);
}

void exec_sample(JfrTestChunk &c, int layout, int64_t ticks, int64_t thread, int64_t stack) {
  c.event("jdk.ExecutionSample", [=](JfrBytes &b) {
    if (layout == 0) {
      b.i64(ticks);
      b.i64(thread);
      b.i64(stack);
    } else if (layout == 1) {
      b.i64(ticks);
      b.i32(42);
      b.str("inner", Enc::utf16);
      b.i64(stack);
      b.i32(2);
      b.str("a", Enc::latin1);
      b.str("b", Enc::pool, 77);
      b.f64(0.5);
      b.i64(thread);
      b.f32(1.5f);
    } else {
      b.i64(stack);
      write_extras(b);
      b.i64(thread);
      b.i64(ticks);
      b.f32(1.5f);
    }
  });
}

void monitor_enter(JfrTestChunk &c, int layout, int64_t ticks, int64_t duration, int64_t thread,
                   int64_t stack) {
  c.event("jdk.JavaMonitorEnter", [=](JfrBytes &b) {
    if (layout == 0) {
      b.i64(ticks);
      b.i64(duration);
      b.i64(thread);
      b.i64(stack);
    } else if (layout == 1) {
      b.i64(ticks);
      b.i64(duration);
      b.i16(66);
      b.i64(stack);
      b.i16(-1);
      b.i64(thread);
      b.u8(1);
    } else {
      b.i64(stack);
      b.i64(duration);
      b.i16(66);
      b.i64(thread);
      b.i16(-1);
      b.i64(ticks);
      b.u8(1);
    }
  });
}

std::string make_recording(const Options &o) {
  JfrTestChunk c(o.compressed);
  c.checkpoints = o.checkpoints;
  c.ticks_per_second = o.ticks_per_second;
  declare_types(c, o.layout);
  write_pools(c);
  const int64_t t0 = c.start_ticks;
  c.event("jdk.ActiveSetting", [&](JfrBytes &b) {
    b.i64(t0);
    b.i64(c.id("jdk.ExecutionSample"));
    b.str("event");
    b.str(o.exec_setting, Enc::utf16);
  });
  exec_sample(c, o.layout, t0 + 1000, 1, 1);
  exec_sample(c, o.layout, t0 + 2000, 2, 2);
  exec_sample(c, o.layout, t0 + 3000, 3, 3);
  exec_sample(c, o.layout, t0 + 4000, 4, 99); // stack 99 is missing
  exec_sample(c, o.layout, t0 + 5000, 5, 1);  // thread 5 is missing
  c.event("test.Odd", [&](JfrBytes &b) {
    b.i64(t0);
    b.i32(7);
    b.str("y", Enc::utf8);
    b.i32(3);
    b.str("p", Enc::null);
    b.str("q", Enc::empty);
    b.str("r", Enc::utf16);
    b.f32(1.0f);
    b.f64(2.0);
    b.i16(65);
    b.i16(-3);
    b.u8(0xff);
  });
  for (int64_t samples : {5, 0})
    c.event("profiler.WallClockSample", [=](JfrBytes &b) {
      b.i64(t0 + 6000);
      b.i64(1);
      b.i64(2);
      b.i32(samples);
    });
  for (const std::pair<int64_t, int64_t> &at :
       std::vector<std::pair<int64_t, int64_t>>{{100, 0}, {100, 4096}})
    c.event("jdk.ObjectAllocationInNewTLAB", [t0, alloc = at.first, tlab = at.second](JfrBytes &b) {
      b.i64(t0 + 7000);
      b.i64(1);
      b.i64(1);
      b.i64(1);
      b.i64(alloc);
      b.i64(tlab);
    });
  monitor_enter(c, o.layout, t0 + 5000, 2500, 2, 2);
  // An event type the metadata does not declare: skipped by its size.
  JfrBytes unknown(o.compressed);
  unknown.i64(9999);
  unknown.data += "\x01\x02\x03\x04\x05";
  JfrBytes sized(o.compressed);
  JfrTestChunk::append_sized(sized, unknown.data);
  c.raw_event_bytes(sized.data);
  return c.bytes();
}

LoadResult load(const std::string &bytes, unsigned threads = 1) {
  LoadOptions o;
  o.threads = threads;
  return read_jfr(bytes, o);
}

const Function *find_function(const Profile &p, std::string_view name) {
  for (const Function &f : p.functions)
    if (p.str(f.name) == name) return &f;
  return nullptr;
}

} // namespace

// A load of one event whose stack traces are read in windows, in file order (what a big
// async-profiler chunk does), resolves only the stack traces its samples reference: those are
// kept in a bitmap where the pool's keys are below 64 times their number, else in a hash set
// (keys from 2^40 here). Either way the profile has the stacks of the same load without
// windows, not those of the other event's samples too.
TEST(JfrSynthetic, OneEventWindowsResolveOnlyItsStackTracesWhateverTheKeys) {
  for (const int64_t base : {int64_t{0}, int64_t{1} << 40}) {
    SCOPED_TRACE("stack keys from " + std::to_string(base));
    JfrTestChunk c(true);
    declare_types(c, 0);
    write_pools(c);
    // Three more stack traces: two for the cpu samples, a third, of its own frames, for the
    // monitor's.
    for (const int64_t k : {1, 2, 3})
      c.pool("jdk.types.StackTrace", base + 100 * k, [k](JfrBytes &b) {
        b.boolean(false);
        b.i32(2);
        for (int64_t f : {int64_t{0}, int64_t{1}}) {
          b.i64(k == 3 ? 4 : 1 + f);
          b.i32(1000 * k + f);
          b.i32(0);
          b.i64(0);
        }
      });
    const int64_t t0 = c.start_ticks;
    // The samples reference the second before the first: windows make the first's frames first.
    exec_sample(c, 0, t0 + 1000, 2, base + 200);
    exec_sample(c, 0, t0 + 2000, 1, base + 100);
    exec_sample(c, 0, t0 + 3000, 1, base + 100);
    monitor_enter(c, 0, t0 + 4000, 2500, 2, base + 300);
    const std::string bytes = c.bytes();
    LoadOptions o;
    o.only_event = "jdk.ExecutionSample";
    LoadResult plain = read_jfr(bytes, o);
    ASSERT_TRUE(plain.ok()) << plain.describe();
    // Where the frame of `line` is in the profile's frames.
    const auto frame_at = [](const Profile &p, int32_t line) {
      for (size_t f = 0; f < p.frames.size(); f++)
        if (p.frames[f].line == line) return f;
      return p.frames.size();
    };
    EXPECT_LT(frame_at(*plain.profile, 2000), frame_at(*plain.profile, 1000));
    LoadOptions all = o;
    all.only_event.reset();
    all.jfr_stacks_in_file_order = true;
    LoadResult every = read_jfr(bytes, all);
    ASSERT_TRUE(every.ok()) << every.describe();
    for (unsigned threads : {1u, 2u}) {
      o.threads = threads;
      o.jfr_stacks_in_file_order = true;
      LoadResult r = read_jfr(bytes, o);
      ASSERT_TRUE(r.ok()) << r.describe();
      ASSERT_EQ(r.profile->events.size(), 1u);
      EXPECT_EQ(r.profile->events[0].total_value, 3);
      // Two stacks of two frames: four nodes; the monitor's two more (and write_pools'
      // stacks') when every stack trace is resolved.
      EXPECT_EQ(r.profile->stack_count(), plain.profile->stack_count());
      EXPECT_EQ(r.profile->stack_count(), 4u);
      EXPECT_GE(every.profile->stack_count(), r.profile->stack_count() + 2);
      // The windows resolved them, in the pool's order.
      EXPECT_LT(frame_at(*r.profile, 1000), frame_at(*r.profile, 2000));
    }
  }
}

TEST(JfrSynthetic, ReadsEveryEventKindAndEncoding) {
  LoadResult r = load(make_recording({}));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.check_valid(), "");
  int cpu = p.find_event("cpu");
  ASSERT_GE(cpu, 0);
  EXPECT_EQ(p.events[cpu].total_count, 5);
  EXPECT_EQ(p.metadata.default_event, cpu);
  EXPECT_EQ(p.str(p.events[cpu].unit), "samples");
  const Event &wall = p.events[p.find_event("wall")];
  EXPECT_EQ(wall.total_count, 6); // samples 5, and 0 counts as 1
  EXPECT_EQ(wall.total_value, 6);
  const Event &alloc = p.events[p.find_event("alloc")];
  EXPECT_EQ(alloc.total_count, 2);
  EXPECT_EQ(alloc.total_value, 100 + 4096); // allocationSize when tlabSize is 0
  const Event &lock = p.events[p.find_event("lock")];
  EXPECT_EQ(lock.total_value, 2500);
  EXPECT_EQ(p.str(lock.unit), "nanoseconds");

  // Threads: Java name, else OS name; every string encoding.
  std::set<std::string> names;
  for (const Thread &t : p.threads) names.insert(std::string(p.str(t.name)));
  EXPECT_TRUE(names.count("main"));
  EXPECT_TRUE(names.count("GC Thread#0"));
  EXPECT_TRUE(
      names.count("\xE4\xB8\x96\xE7\x95\x8C\xF0\x9F\x98\x80")); // UTF-16 with a surrogate pair
  EXPECT_TRUE(names.count("pooled-name"));                      // constant-pool string
  EXPECT_TRUE(names.count(""));                                 // the missing thread 5
  for (const Thread &t : p.threads)
    if (p.str(t.name) == "GC Thread#0") {
      EXPECT_EQ(t.os_tid, 101);
      EXPECT_EQ(t.java_tid, -1);
    }

  // Functions: display names, raw classes, descriptors, libraries.
  const Function *price = find_function(p, "org.acme.Shop.pr\xC3\xAF"
                                           "ce"); // Latin-1 -> UTF-8
  ASSERT_NE(price, nullptr);
  EXPECT_EQ(p.str(price->class_name), "org/acme/Shop");
  EXPECT_EQ(p.str(price->system_name), "(I)D");
  const Function *lambda = find_function(p, "org.acme.Main$$Lambda.run");
  ASSERT_NE(lambda, nullptr);
  EXPECT_EQ(p.str(lambda->class_name), "org/acme/Main$$Lambda$14+0x0000000801001400");
  EXPECT_EQ(p.str(lambda->method), "run"); // Symbol -> String pool -> Latin-1
  const Function *memcpy_fn = find_function(p, "memcpy");
  ASSERT_NE(memcpy_fn, nullptr);
  EXPECT_EQ(p.str(memcpy_fn->library), "libc.so.6");
  EXPECT_EQ(memcpy_fn->class_name, 0u);

  // Frames of stack 1 and 2: kinds, lines, bytecode indexes.
  const SampleColumns &c = p.events[cpu].samples;
  ASSERT_EQ(c.size(), 5u);
  std::vector<FrameId> s1 = p.frames_of(c.stack[0]);
  ASSERT_EQ(s1.size(), 3u);
  EXPECT_EQ(p.frames[s1[0]].kind, FrameKind::native);
  EXPECT_EQ(p.frames[s1[0]].line, 0);
  EXPECT_EQ(p.frames[s1[0]].bci, -1);
  EXPECT_EQ(p.frames[s1[1]].kind, FrameKind::jit);
  EXPECT_EQ(p.frames[s1[1]].line, 15);
  EXPECT_EQ(p.frames[s1[1]].bci, 3);
  EXPECT_EQ(p.frames[s1[2]].kind, FrameKind::interpreted);
  EXPECT_EQ(p.frames[s1[2]].line, 7);
  std::vector<FrameId> s2 = p.frames_of(c.stack[1]);
  ASSERT_EQ(s2.size(), 2u);
  EXPECT_EQ(p.frames[s2[0]].kind, FrameKind::inlined);
  EXPECT_EQ(p.frames[s2[1]].kind, FrameKind::c1);
  // An empty stack trace and a missing one: both the one frame `[no stack]`.
  ASSERT_NE(c.stack[2], kNoStack);
  EXPECT_EQ(c.stack[3], c.stack[2]);
  ASSERT_EQ(p.frames_of(c.stack[2]).size(), 1u);
  EXPECT_EQ(p.str(p.functions[p.frames[p.frames_of(c.stack[2])[0]].function].name), "[no stack]");
  EXPECT_EQ(p.events[p.find_event("cpu")].stackless, 2u);
  // Times: ns since the chunk start (1 GHz ticks).
  ASSERT_TRUE(c.has_time());
  EXPECT_EQ(c.time[0], 1000);
  EXPECT_EQ(c.time[4], 5000);
  // Missing references are reported once, with where.
  ASSERT_EQ(p.metadata.warnings.size(), 1u);
  EXPECT_NE(p.metadata.warnings[0].message.find("2 reference(s) to missing constant-pool entries"),
            std::string::npos)
      << p.metadata.warnings[0].message;
  EXPECT_GT(p.metadata.warnings[0].offset, 68);
}

TEST(JfrSynthetic, SameProfileWhateverTheEncodingAndLayout) {
  const Aggregate base = model_aggregate(*load(make_recording({})).profile);
  ASSERT_FALSE(base.empty());
  for (bool compressed : {true, false})
    for (int checkpoints : {1, 4})
      for (int layout : {0, 1, 2}) {
        Options o;
        o.compressed = compressed;
        o.checkpoints = checkpoints;
        o.layout = layout;
        LoadResult r = load(make_recording(o), 2);
        std::string what = "compressed=" + std::to_string(compressed) +
                           " checkpoints=" + std::to_string(checkpoints) +
                           " layout=" + std::to_string(layout);
        ASSERT_TRUE(r.ok()) << what << ": " << r.describe();
        EXPECT_EQ(r.profile->check_valid(), "") << what;
        EXPECT_TRUE(expect_same_aggregate(base, model_aggregate(*r.profile), what));
      }
}

TEST(JfrSynthetic, TicksAreConvertedAsTheJdkDoes) {
  Options o;
  o.ticks_per_second = 2'500'000'000; // 2.5 ticks per ns
  LoadResult r = load(make_recording(o));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_EQ(p.events[p.find_event("lock")].total_value, 1000); // 2500 ticks
  const SampleColumns &c = p.events[p.find_event("cpu")].samples;
  EXPECT_EQ(c.time[0], 400); // 1000 ticks after the chunk start
  EXPECT_EQ(c.time[4], 2000);
}

TEST(JfrSynthetic, HardwareCounterSettingNamesExecutionSamplesAcrossChunks) {
  Options cycles;
  cycles.exec_setting = "cycles";
  std::string a = make_recording(cycles);
  // A second chunk of the same recording without settings, starting 10 s later.
  JfrTestChunk c;
  c.start_nanos += 10'000'000'000;
  declare_types(c, 0);
  write_pools(c);
  exec_sample(c, 0, c.start_ticks + 10, 1, 1);
  exec_sample(c, 0, c.start_ticks + 20, 1, 2);
  std::string b = c.bytes();
  Options cpu_clock;
  cpu_clock.exec_setting = "cpu-clock";
  std::string d = make_recording(cpu_clock);
  for (unsigned threads : {1u, 2u}) {
    LoadResult r = load(a + b + d, threads);
    ASSERT_TRUE(r.ok()) << r.describe();
    const Profile &p = *r.profile;
    EXPECT_EQ(p.check_valid(), "");
    EXPECT_EQ(p.metadata.chunks, 3u);
    ASSERT_GE(p.find_event("cycles"), 0);
    EXPECT_EQ(p.events[p.find_event("cycles")].total_count, 5 + 2);
    EXPECT_EQ(p.events[p.find_event("cpu")].total_count, 5);
    EXPECT_EQ(p.str(p.events[p.metadata.default_event].name), "cpu");
    // The second chunk's samples are 10 s after the profile start.
    const SampleColumns &s = p.events[p.find_event("cycles")].samples;
    EXPECT_EQ(s.time[5], 10'000'000'010);
  }
}

TEST(JfrSynthetic, ConcatenatedRecordingsKeepTheirOwnConstantPools) {
  // Two recordings using the same keys for different things: each chunk resolves its own.
  std::string first = make_recording({});
  JfrTestChunk c;
  declare_types(c, 0);
  c.pool("jdk.types.FrameType", 0, [](JfrBytes &b) { b.str("Interpreted"); });
  c.pool("jdk.types.Symbol", 1, [](JfrBytes &b) { b.str("other/Thing"); });
  c.pool("jdk.types.Symbol", 2, [](JfrBytes &b) { b.str("work"); });
  c.pool("java.lang.Class", 1, [](JfrBytes &b) {
    b.i64(1);
    b.i32(0);
  });
  c.pool("jdk.types.Method", 1, [](JfrBytes &b) {
    b.i64(1);
    b.i64(2);
    b.i64(2);
    b.i32(0);
    b.boolean(false);
  });
  c.pool("java.lang.Thread", 1, [](JfrBytes &b) {
    b.str("other");
    b.i64(7);
    b.str("other");
    b.i64(7);
  });
  c.pool("jdk.types.StackTrace", 1, [](JfrBytes &b) {
    b.boolean(false);
    b.i32(1);
    b.i64(1);
    b.i32(3);
    b.i32(0);
    b.i64(0);
  });
  exec_sample(c, 0, c.start_ticks + 1, 1, 1);
  LoadResult r = load(first + c.bytes());
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  const SampleColumns &s = p.events[p.find_event("cpu")].samples;
  ASSERT_EQ(s.size(), 6u);
  std::vector<FrameId> last = p.frames_of(s.stack[5]);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(p.str(p.functions[p.frames[last[0]].function].name), "other.Thing.work");
  EXPECT_EQ(p.str(p.threads[s.thread[5]].name), "other");
}

TEST(JfrSynthetic, FramesWithWideFieldsAreNotConfusedWithNarrowOnes) {
  // Frames are remembered by 32 bits of line, bytecode index and type: a `long` line past
  // them must not be taken for the frame whose line is its low 32 bits.
  JfrTestChunk c;
  c.declare("java.lang.Thread", {{"osName", "java.lang.String"},
                                 {"osThreadId", "long"},
                                 {"javaName", "java.lang.String"},
                                 {"javaThreadId", "long"}});
  c.declare("jdk.types.Symbol", {{"string", "java.lang.String"}}, "", true);
  c.declare("java.lang.Class", {ref("name", "jdk.types.Symbol")});
  c.declare("jdk.types.Method", {ref("type", "java.lang.Class"), ref("name", "jdk.types.Symbol")});
  c.declare("jdk.types.FrameType", {{"description", "java.lang.String"}}, "", true);
  c.declare("jdk.types.StackFrame", {ref("method", "jdk.types.Method"),
                                     {"lineNumber", "long"},
                                     {"bytecodeIndex", "long"},
                                     ref("type", "jdk.types.FrameType")});
  c.declare("jdk.types.StackTrace",
            {{"truncated", "boolean"}, F{"frames", "jdk.types.StackFrame", false, true, {}}});
  c.declare("jdk.ExecutionSample",
            {ticks_field("startTime"), ref("sampledThread", "java.lang.Thread"),
             ref("stackTrace", "jdk.types.StackTrace")},
            "jdk.jfr.Event");
  c.pool("jdk.types.FrameType", 0, [](JfrBytes &b) { b.str("JIT compiled"); });
  c.pool("jdk.types.Symbol", 1, [](JfrBytes &b) { b.str("org/acme/Shop"); });
  c.pool("jdk.types.Symbol", 2, [](JfrBytes &b) { b.str("price"); });
  c.pool("java.lang.Class", 1, [](JfrBytes &b) { b.i64(1); });
  c.pool("jdk.types.Method", 1, [](JfrBytes &b) {
    b.i64(1);
    b.i64(2);
  });
  c.pool("java.lang.Thread", 1, [](JfrBytes &b) {
    b.str("main");
    b.i64(1);
    b.str("main");
    b.i64(1);
  });
  const int64_t wide = (int64_t{1} << 32) + 7;
  const std::vector<std::vector<int64_t>> lines = {{wide}, {7}, {wide, wide}, {7, 7}};
  for (size_t k = 0; k < lines.size(); k++) {
    c.pool("jdk.types.StackTrace", static_cast<int64_t>(k + 1), [&lines, k](JfrBytes &b) {
      b.boolean(false);
      b.i32(static_cast<int64_t>(lines[k].size()));
      for (int64_t line : lines[k]) {
        b.i64(1);
        b.i64(line);
        b.i64(3);
        b.i64(0);
      }
    });
    exec_sample(c, 0, c.start_ticks + 1 + static_cast<int64_t>(k), 1, static_cast<int64_t>(k + 1));
  }
  LoadResult r = load(c.bytes());
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  const SampleColumns &s = p.events[p.find_event("cpu")].samples;
  ASSERT_EQ(s.size(), 4u);
  const std::vector<std::vector<int32_t>> want = {{0}, {7}, {0, 0}, {7, 7}}; // lines past int: 0
  for (size_t k = 0; k < want.size(); k++) {
    std::vector<int32_t> got;
    for (FrameId f : p.frames_of(s.stack[k])) got.push_back(p.frames[f].line);
    EXPECT_EQ(got, want[k]) << "stack " << k + 1;
  }
}

TEST(JfrSynthetic, TruncatedTailLoadsTheCompleteChunksWithAWarning) {
  std::string a = make_recording({}), b = make_recording({});
  for (size_t cut : {size_t{1}, size_t{30}, size_t{67}, size_t{68}, b.size() / 2, b.size() - 1}) {
    LoadResult r = load(a + b.substr(0, cut));
    ASSERT_TRUE(r.ok()) << cut << ": " << r.describe();
    EXPECT_EQ(r.profile->metadata.chunks, 1u);
    ASSERT_FALSE(r.profile->metadata.warnings.empty());
    const LoadWarning &w = r.profile->metadata.warnings.back();
    EXPECT_EQ(w.offset, static_cast<int64_t>(a.size())) << w.message;
    EXPECT_NE(w.message.find("loaded the 1 complete chunk(s) before it"), std::string::npos)
        << w.message;
  }
  // Nothing complete at all is an error at byte 0.
  LoadResult r = load(a.substr(0, a.size() - 1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error_offset, 0);
  EXPECT_NE(r.error.find("truncated JFR chunk"), std::string::npos) << r.error;
}

TEST(JfrSynthetic, ReportsProgressAndHonoursCancellation) {
  std::string bytes;
  for (int i = 0; i < 4; i++) bytes += make_recording({});
  std::vector<double> seen;
  LoadOptions o;
  o.threads = 2;
  o.progress = [&](double f) { seen.push_back(f); };
  ASSERT_TRUE(read_jfr(bytes, o).ok());
  ASSERT_FALSE(seen.empty());
  EXPECT_DOUBLE_EQ(seen.back(), 1.0);
  std::atomic<bool> cancel{true};
  LoadOptions c;
  c.cancel = &cancel;
  LoadResult r = read_jfr(bytes, c);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error, "cancelled");
}

TEST(JfrSynthetic, TheJdkReadsTheWriterAlikeOnEveryEncoding) {
  // The JDK's own parser on the synthetic recording (compressed integers: the JDK reads no
  // others) gives the same aggregates as the reader: the writer and the reader agree with it
  // on UTF-16, Latin-1 and pooled strings, shuffled fields and unknown types. (The JDK needs
  // startTime first in events, so the free layout 2 is the reader's alone.)
  for (int layout : {0, 1}) {
    Options o;
    o.layout = layout;
    o.checkpoints = 3;
    const std::string bytes = make_recording(o);
    TempDir dir;
    const std::string path = dir.file("synthetic.jfr");
    write_file(path, bytes);
    LoadResult r = load(bytes);
    ASSERT_TRUE(r.ok()) << r.describe();
    EXPECT_TRUE(expect_same_aggregate(oracle_aggregate_file(path), model_aggregate(*r.profile),
                                      "layout " + std::to_string(layout)));
  }
}

namespace {

// Pools for declare_stack_types: stack traces 1 (org.acme.Shop.work line 10) and 2 (sleep,
// line 20), threads 1-3 (t1-t3).
void write_small_pools(JfrTestChunk &c) {
  c.pool("jdk.types.FrameType", 1, [](JfrBytes &b) { b.str("JIT compiled"); });
  c.pool("jdk.types.Symbol", 1, [](JfrBytes &b) { b.str("org/acme/Shop"); });
  c.pool("jdk.types.Symbol", 2, [](JfrBytes &b) { b.str("work"); });
  c.pool("jdk.types.Symbol", 3, [](JfrBytes &b) { b.str("sleep"); });
  c.pool("jdk.types.Symbol", 4, [](JfrBytes &b) { b.str("()V"); });
  c.pool("java.lang.Class", 1, [](JfrBytes &b) {
    b.i64(1);
    b.i32(1);
  });
  for (int m : {1, 2})
    c.pool("jdk.types.Method", m, [=](JfrBytes &b) {
      b.i64(1);
      b.i64(m + 1);
      b.i64(4);
      b.i32(1);
      b.boolean(false);
    });
  for (int s : {1, 2})
    c.pool("jdk.types.StackTrace", s, [=](JfrBytes &b) {
      b.boolean(false);
      b.i32(1);
      b.i64(s); // method
      b.i32(10 * s);
      b.i32(0);
      b.i64(1);
    });
  for (int t : {1, 2, 3})
    c.pool("java.lang.Thread", t, [=](JfrBytes &b) {
      b.str("os-" + std::to_string(t));
      b.i64(100 + t);
      b.str("t" + std::to_string(t));
      b.i64(t);
    });
}

// async-profiler 2.x's shape with event=cpu and (when `wall` is not empty) a wall interval:
// both samplers write jdk.ExecutionSample, the cpu one in STATE_DEFAULT (thread state pool key
// 0), the wall one in STATE_RUNNABLE (1) or STATE_SLEEPING (2). `states` lists the samples'
// keys in order; each sample's stack is 1 + its index modulo 2, its thread 1 + key.
std::string ap2_recording(const std::vector<int> &states, const std::string &wall) {
  JfrTestChunk c;
  declare_stack_types(c);
  c.declare("jdk.types.ThreadState", {{"name", "java.lang.String"}}, "", true);
  c.declare("jdk.ExecutionSample",
            {ticks_field("startTime"), ref("sampledThread", "java.lang.Thread"),
             ref("stackTrace", "jdk.types.StackTrace"), ref("state", "jdk.types.ThreadState")},
            "jdk.jfr.Event");
  declare_active_setting(c);
  const char *names[] = {"STATE_DEFAULT", "STATE_RUNNABLE", "STATE_SLEEPING"};
  for (int k = 0; k < 3; k++)
    c.pool("jdk.types.ThreadState", k, [=](JfrBytes &b) { b.str(names[k]); });
  write_small_pools(c);
  const int64_t t0 = c.start_ticks;
  auto setting = [&](const std::string &name, const std::string &value) {
    c.event("jdk.ActiveSetting", [&](JfrBytes &b) {
      b.i64(t0);
      b.i64(c.id("jdk.ExecutionSample"));
      b.str(name);
      b.str(value);
    });
  };
  setting("version", "2.9");
  setting("event", "cpu");
  if (!wall.empty()) setting("wall", wall);
  for (size_t i = 0; i < states.size(); i++)
    c.event("jdk.ExecutionSample", [&](JfrBytes &b) {
      b.i64(t0 + 1000 * static_cast<int64_t>(i + 1));
      b.i64(1 + states[i]);
      b.i64(1 + static_cast<int64_t>(i % 2));
      b.i64(states[i]);
    });
  c.declare("profiler.Marker", {}); // async-profiler's `profiler.` types name the producer
  return c.bytes();
}

// Reads `bytes` whole and cut into 64-byte slices, on 1 and 2 threads; each load must be valid,
// and `check` looks at its profile (the options it was read with beside it).
template <class Check> void for_each_slicing(const std::string &bytes, Check check) {
  for (size_t slice : {size_t{0}, size_t{64}})
    for (unsigned threads : {1u, 2u}) {
      SCOPED_TRACE("slice " + std::to_string(slice) + ", threads " + std::to_string(threads));
      LoadOptions o;
      o.threads = threads;
      o.jfr_slice_bytes = slice;
      LoadResult r = read_jfr(bytes, o);
      ASSERT_TRUE(r.ok()) << r.describe();
      EXPECT_EQ(r.profile->check_valid(), "");
      check(*r.profile, o);
    }
}

// The samples of an event in each state, by name ("" for none).
std::map<std::string, int64_t> by_state(const Profile &p, const Event &e) {
  std::map<std::string, int64_t> out;
  for (size_t i = 0; i < e.samples.size(); i++)
    out[std::string(p.str(p.states.empty() ? 0 : p.states[e.samples.state_at(i)]))] +=
        e.samples.count_at(i);
  return out;
}

} // namespace

// async-profiler 2.x with event=cpu and wall=: the samples in a thread state are wall-clock
// samples, those in STATE_DEFAULT cpu samples — whatever the slicing and threads, and when
// only one of the two events is loaded.
TEST(JfrSynthetic, AsyncProfiler2CpuAndWallSplitByThreadState) {
  std::vector<int> states;
  for (int i = 0; i < 300; i++) states.push_back(i % 7 == 0 ? 0 : i % 3 == 0 ? 1 : 2);
  std::map<int, int64_t> want;
  for (int s : states) want[s]++;
  const std::string bytes = ap2_recording(states, "20000000");
  for_each_slicing(bytes, [&](const Profile &p, const LoadOptions &o) {
    ASSERT_GE(p.find_event("cpu"), 0);
    ASSERT_GE(p.find_event("wall"), 0);
    const Event &cpu = p.events[p.find_event("cpu")];
    const Event &wall = p.events[p.find_event("wall")];
    EXPECT_EQ(cpu.total_count, want[0]);
    EXPECT_EQ(wall.total_count, want[1] + want[2]);
    EXPECT_TRUE(cpu.samples.state.empty()); // STATE_DEFAULT is no state
    EXPECT_EQ(by_state(p, wall),
              (std::map<std::string, int64_t>{{"RUNNABLE", want[1]}, {"SLEEPING", want[2]}}));
    // Thread 1 + state: every cpu sample is t1's, no wall sample is.
    for (size_t i = 0; i < cpu.samples.size(); i++)
      EXPECT_EQ(p.str(p.threads[cpu.samples.thread_at(i)].name), "t1");
    for (size_t i = 0; i < wall.samples.size(); i++)
      EXPECT_NE(p.str(p.threads[wall.samples.thread_at(i)].name), "t1");
    EXPECT_NE(p.str(cpu.rule).find("STATE_DEFAULT"), std::string::npos) << p.str(cpu.rule);
    EXPECT_NE(p.str(wall.rule).find("wall=20000000"), std::string::npos) << p.str(wall.rule);
    EXPECT_EQ(p.find_event("jdk.ExecutionSample"), -1); // it feeds both
    for (const char *only : {"wall", "cpu"}) {
      LoadOptions one = o;
      one.only_event = only;
      LoadResult ro = read_jfr(bytes, one);
      ASSERT_TRUE(ro.ok()) << ro.describe();
      const int e = ro.profile->find_event(only);
      ASSERT_GE(e, 0) << only;
      EXPECT_EQ(ro.profile->events[e].total_count,
                std::string(only) == "cpu" ? want[0] : want[1] + want[2]);
    }
  });
  // Without a wall interval every sample is cpu, and keeps its state.
  LoadResult r = load(ap2_recording(states, ""));
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.str(p.events[0].name), "cpu");
  EXPECT_EQ(p.events[0].total_count, 300);
  EXPECT_EQ(by_state(p, p.events[0]),
            (std::map<std::string, int64_t>{
                {"", want[0]}, {"RUNNABLE", want[1]}, {"SLEEPING", want[2]}}));
}

// Issue 20 item 4: every event type with a stack trace loads, by its JFR name. Types the
// table does not know are events of their own names: weighted by duration when one lasted
// (my.Timed), else counted (datadog.ExecutionSample has no duration, my.Instant only zeros); a
// type none of whose events has a stack (my.NoStack) or that has no stack field (my.Plain) is
// left out. The load warning names them. jdk.ThreadPark and jdk.JavaMonitorEnter both feed
// lock; each sample keeps its source, and either type's name picks lock (and, as the only
// event, loads lock alone), whatever the slicing and threads.
TEST(JfrSynthetic, EventTypesWithStacksLoadByTheirNames) {
  JfrTestChunk c;
  declare_stack_types(c);
  const F start = ticks_field("startTime"), dur = span_field("duration");
  const F thread = ref("eventThread", "java.lang.Thread");
  const F stack = ref("stackTrace", "jdk.types.StackTrace");
  for (const char *t :
       {"jdk.ThreadPark", "jdk.JavaMonitorEnter", "my.Timed", "my.Instant", "my.NoStack"})
    c.declare(t, {start, dur, thread, stack}, "jdk.jfr.Event");
  c.declare("datadog.ExecutionSample", {start, thread, stack}, "jdk.jfr.Event");
  c.declare("my.Plain", {start, dur, thread}, "jdk.jfr.Event");
  write_small_pools(c);
  const int64_t t0 = c.start_ticks;
  // Event i of type k: at t0 + 1000 i, thread 1 + i % 3, stack 1 + i % 2, duration 10 (k + 1) i.
  std::map<std::string, int64_t> count, value;
  const std::vector<std::string> types = {
      "jdk.ThreadPark", "jdk.JavaMonitorEnter",    "my.Timed", "my.Instant",
      "my.NoStack",     "datadog.ExecutionSample", "my.Plain"};
  for (int i = 0; i < 210; i++) {
    const std::string &type = types[static_cast<size_t>(i) % types.size()];
    const int64_t d = type == "my.Instant" ? 0 : 10 * (i % 5 + 1);
    c.event(type, [&](JfrBytes &b) {
      b.i64(t0 + 1000 * (i + 1));
      if (type != "datadog.ExecutionSample") b.i64(d);
      b.i64(1 + i % 3);
      if (type != "my.Plain") b.i64(type == "my.NoStack" ? 0 : 1 + i % 2);
    });
    count[type]++;
    value[type] += type == "datadog.ExecutionSample" || type == "my.Instant" ? 1 : d;
  }
  c.declare("profiler.Marker", {});
  const std::string bytes = c.bytes();
  for_each_slicing(bytes, [&](const Profile &p, const LoadOptions &o) {
    std::map<std::string, std::pair<std::string, int64_t>> got; // event: unit, value
    for (const Event &e : p.events)
      got[std::string(p.str(e.name))] = {std::string(p.str(e.unit)), e.total_value};
    EXPECT_EQ(
        got, (std::map<std::string, std::pair<std::string, int64_t>>{
                 {"lock", {"nanoseconds", value["jdk.ThreadPark"] + value["jdk.JavaMonitorEnter"]}},
                 {"my.Timed", {"nanoseconds", value["my.Timed"]}},
                 {"my.Instant", {"samples", count["my.Instant"]}},
                 {"datadog.ExecutionSample", {"samples", count["datadog.ExecutionSample"]}}}));
    ASSERT_EQ(p.metadata.warnings.size(), 1u);
    EXPECT_NE(
        p.metadata.warnings[0].message.find(
            "my.Timed (30 events), my.Instant (30 events), datadog.ExecutionSample (30 events)"),
        std::string::npos)
        << p.metadata.warnings[0].message;
    // lock's samples by source.
    const int lock = p.find_event("lock");
    ASSERT_GE(lock, 0);
    const Event &ev = p.events[lock];
    ASSERT_EQ(ev.sources.size(), 2u);
    std::map<std::string, int64_t> by_source;
    for (size_t i = 0; i < ev.samples.size(); i++)
      by_source[std::string(p.str(ev.sources[ev.samples.source_at(i)]))] += ev.samples.value_at(i);
    EXPECT_EQ(by_source, (std::map<std::string, int64_t>{
                             {"jdk.ThreadPark", value["jdk.ThreadPark"]},
                             {"jdk.JavaMonitorEnter", value["jdk.JavaMonitorEnter"]}}));
    for (const char *type : {"jdk.ThreadPark", "jdk.JavaMonitorEnter"}) {
      EXPECT_EQ(p.find_event(type), lock) << type;
      EXPECT_GE(p.selected_source(static_cast<EventId>(lock), type), 0) << type;
      LoadOptions one = o;
      one.only_event = type;
      LoadResult ro = read_jfr(bytes, one);
      ASSERT_TRUE(ro.ok()) << ro.describe();
      ASSERT_EQ(ro.profile->events.size(), 1u) << type;
      EXPECT_EQ(ro.profile->events[0].total_value, ev.total_value) << type;
    }
    EXPECT_EQ(p.selected_source(static_cast<EventId>(lock), "lock"), -1);
    EXPECT_EQ(p.find_event("my.NoStack"), -1);
    EXPECT_EQ(p.find_event("my.Plain"), -1);
    // A type that is its event's only source names it, with every sample.
    const int timed = p.find_event("my.Timed");
    ASSERT_GE(timed, 0);
    EXPECT_EQ(p.selected_source(static_cast<EventId>(timed), "my.Timed"), -1);
    EXPECT_TRUE(p.events[timed].samples.source.empty());
  });
}
