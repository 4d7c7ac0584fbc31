// The JFR reader on recordings made here with the JDK: a small busy Java program is compiled
// and run under the Flight Recorder with 1 MB chunks (several real chunks, JDK streaming
// checkpoints), ThreadPark and NativeMethodSample, and two user-defined event types with stack
// traces (one timed, one committed at once, so of duration 0);
// with a JDK 25 when one is installed, also jdk.CPUTimeSample and jdk.MethodTrace. Each file is
// compared with tests/oracles/jfr_aggregate.py exactly, and a cut copy loads its complete
// chunks with a warning.
#include "formats/jfr_reader.h"
#include "formats/loader.h"
#include "formats/otlp_writer.h"
#include "formats/pprof_writer.h"
#include "jfr_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace hotlines;
using namespace hotlines::test;

namespace {

const char *kProgram = R"JAVA(
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

public class Busy {
  // User-defined event types the reader's table does not know; their events carry a stack
  // trace, as every jdk.jfr.Event's does unless disabled. Blob is committed without begin()
  // (a duration of 0); its big text fills 1 MB chunks quickly, so that a short run gives
  // several. Order times the work between begin() and commit().
  @jdk.jfr.Name("test.Blob")
  static class Blob extends jdk.jfr.Event {
    String text;
    int n;
  }
  @jdk.jfr.Name("test.Order")
  static class Order extends jdk.jfr.Event {
    int items;
  }

  static volatile long sink;
  static final Object LOCK = new Object();

  static long work(int n) {
    long x = n;
    for (int i = 0; i < 20_000; i++) x = x * 31 + i;
    return x;
  }

  static List<String> allocate(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add("s" + i + ":" + sink);
    sink += new byte[8192 + n].length;
    return out;
  }

  static void traced(int n) { sink += work(n); }

  static void order(int n) {
    Order o = new Order();
    o.begin();
    for (int i = 0; i < 50; i++) sink += work(n + i);
    o.items = n;
    o.commit();
  }

  public static void main(String[] args) throws Exception {
    long millis = Long.parseLong(args[0]);
    long end = System.currentTimeMillis() + millis;
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      final int id = t;
      threads.add(new Thread(() -> {
        int i = 0;
        while (System.currentTimeMillis() < end) {
          sink += work(id);
          sink += allocate(100).size();
          if (++i % 8 == 0) {
            synchronized (LOCK) { sink += work(id + 1); }
          }
          if (i % 25 == 0) traced(i);
          if (i % 10 == 0) order(i);
          // Parks over the 1 ms threshold are recorded; the short ones are not.
          LockSupport.parkNanos(i % 16 == 0 ? 2_000_000 : 10_000);
        }
      }, "busy-" + t));
    }
    threads.add(new Thread(() -> {
      try (java.net.ServerSocket server = new java.net.ServerSocket(0)) {
        server.setSoTimeout((int) millis);
        server.accept(); // waits in native code until the timeout
      } catch (Exception e) {
        // the timeout ends the wait
      }
    }, "native-wait"));
    threads.add(new Thread(() -> {
      String text = "x".repeat(2000);
      int n = 0;
      while (System.currentTimeMillis() < end) {
        Blob b = new Blob();
        b.text = text + n;
        b.n = n++;
        b.commit();
        LockSupport.parkNanos(1_000_000);
      }
    }, "blobs"));
    for (Thread th : threads) th.start();
    for (Thread th : threads) th.join();
  }
}
)JAVA";

const char *kSettings = R"XML(<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">1 ms</setting></event>
  <event name="jdk.NativeMethodSample"><setting name="enabled">true</setting><setting name="period">10 ms</setting></event>
  <event name="jdk.ObjectAllocationInNewTLAB"><setting name="enabled">true</setting><setting name="stackTrace">true</setting></event>
  <event name="jdk.ObjectAllocationOutsideTLAB"><setting name="enabled">true</setting><setting name="stackTrace">true</setting></event>
  <event name="jdk.ObjectAllocationSample"><setting name="enabled">true</setting><setting name="stackTrace">true</setting><setting name="throttle">500/s</setting></event>
  <event name="jdk.JavaMonitorEnter"><setting name="enabled">true</setting><setting name="stackTrace">true</setting><setting name="threshold">0 ms</setting></event>
  <event name="jdk.ThreadPark"><setting name="enabled">true</setting><setting name="stackTrace">true</setting><setting name="threshold">1 ms</setting></event>
</configuration>
)XML";

const char *kJdk25 = HOTLINES_JDK25; // tests/CMakeLists.txt registers Jdk25* only if it exists

class JfrRecorded : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    write_file(dir_->file("Busy.java"), kProgram);
    write_file(dir_->file("rec.jfc"), kSettings);
    const std::string d = shell_quote(dir_->path());
    int status = -1;
    std::string out = run_command("cd " + d + " && javac -d . Busy.java 2>&1", &status);
    ASSERT_EQ(status, 0) << out;
    out = run_command("cd " + d +
                          " && java -XX:StartFlightRecording=filename=multi.jfr,settings=rec.jfc "
                          "-XX:FlightRecorderOptions=maxchunksize=1M Busy 3000 2>&1",
                      &status);
    ASSERT_EQ(status, 0) << out;
    if (std::filesystem::exists(std::string(kJdk25) + "/java")) {
      const std::string j = shell_quote(kJdk25);
      out = run_command("cd " + d + " && mkdir -p j25 && " + j + "/javac -d j25 Busy.java && " + j +
                            "/java -cp j25 '-XX:StartFlightRecording=filename=j25.jfr,"
                            "jdk.CPUTimeSample#enabled=true,jdk.CPUTimeSample#throttle=5ms,"
                            "jdk.MethodTrace#enabled=true,jdk.MethodTrace#filter=Busy::traced,"
                            "jdk.MethodTrace#stackTrace=true' Busy 2000 2>&1",
                        &status);
      ASSERT_EQ(status, 0) << out;
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static TempDir *dir_;
};
TempDir *JfrRecorded::dir_ = nullptr;

void check_against_oracle(const std::string &path, const Profile &p) {
  EXPECT_EQ(p.check_valid(), "");
  const double per_sample = static_cast<double>(p.sample_bytes()) / p.sample_count();
  EXPECT_LE(per_sample, 24.0);
  printf("[ recorded ] %s: %u chunk(s), %zu samples, %.2f bytes/sample, producer %s\n",
         std::filesystem::path(path).filename().c_str(), p.metadata.chunks, p.sample_count(),
         per_sample, p.metadata.producer.c_str());
  // One JDK recording keeps its constant-pool keys across chunks, so the JDK's whole-file view
  // is right here (and one oracle run is cheaper than one per chunk).
  Aggregate want = oracle_aggregate_file(path);
  ASSERT_FALSE(want.empty());
  EXPECT_TRUE(expect_same_aggregate(want, model_aggregate(p), path));
}

} // namespace

TEST_F(JfrRecorded, JdkMultiChunkRecordingMatchesTheOracle) {
  const std::string path = dir_->file("multi.jfr");
  const std::string bytes = read_file(path);
  ASSERT_FALSE(bytes.empty());
  LoadOptions one;
  one.threads = 1;
  LoadResult r = read_jfr(bytes, one);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  EXPECT_GE(p.metadata.chunks, 2u);
  EXPECT_EQ(p.metadata.chunks, split_chunks(bytes).size());
  for (const char *e : {"cpu", "alloc", "lock", "native"}) EXPECT_GE(p.find_event(e), 0) << e;
  EXPECT_TRUE(p.metadata.producer.starts_with("OpenJDK ") ||
              p.metadata.producer == "JDK Flight Recorder")
      << p.metadata.producer;
  const Event &lock = p.events[p.find_event("lock")];
  bool park = false;
  for (StringId s : lock.sources) park |= p.str(s) == "jdk.ThreadPark";
  EXPECT_TRUE(park);
  check_against_oracle(path, p);
  LoadOptions two;
  two.threads = 2;
  LoadResult r2 = read_jfr(bytes, two);
  ASSERT_TRUE(r2.ok());
  expect_identical(p, *r2.profile);
}

// Issue 20 item 4: every event type with a stack trace, by its JFR name. The user's types load
// as events of their own names (test.Order by duration, test.Blob counted), named in a load
// warning; a type that is one of an event's sources (jdk.ThreadPark of lock) selects only its
// samples, in a loaded profile and as the loader's only_event; the numbers are the oracle's.
TEST_F(JfrRecorded, EveryStackTraceEventTypeBySelectableName) {
  const std::string path = dir_->file("multi.jfr");
  LoadResult r = load_profile_file(path);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  const int order = p.find_event("test.Order"), blob = p.find_event("test.Blob");
  ASSERT_GE(order, 0);
  ASSERT_GE(blob, 0);
  EXPECT_EQ(p.str(p.events[order].unit), "nanoseconds");
  EXPECT_GT(p.events[order].total_value, p.events[order].total_count);
  EXPECT_EQ(p.str(p.events[blob].unit), "samples");
  EXPECT_EQ(p.events[blob].total_value, p.events[blob].total_count);
  std::string warning;
  for (const LoadWarning &w : p.metadata.warnings)
    if (w.message.find("no hotlines event maps") != std::string::npos) warning = w.message;
  EXPECT_NE(warning.find("test.Order ("), std::string::npos) << warning;
  EXPECT_NE(warning.find("test.Blob ("), std::string::npos) << warning;
  EXPECT_EQ(warning.find("jdk.ThreadPark"), std::string::npos) << warning;

  // jdk.ThreadPark is part of lock: its name selects lock, and only its samples.
  const int lock = p.find_event("lock");
  ASSERT_GE(lock, 0);
  EXPECT_EQ(p.find_event("jdk.ThreadPark"), lock);
  EXPECT_EQ(p.find_event("jdk.JavaMonitorEnter"), lock);
  EXPECT_GE(p.selected_source(static_cast<EventId>(lock), "jdk.ThreadPark"), 0);
  EXPECT_EQ(p.selected_source(static_cast<EventId>(lock), "lock"), -1);
  // Each sample's source, summed per type, against the oracle's events of that type alone.
  const Event &ev = p.events[lock];
  int64_t parts = 0;
  for (const char *type : {"jdk.ThreadPark", "jdk.JavaMonitorEnter"}) {
    Aggregate want = oracle_aggregate_file(path, std::string("--event ") + type);
    ASSERT_EQ(want.size(), 1u) << type;
    const int s = p.selected_source(static_cast<EventId>(lock), type);
    ASSERT_GE(s, 0) << type;
    int64_t value = 0, count = 0;
    for (size_t i = 0; i < ev.samples.size(); i++)
      if (ev.samples.source_at(i) == static_cast<uint32_t>(s)) {
        value += ev.samples.value_at(i);
        count += ev.samples.count_at(i);
      }
    EXPECT_EQ(value, want.begin()->second.weight) << type;
    EXPECT_EQ(count, want.begin()->second.count) << type;
    EXPECT_GT(value, 0) << type;
    parts += value;
    // Written out by its name (`convert -e TYPE`), that type's samples alone.
    const std::vector<EventPick> pick = {EventPick(static_cast<EventId>(lock), s)};
    PprofWriteOptions po;
    po.events = pick;
    OtlpWriteOptions oo;
    oo.events = pick;
    std::string error;
    for (const std::string &bytes : {write_pprof(p, po, &error), write_otlp(p, oo, &error)}) {
      ASSERT_EQ(error, "");
      LoadResult back = load_profile_bytes(bytes);
      ASSERT_TRUE(back.ok()) << back.describe();
      const int e = back.profile->find_event("lock");
      ASSERT_GE(e, 0) << back.profile->metadata.format;
      EXPECT_EQ(back.profile->events[e].total_value, value) << type;
      EXPECT_EQ(back.profile->events[e].total_count, count) << type;
    }
    // Loading only that type loads lock alone.
    LoadOptions only;
    only.only_event = type;
    LoadResult one = load_profile_file(path, only);
    ASSERT_TRUE(one.ok()) << one.describe();
    ASSERT_EQ(one.profile->events.size(), 1u) << type;
    EXPECT_EQ(one.profile->events[0].total_value, ev.total_value) << type;
  }
  EXPECT_EQ(parts, p.events[lock].total_value);
  // A type that is an event's only source is that event.
  EXPECT_EQ(p.find_event("jdk.ObjectAllocationSample"), p.find_event("alloc-sample"));
  EXPECT_EQ(p.find_event("jdk.NoSuchType"), -1);
}

TEST_F(JfrRecorded, CutRecordingLoadsItsCompleteChunks) {
  const std::string bytes = read_file(dir_->file("multi.jfr"));
  std::vector<std::string_view> chunks = split_chunks(bytes);
  ASSERT_GE(chunks.size(), 2u);
  const size_t keep = chunks[0].size(); // the first chunk, then half of the second
  const std::string cut = bytes.substr(0, keep + chunks[1].size() / 2);
  LoadResult r = read_jfr(cut);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.profile->metadata.chunks, 1u);
  ASSERT_FALSE(r.profile->metadata.warnings.empty());
  EXPECT_EQ(r.profile->metadata.warnings.back().offset, static_cast<int64_t>(keep));
  LoadResult first = read_jfr(bytes.substr(0, keep));
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(
      expect_same_aggregate(model_aggregate(*first.profile), model_aggregate(*r.profile), "cut"));
}

TEST_F(JfrRecorded, Jdk25CpuTimeSamplesAndMethodTraces) {
  const std::string path = dir_->file("j25.jfr");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no JDK 25 at " << kJdk25;
  LoadResult r = load_profile_file(path);
  ASSERT_TRUE(r.ok()) << r.describe();
  const Profile &p = *r.profile;
  ASSERT_GE(p.find_event("cpu"), 0);
  ASSERT_GE(p.find_event("trace"), 0);
  bool cpu_time = false;
  for (StringId s : p.events[p.find_event("cpu")].sources)
    cpu_time |= p.str(s) == "jdk.CPUTimeSample";
  EXPECT_TRUE(cpu_time);
  EXPECT_EQ(p.str(p.events[p.find_event("trace")].unit), "nanoseconds");
  check_against_oracle(path, p);
}
