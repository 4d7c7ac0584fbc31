// Profiled runs end to end, with real toolchains: the real `hotlines serve` is driven over
// stdio (hotlines/run, runOutput, runFinished, cancelRun, listJvms, testsInFile) on copies of
// tests/fixtures. Each profile a run loads is checked with the query engine: the test's
// hot line must be among the profile's top 3 lines by self weight. Needs java/javac/jcmd
// (openjdk-17-jdk), go (golang-go), junit4 and, for the Maven test, maven with Debian's
// /usr/share/maven-repo (scripts/deps.sh test installs them).
#include "formats/loader.h"
#include "lsp_client.h"
#include "server/engine/profile_index.h"
#include "server/engine/query_lines.h"
#include "test_util.h"

#include <csignal>
#include <re2/re2.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace hotlines {
namespace {

// A server that dies mid-test must fail the test, not kill it with SIGPIPE on the next write.
[[maybe_unused]] const auto kIgnoreSigpipe = signal(SIGPIPE, SIG_IGN);

namespace fs = std::filesystem;
using test::LspClient;
using json = nlohmann::json;

const std::string kJUnit4Jar = "/usr/share/java/junit4.jar";
const std::string kHamcrestJar = "/usr/share/java/hamcrest-core.jar";
const std::string kShopPackage = "org\\.acme\\.shop\\."; // java-shop's functions

std::string file_uri(const fs::path &p) {
  return "file://" + p.string();
}

// "Pricing.java:15" for the top `n` lines of the profile's default event, by self weight.
// `workspace`: a pattern of the workspace's functions; frames of every other function (the
// JDK, Go's runtime and math) are hidden, so their time counts for the workspace line that
// called them, as a source file's gutter shows it. "" = the unfiltered view.
std::vector<std::string> top_lines(const std::string &path, size_t n,
                                   const std::string &workspace = "") {
  LoadResult r = load_profile_file(path);
  EXPECT_EQ(r.error, "") << path;
  if (!r.ok()) return {};
  auto index = ProfileIndex::build(std::shared_ptr<const Profile>(std::move(r.profile)));
  View view;
  // Every function not under the workspace prefix, hidden by its exact name (patterns are RE2,
  // which has no negative lookahead).
  if (!workspace.empty()) {
    const RE2 in_workspace("^(?:" + workspace + ")");
    std::set<std::string> others;
    const Profile &p = index->profile();
    for (const Function &f : p.functions)
      if (std::string name(p.str(f.name)); !RE2::PartialMatch(name, in_workspace))
        others.insert(name);
    for (const std::string &name : others) view.hide.push_back("^" + RE2::QuoteMeta(name) + "$");
  }
  ViewResult v = compute_view(*index, view);
  EXPECT_TRUE(v.ok()) << v.error;
  if (!v.ok()) return {};
  HotOptions o;
  o.top = n;
  std::vector<std::string> out;
  for (const LineRow &row : hot_lines(*v.weights, o).rows)
    out.push_back(fs::path(std::string(row.file)).filename().string() + ":" +
                  std::to_string(row.line));
  return out;
}

bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Whether `top` holds a line of Pricing.discount's loop (14: the `for`, 15: its body). A short
// JIT-compiled run credits either: the compiled loop's samples land on one or the other.
bool has_discount_loop(const std::vector<std::string> &top) {
  return contains(top, "Pricing.java:15") || contains(top, "Pricing.java:14");
}

// A one-second `Main 1` run's profile shows its workload. One second gets few samples (about
// 30 under JFR's 10 ms period on this machine): its hottest line by self, line 15 (discount)
// or 14 or a JDK line, changes from run to run. With JDK frames hidden, as the gutter shows
// it, the three workers' labels() line was first in every run seen; under load (with few
// samples) top 3 is what is asserted, as elsewhere.
void expect_main_workload(const json &done, const std::string &what) {
  std::vector<std::string> top = top_lines(done["profilePath"], 3, kShopPackage);
  EXPECT_TRUE(contains(top, "Pricing.java:23")) << testing::PrintToString(top);
  std::cout << what << ": " << done["durationMs"] << " ms, top workspace lines "
            << testing::PrintToString(top) << ", top lines "
            << testing::PrintToString(top_lines(done["profilePath"], 5)) << "\n";
}

// Processes of group `pgid` that are not zombies (from /proc/PID/stat: state, pgrp).
std::vector<int> group_members(int pgid) {
  std::vector<int> pids;
  for (const auto &e : fs::directory_iterator("/proc")) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = test::read_file((e.path() / "stat").string());
    size_t paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    char state = 0;
    int ppid = 0, pgrp = 0;
    if (sscanf(stat.c_str() + paren + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) continue;
    if (pgrp == pgid && state != 'Z') pids.push_back(std::stoi(name));
  }
  return pids;
}

// Signals are delivered asynchronously: give killed processes a moment to exit.
bool process_group_alive(int pgid, double seconds = 3) {
  for (int i = 0; i < seconds * 50; i++) {
    if (group_members(pgid).empty()) return false;
    usleep(20000);
  }
  return true;
}

class Runs : public testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hotlines-runs-" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (client_) {
      client_->request("shutdown", nullptr);
      client_->notify("exit", nullptr);
      EXPECT_EQ(client_->wait_exit(20), 0) << test::read_file((dir_ / "server.err").string());
      client_.reset();
    }
    if (HasFailure())
      std::cerr << "server log:\n" << test::read_file((dir_ / "server.err").string());
    else
      fs::remove_all(dir_);
  }

  LspClient &start_server(const fs::path &root) {
    client_ = std::make_unique<LspClient>(HOTLINES_BINARY, (dir_ / "server.err").string());
    int id = client_->request(
        "initialize",
        {{"processId", getpid()}, {"rootUri", file_uri(root)}, {"capabilities", json::object()}});
    json init = client_->result(id);
    EXPECT_EQ(init["serverInfo"]["name"], "hotlines");
    client_->notify("initialized", json::object());
    return *client_;
  }

  // Starts a run and waits for its hotlines/runFinished.
  json run(const json &params, double seconds, std::string *run_id = nullptr) {
    int id = client_->request("hotlines/run", params);
    json started = client_->response(id);
    EXPECT_TRUE(started.contains("result")) << started.dump();
    if (!started.contains("result")) return json();
    std::string rid = started["result"]["runId"];
    if (run_id) *run_id = rid;
    json done = client_->notification(
        "hotlines/runFinished", [&](const json &p) { return p["runId"] == rid; }, seconds);
    EXPECT_FALSE(done.is_null()) << "no runFinished for " << rid << " within " << seconds << " s";
    return done;
  }

  std::string output_of(const std::string &run_id) {
    std::string text;
    for (const json &n : client_->seen())
      if (n["method"] == "hotlines/runOutput" && n["params"]["runId"] == run_id)
        text += n["params"]["text"].get<std::string>();
    return text;
  }

  fs::path copy_go_shop() {
    fs::path root = dir_ / "go-shop";
    fs::create_directories(root);
    fs::copy(test::fixture_path("go-shop/go.mod"), root / "go.mod");
    fs::copy(test::fixture_path("go-shop/internal"), root / "internal",
             fs::copy_options::recursive);
    return root;
  }

  // java-shop's sources and pom.xml, plus RepeatedPricingTest; with `compile`, also classes/
  // built with javac. PricingTest.discountIsFinite runs for about 0.2 s: on a loaded machine a
  // test JVM got no sample of it, so the runs that look at the profile's lines run
  // RepeatedPricingTest.discountTenTimes. Its second method shows the method filter at work.
  fs::path copy_java_shop(bool compile) {
    fs::path root = dir_ / "java-shop";
    fs::create_directories(root);
    fs::copy(test::fixture_path("java-shop/pom.xml"), root / "pom.xml");
    fs::copy(test::fixture_path("java-shop/src"), root / "src", fs::copy_options::recursive);
    fs::path repeated = root / "src/test/java/org/acme/shop/RepeatedPricingTest.java";
    std::ofstream(repeated)
        << "package org.acme.shop;\n"
           "public class RepeatedPricingTest {\n"
           "  @org.junit.Test public void discountTenTimes() {\n"
           "    for (int i = 0; i < 10; i++) new PricingTest().discountIsFinite();\n"
           "  }\n"
           "  @org.junit.Test public void labelsTenTimes() {\n"
           "    for (int i = 0; i < 10; i++) new PricingTest().labelsAreUnique();\n"
           "  }\n"
           "}\n";
    if (compile) {
      // RepeatTest runs the test method for a number of seconds: a JVM busy with the test,
      // long enough to attach to or to profile from the command line.
      fs::path repeat = dir_ / "RepeatTest.java";
      std::ofstream(repeat) << "public class RepeatTest {\n"
                               "  public static void main(String[] args) {\n"
                               "    long end = System.nanoTime() + Long.parseLong(args[0]) * "
                               "1_000_000_000L;\n"
                               "    do new org.acme.shop.PricingTest().discountIsFinite();\n"
                               "    while (System.nanoTime() < end);\n"
                               "  }\n"
                               "}\n";
      std::string shop = (root / "src/main/java/org/acme/shop/").string();
      std::string cmd = "javac -d " + (root / "classes").string() + " -cp " + kJUnit4Jar + " " +
                        shop + "Main.java " + shop + "Pricing.java " +
                        (root / "src/test/java/org/acme/shop/PricingTest.java").string() + " " +
                        repeated.string() + " " + repeat.string() + " 2>&1";
      int status = -1;
      std::string out = test::run_command(cmd, &status);
      EXPECT_EQ(status, 0) << out;
    }
    return root;
  }

  // Breaks java-shop's build (a class that does not compile) and runs `main` again: the run
  // fails as buildFailed, naming `tool`, with no profile, and java never starts. Returns the
  // run's output.
  std::string expect_build_failure(const fs::path &root, const json &main,
                                   const std::string &tool) {
    std::ofstream(root / "src/main/java/org/acme/shop/Broken.java")
        << "package org.acme.shop;\nclass Broken { int x = undefinedName; }\n";
    std::string id;
    json done = run(main, 400, &id);
    if (done.is_null()) return ""; // run() said why
    EXPECT_EQ(done["error"]["kind"], "buildFailed") << done.dump();
    EXPECT_EQ(done["error"]["message"], "the project did not compile (" + tool +
                                            " exited with code 1); org.acme.shop.Main did not "
                                            "start")
        << done.dump();
    EXPECT_EQ(done["exitCode"], 1);
    EXPECT_TRUE(done["profileId"].is_null());
    std::string out = output_of(id);
    EXPECT_EQ(out.find("$ java"), std::string::npos) << out; // java never started
    return out;
  }

  json go_env() const {
    std::string cache = std::string(HOTLINES_BUILD_DIR) + "/runs-go";
    return {{"GOFLAGS", "-mod=mod"},
            {"GOCACHE", cache + "/cache"},
            {"GOPATH", cache + "/path"},
            {"GOPROXY", "off"},
            {"GOTOOLCHAIN", "local"}};
  }

  // Maven settings that resolve from Debian's /usr/share/maven-repo only (a file:// mirror of
  // everything) into a local repository of the test's own.
  std::string offline_maven_settings() const {
    std::ofstream(dir_ / "settings.xml")
        << "<settings><localRepository>" << (dir_ / "m2").string()
        << "</localRepository><mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf>"
           "<url>file:///usr/share/maven-repo</url></mirror></mirrors></settings>\n";
    return (dir_ / "settings.xml").string();
  }

  // A Node fixture's `entries` (files and folders) with its npm packages installed from
  // package-lock.json: node-shop (typescript, esbuild, @types/node), node-runners (jest,
  // vitest, mocha).
  fs::path copy_node_fixture(const std::string &name, std::initializer_list<const char *> entries) {
    fs::path root = dir_ / name;
    fs::create_directories(root);
    for (const char *f : entries)
      fs::copy(test::fixture_path(name + "/" + f), root / f, fs::copy_options::recursive);
    int status = -1;
    std::string out = test::run_command("cd " + root.string() +
                                            " && npm ci --no-audit --no-fund --prefer-offline "
                                            "--loglevel=error 2>&1",
                                        &status);
    EXPECT_EQ(status, 0) << out;
    return root;
  }
  fs::path copy_node_shop() {
    return copy_node_fixture("node-shop",
                             {"package.json", "package-lock.json", "tsconfig.json", "src", "test"});
  }

  json classpath(const fs::path &root) const {
    return {(root / "classes").string(), kJUnit4Jar, kHamcrestJar};
  }

  fs::path dir_;
  std::unique_ptr<LspClient> client_;
};

TEST_F(Runs, GoTestLoadsItsCpuProfile) {
  fs::path root = copy_go_shop();
  LspClient &c = start_server(root);
  std::string id;
  json done = run({{"recipe", "go-test"},
                   {"package", "./internal/shop"},
                   {"test", "TestWorkload"},
                   {"profile", "cpu"},
                   {"env", go_env()}},
                  240, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  EXPECT_EQ(done["exitCode"], 0);
  EXPECT_TRUE(done["signal"].is_null());
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  std::string profile = done["profilePath"];
  EXPECT_EQ(fs::path(profile).parent_path(), root / ".hotlines");
  EXPECT_EQ(test::read_file((root / ".hotlines/.gitignore").string()), "*\n");
  EXPECT_FALSE(fs::exists(root / ".hotlines" / (id + ".test"))) << "the test binary is removed";
  EXPECT_NE(output_of(id).find("$ go test -count=1 -run '^TestWorkload$' -cpuprofile"),
            std::string::npos)
      << output_of(id);
  EXPECT_NE(output_of(id).find("ok  \texample.com/gows/internal/shop"), std::string::npos);

  // math.Sin is a function of its own in Go: its time counts for shop.go:13 once the
  // standard library is hidden.
  std::vector<std::string> top = top_lines(profile, 3, "example\\.com/gows/");
  EXPECT_TRUE(contains(top, "shop.go:13")) << testing::PrintToString(top);
  std::cout << "go-test TestWorkload: " << done["durationMs"] << " ms, top lines "
            << testing::PrintToString(top) << ", unfiltered "
            << testing::PrintToString(top_lines(profile, 3)) << "\n";

  // The server loaded it: the profile answers annotation queries for the test's source.
  int q = c.request("hotlines/fileAnnotations",
                    {{"textDocument", {{"uri", file_uri(root / "internal/shop/shop.go")}}},
                     {"profileId", done["profileId"]}});
  json ann = c.result(q);
  bool line13 = false;
  for (const json &l : ann["lines"]) line13 |= l["line"] == 13 && l["total"]["count"] > 0;
  EXPECT_TRUE(line13) << ann.dump();
}

TEST_F(Runs, GoTestMemProfile) {
  fs::path root = copy_go_shop();
  start_server(root);
  json done = run({{"recipe", "go-test"},
                   {"package", "./internal/shop"},
                   {"test", "TestWorkload"},
                   {"profile", "mem"},
                   {"env", go_env()}},
                  240);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  EXPECT_NE(done["profilePath"].get<std::string>().find("TestWorkload-mem-"), std::string::npos);
  // Labels allocates on line 22 (strings.Repeat, strconv.Itoa, append).
  std::vector<std::string> top = top_lines(done["profilePath"], 1, "example\\.com/gows/");
  EXPECT_EQ(top, std::vector<std::string>{"shop.go:22"});
  std::cout << "go-test TestWorkload mem: " << done["durationMs"] << " ms, top line "
            << testing::PrintToString(top) << "\n";
}

TEST_F(Runs, GoBenchmark) {
  fs::path root = copy_go_shop();
  std::ofstream(root / "internal/shop/spin_test.go")
      << "package shop\n\nimport \"testing\"\n\n"
         "func BenchmarkSpin(b *testing.B) {\n\tfor i := 0; i < b.N; i++ "
         "{\n\t\tSpin(100000)\n\t}\n}\n";
  start_server(root);
  std::string id;
  json done = run({{"recipe", "go-bench"},
                   {"package", "./internal/shop"},
                   {"bench", "BenchmarkSpin"},
                   {"goArgs", {"-benchtime=1s"}},
                   {"env", go_env()}},
                  240, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  EXPECT_NE(output_of(id).find("BenchmarkSpin-"), std::string::npos) << output_of(id);
  // (*spinner).Spin's loop, lines 31-32, is where the benchmark spends its time.
  std::vector<std::string> top = top_lines(done["profilePath"], 3, "example\\.com/gows/");
  EXPECT_TRUE(contains(top, "shop.go:31") || contains(top, "shop.go:32"))
      << testing::PrintToString(top);
  std::cout << "go-bench BenchmarkSpin: " << done["durationMs"] << " ms, top lines "
            << testing::PrintToString(top) << "\n";

  done = run({{"recipe", "go-bench"},
              {"package", "./internal/shop"},
              {"bench", "BenchmarkNope"},
              {"env", go_env()}},
             240);
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump();
}

TEST_F(Runs, JavaTestPlainClasspathJUnit4) {
  fs::path root = copy_java_shop(true);
  start_server(root);
  std::string id;
  json done = run({{"recipe", "java-test"},
                   {"class", "org.acme.shop.RepeatedPricingTest"},
                   {"method", "discountTenTimes"},
                   {"classpath", classpath(root)}},
                  180, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  EXPECT_EQ(done["exitCode"], 0);
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  std::string out = output_of(id);
  EXPECT_NE(out.find("OK (1 test)"), std::string::npos) << out; // only the one method ran
  std::vector<std::string> top = top_lines(done["profilePath"], 3, kShopPackage);
  EXPECT_TRUE(has_discount_loop(top)) << testing::PrintToString(top);
  std::cout << "java-test classpath: " << done["durationMs"] << " ms, top lines "
            << testing::PrintToString(top) << "\n";
  EXPECT_NE(out.find("$ javac -d "), std::string::npos) << out;

  // The launcher compiled by the first run is reused.
  done = run({{"recipe", "java-test"},
              {"class", "org.acme.shop.PricingTest"},
              {"method", "discountIsFinite"},
              {"classpath", classpath(root)}},
             180, &id);
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  EXPECT_EQ(output_of(id).find("$ javac"), std::string::npos) << output_of(id);
  std::cout << "java-test classpath, launcher compiled: " << done["durationMs"] << " ms\n";
}

TEST_F(Runs, JavaTestJUnit5ConsoleLauncher) {
  const std::string console = "/usr/share/java/junit-platform-console-standalone.jar";
  if (!fs::exists(console)) GTEST_SKIP() << "no " << console << " (package junit5)";
  fs::path root = copy_java_shop(true);
  start_server(root);
  json cp = classpath(root);
  cp.push_back(console); // picks the JUnit 5 runner; the JUnit 4 test runs on its vintage engine
  std::string id;
  json done = run({{"recipe", "java-test"},
                   {"class", "org.acme.shop.RepeatedPricingTest"},
                   {"method", "discountTenTimes"},
                   {"classpath", cp}},
                  180, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  EXPECT_NE(output_of(id).find("[         1 tests successful      ]"), std::string::npos)
      << output_of(id);
  std::vector<std::string> top = top_lines(done["profilePath"], 3, kShopPackage);
  EXPECT_TRUE(has_discount_loop(top)) << testing::PrintToString(top);
  std::cout << "java-test junit5 console: " << done["durationMs"] << " ms, top lines "
            << testing::PrintToString(top) << "\n";
  done = run({{"recipe", "java-test"},
              {"class", "org.acme.shop.PricingTest"},
              {"method", "noSuchTest"},
              {"classpath", cp}},
             180);
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump();
}

TEST_F(Runs, JavaTestMavenOffline) {
  if (!fs::exists("/usr/share/maven-repo/org/apache/maven/plugins/maven-surefire-plugin"))
    GTEST_SKIP() << "Debian's Maven repository has no surefire (scripts/deps.sh test)";
  fs::path root = copy_java_shop(false);
  offline_maven_settings();
  start_server(root);
  std::string id;
  json done = run({{"recipe", "java-test"},
                   {"class", "org.acme.shop.RepeatedPricingTest"},
                   {"method", "discountTenTimes"},
                   {"buildArgs", {"-s", (dir_ / "settings.xml").string()}}},
                  400, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  std::string out = output_of(id);
  EXPECT_NE(out.find("Tests run: 1, Failures: 0"), std::string::npos) << out;
  std::vector<std::string> top = top_lines(done["profilePath"], 3, kShopPackage);
  EXPECT_TRUE(has_discount_loop(top)) << testing::PrintToString(top);
  std::cout << "java-test maven: " << done["durationMs"] << " ms, top lines "
            << testing::PrintToString(top) << "\n";

  // A test that does not exist is reported as such.
  done = run({{"recipe", "java-test"},
              {"class", "org.acme.shop.PricingTest"},
              {"method", "noSuchTest"},
              {"buildArgs", {"-s", (dir_ / "settings.xml").string()}}},
             400);
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump();
  EXPECT_TRUE(done["profileId"].is_null());
}

TEST_F(Runs, JavaMainMavenBuildsFirst) {
  if (!fs::exists("/usr/share/maven-repo/org/apache/maven/plugins/maven-compiler-plugin"))
    GTEST_SKIP() << "Debian's Maven repository has no compiler plugin (scripts/deps.sh test)";
  fs::path root = copy_java_shop(false); // sources only: the run compiles them
  std::string settings = offline_maven_settings();
  start_server(root);
  json main = {{"recipe", "java-main"},
               {"mainClass", "org.acme.shop.Main"},
               {"args", {"1"}},
               {"buildArgs", {"-s", settings}}};
  std::string id;
  json done = run(main, 400, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  EXPECT_EQ(done["exitCode"], 0);
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  std::string out = output_of(id);
  EXPECT_NE(out.find("$ mvn -B compile -s " + settings + "\n"), std::string::npos) << out;
  EXPECT_NE(out.find("BUILD SUCCESS"), std::string::npos) << out;
  EXPECT_NE(out.find(" -cp " + (root / "target/classes").string() + " org.acme.shop.Main 1\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("total "), std::string::npos) << out; // Main ran to its end
  expect_main_workload(done, "java-main maven");

  // The build succeeds, the main class does not exist.
  json nope = main;
  nope["mainClass"] = "org.acme.shop.Nope";
  done = run(nope, 400);
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump();

  // A compile error stops the run before java starts.
  out = expect_build_failure(root, main, "mvn");
  EXPECT_NE(out.find("COMPILATION ERROR"), std::string::npos) << out;
}

TEST_F(Runs, JavaMainGradleBuildsFirst) {
  if (test::run_command("command -v gradle").empty()) GTEST_SKIP() << "no gradle (package gradle)";
  fs::path root = copy_java_shop(false);
  fs::remove(root / "pom.xml"); // build.gradle is what tells the build
  std::ofstream(root / "build.gradle") << "apply plugin: 'java'\n";
  start_server(root);
  json main = {{"recipe", "java-main"},
               {"mainClass", "org.acme.shop.Main"},
               {"args", {"1"}},
               {"buildArgs", {"--offline"}},
               {"env", {{"GRADLE_USER_HOME", (dir_ / "gradle-home").string()}}}};
  std::string id;
  json done = run(main, 400, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  std::string out = output_of(id);
  EXPECT_NE(out.find("$ gradle classes --no-daemon --console=plain --offline\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("BUILD SUCCESSFUL"), std::string::npos) << out;
  EXPECT_NE(out.find(" -cp " + (root / "build/classes/java/main").string() + ":" +
                     (root / "build/resources/main").string() + " org.acme.shop.Main 1\n"),
            std::string::npos)
      << out;
  expect_main_workload(done, "java-main gradle");

  expect_build_failure(root, main, "gradle");
}

TEST_F(Runs, JavaTestGradleOffline) {
  if (test::run_command("command -v gradle").empty()) GTEST_SKIP() << "no gradle (package gradle)";
  fs::path root = copy_java_shop(false);
  fs::remove(root / "pom.xml"); // build.gradle is what tells the build
  // Dependencies from Debian's Maven repository; Gradle's own files in the test folder.
  std::ofstream(root / "build.gradle")
      << "apply plugin: 'java'\n"
         "repositories { maven { url 'file:///usr/share/maven-repo' } }\n"
         "dependencies { testCompile 'junit:junit:4.13.2' }\n";
  start_server(root);
  json gradle = {{"recipe", "java-test"},
                 {"class", "org.acme.shop.RepeatedPricingTest"},
                 {"method", "discountTenTimes"},
                 {"buildArgs", {"--offline"}},
                 {"env", {{"GRADLE_USER_HOME", (dir_ / "gradle-home").string()}}}};
  std::string id;
  json done = run(gradle, 400, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  EXPECT_NE(output_of(id).find("BUILD SUCCESSFUL"), std::string::npos) << output_of(id);
  EXPECT_FALSE(fs::exists(root / ".hotlines" / (id + "-init.gradle")));
  std::vector<std::string> top = top_lines(done["profilePath"], 3);
  EXPECT_TRUE(has_discount_loop(top)) << testing::PrintToString(top);
  std::cout << "java-test gradle: " << done["durationMs"] << " ms, top lines "
            << testing::PrintToString(top) << "\n";

  gradle["method"] = "noSuchTest";
  done = run(gradle, 400);
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump();
}

TEST_F(Runs, CommandRecipeThroughExecuteCommand) {
  fs::path root = copy_java_shop(true);
  LspClient &c = start_server(root);
  std::string cp = (root / "classes").string() + ":" + kJUnit4Jar + ":" + kHamcrestJar;
  int id = c.request("workspace/executeCommand",
                     {{"command", "hotlines.run"},
                      {"arguments",
                       {{{"recipe", "command"},
                         {"argv",
                          {"java", "-XX:StartFlightRecording=filename={profile},settings=profile",
                           "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints", "-cp", cp,
                           "RepeatTest", "2"}},
                         {"format", "jfr"}}}}});
  json started = c.result(id);
  ASSERT_TRUE(started["runId"].is_string());
  EXPECT_EQ(started["commands"][0][1],
            "-XX:StartFlightRecording=filename=" + started["profilePath"].get<std::string>() +
                ",settings=profile");
  json done = c.notification(
      "hotlines/runFinished", [&](const json &p) { return p["runId"] == started["runId"]; }, 180);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump();
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  std::vector<std::string> top = top_lines(done["profilePath"], 3);
  EXPECT_TRUE(has_discount_loop(top)) << testing::PrintToString(top);
  std::cout << "command (java -XX:StartFlightRecording RepeatTest 2): " << done["durationMs"]
            << " ms, top lines " << testing::PrintToString(top) << "\n";
  int list = c.request("hotlines/profiles", nullptr);
  EXPECT_EQ(c.result(list)["profiles"].size(), 1u);
}

TEST_F(Runs, AttachToRunningJvm) {
  fs::path root = copy_java_shop(true);
  // A JVM of our own that runs the test method for a minute. Attaching cannot turn on
  // DebugNonSafepoints (line accuracy of JIT-compiled code), so the JVM starts with it, as a
  // user would for this.
  pid_t jvm = -1;
  {
    std::string cp = (root / "classes").string() + ":" + kJUnit4Jar + ":" + kHamcrestJar;
    std::vector<std::string> args = {"java",
                                     "-XX:+UnlockDiagnosticVMOptions",
                                     "-XX:+DebugNonSafepoints",
                                     "-cp",
                                     cp,
                                     "RepeatTest",
                                     "60"};
    std::vector<char *> argv;
    for (std::string &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    ASSERT_EQ(posix_spawnp(&jvm, "java", &fa, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&fa);
  }
  struct Reaper {
    pid_t pid;
    ~Reaper() {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  } reaper{jvm};
  LspClient &c = start_server(root);
  // listJvms shows it once its attach listener is up.
  bool listed = false;
  for (int i = 0; i < 50 && !listed; i++) {
    json jvms = c.result(c.request("hotlines/listJvms", json::object()));
    for (const json &j : jvms["jvms"])
      listed |= j["pid"] == jvm && j["mainClass"] == "RepeatTest" && j["args"] == "60";
    if (!listed) usleep(200000);
  }
  ASSERT_TRUE(listed);
  std::string id;
  json done = run({{"recipe", "attach-jvm"}, {"pid", jvm}, {"durationMs", 4000}}, 120, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump() << output_of(id);
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  std::string out = output_of(id);
  EXPECT_NE(out.find("JFR.stop name=hotlines-" + id), std::string::npos) << out;
  EXPECT_GE(done["durationMs"].get<int64_t>(), 4000);
  std::vector<std::string> top = top_lines(done["profilePath"], 3);
  EXPECT_TRUE(has_discount_loop(top)) << testing::PrintToString(top);
  std::cout << "attach-jvm 4 s: " << done["durationMs"] << " ms, top lines "
            << testing::PrintToString(top) << "\n";
  EXPECT_EQ(kill(jvm, 0), 0) << "the target JVM keeps running";

  // Cancelled while recording: the recording is still stopped in the target JVM.
  int rq =
      c.request("hotlines/run", {{"recipe", "attach-jvm"}, {"pid", jvm}, {"durationMs", 600000}});
  std::string rid = c.result(rq)["runId"];
  json waiting = c.notification(
      "hotlines/runOutput",
      [&](const json &p) {
        return p["runId"] == rid &&
               p["text"].get<std::string>().find("waiting") != std::string::npos;
      },
      60);
  ASSERT_FALSE(waiting.is_null());
  EXPECT_EQ(c.result(c.request("hotlines/cancelRun", {{"runId", rid}}))["cancelled"], true);
  done = c.notification(
      "hotlines/runFinished", [&](const json &p) { return p["runId"] == rid; }, 60);
  EXPECT_EQ(done["error"]["kind"], "cancelled") << done.dump();
  out = output_of(rid);
  EXPECT_EQ(out.find("$ jcmd " + std::to_string(jvm) + " JFR.dump"), std::string::npos) << out;
  EXPECT_NE(out.find("JFR.stop name=hotlines-" + rid + "\n"), std::string::npos) << out;
  std::string check = test::run_command("jcmd " + std::to_string(jvm) + " JFR.check 2>&1");
  EXPECT_EQ(check.find("hotlines-"), std::string::npos) << check;
  EXPECT_EQ(kill(jvm, 0), 0);
}

TEST_F(Runs, CancelKillsTheProcessGroup) {
  LspClient &c = start_server(dir_);
  // A shell with a background child and a foreground child: both must go.
  int id =
      c.request("hotlines/run",
                {{"recipe", "command"},
                 {"argv", {"sh", "-c", "echo pid=$$; sleep 300 & sleep 301; echo {profile}"}}});
  json started = c.result(id);
  std::string rid = started["runId"];
  json first = c.notification(
      "hotlines/runOutput",
      [&](const json &p) { return p["runId"] == rid && p["stream"] == "stdout"; }, 20);
  ASSERT_FALSE(first.is_null());
  std::string text = first["text"];
  ASSERT_EQ(text.rfind("pid=", 0), 0u) << text;
  int pgid = std::stoi(text.substr(4));
  usleep(200000);                            // let both sleeps start
  EXPECT_EQ(group_members(pgid).size(), 3u); // sh and two sleeps
  json cancel = c.result(c.request("hotlines/cancelRun", {{"runId", rid}}));
  EXPECT_EQ(cancel["cancelled"], true);
  json done = c.notification(
      "hotlines/runFinished", [&](const json &p) { return p["runId"] == rid; }, 20);
  ASSERT_FALSE(done.is_null());
  EXPECT_EQ(done["error"]["kind"], "cancelled");
  EXPECT_EQ(done["signal"], "SIGTERM");
  EXPECT_TRUE(done["profileId"].is_null());
  EXPECT_FALSE(process_group_alive(pgid)) << "a process of the cancelled run is left";
  // Cancelling again, or an unknown run, is a no-op.
  EXPECT_EQ(c.result(c.request("hotlines/cancelRun", {{"runId", rid}}))["cancelled"], false);
}

// A run dies with its server even when the server is SIGKILLed (no cleanup runs): the run
// watchdog kills its process group, background children included.
TEST_F(Runs, KillingTheServerKillsItsRuns) {
  LspClient &c = start_server(dir_);
  int id =
      c.request("hotlines/run",
                {{"recipe", "command"},
                 {"argv", {"sh", "-c", "echo pid=$$; sleep 300 & sleep 301; echo {profile}"}}});
  std::string rid = c.result(id)["runId"];
  json first = c.notification(
      "hotlines/runOutput",
      [&](const json &p) { return p["runId"] == rid && p["stream"] == "stdout"; }, 20);
  ASSERT_FALSE(first.is_null());
  std::string text = first["text"];
  ASSERT_EQ(text.rfind("pid=", 0), 0u) << text;
  int pgid = std::stoi(text.substr(4));
  usleep(200000);
  EXPECT_EQ(group_members(pgid).size(), 3u); // sh and two sleeps
  kill(c.pid(), SIGKILL);
  client_.reset(); // reaps the server
  bool alive = process_group_alive(pgid, 5);
  if (alive) kill(-pgid, SIGKILL);
  EXPECT_FALSE(alive) << "the run outlived its killed server";
}

// A run that writes faster than the client reads: the server queues at most about 8 MiB of
// it for the client and drops the rest, saying how many bytes; nothing is lost unsaid.
TEST_F(Runs, OutputFloodIsDroppedWithACount) {
  LspClient &c = start_server(dir_);
  const uint64_t kBytes = uint64_t(40) << 20;
  int id =
      c.request("hotlines/run",
                {{"recipe", "command"},
                 {"argv",
                  {"sh", "-c",
                   "head -c " + std::to_string(kBytes) + " /dev/zero | tr '\\0' x; : {profile}"}}});
  std::string rid = c.result(id)["runId"];
  sleep(3); // the client reads nothing meanwhile
  json done = c.notification(
      "hotlines/runFinished", [&](const json &p) { return p["runId"] == rid; }, 60);
  ASSERT_FALSE(done.is_null());
  uint64_t shown = 0, dropped = 0, notes = 0;
  for (const json &n : c.seen()) {
    if (n["method"] != "hotlines/runOutput" || n["params"]["runId"] != rid) continue;
    std::string t = n["params"]["text"];
    if (n["params"]["stream"] == "stdout") {
      EXPECT_EQ(t.find_first_not_of('x'), std::string::npos);
      shown += t.size();
    } else if (size_t at = t.find("[hotlines: "); at != std::string::npos) {
      EXPECT_NE(t.find(" bytes of output dropped"), std::string::npos) << t;
      dropped += std::stoull(t.substr(at + 11));
      notes++;
    }
  }
  EXPECT_GT(dropped, 0u);
  EXPECT_GE(notes, 1u);
  EXPECT_EQ(shown + dropped, kBytes) << shown << " shown, " << dropped << " dropped";
  EXPECT_LT(shown, kBytes / 2);
}

TEST_F(Runs, CancelALongJvmRun) {
  fs::path root = copy_java_shop(true);
  LspClient &c = start_server(root);
  int id = c.request("hotlines/run", {{"recipe", "java-main"},
                                      {"mainClass", "org.acme.shop.Main"},
                                      {"classpath", {"classes"}},
                                      {"args", {"300"}}});
  std::string rid = c.result(id)["runId"];
  // Wait until the JVM is up (JFR prints its "Started recording" line).
  json started = c.notification(
      "hotlines/runOutput",
      [&](const json &p) {
        return p["runId"] == rid &&
               p["text"].get<std::string>().find("recording") != std::string::npos;
      },
      60);
  ASSERT_FALSE(started.is_null());
  c.result(c.request("hotlines/cancelRun", {{"runId", rid}}));
  json done = c.notification(
      "hotlines/runFinished", [&](const json &p) { return p["runId"] == rid; }, 30);
  ASSERT_FALSE(done.is_null());
  EXPECT_EQ(done["error"]["kind"], "cancelled");
  EXPECT_LT(done["durationMs"].get<int64_t>(), 30000);
  std::string jvms = test::run_command("jcmd -l");
  EXPECT_EQ(jvms.find("org.acme.shop.Main 300"), std::string::npos) << jvms;
}

TEST_F(Runs, FailuresAreExplicit) {
  fs::path go = copy_go_shop();
  fs::path java = copy_java_shop(true);
  LspClient &c = start_server(dir_);
  json env = go_env();

  json missing_env = env;
  missing_env["PATH"] = "/nonexistent";
  json done = run({{"recipe", "go-test"},
                   {"cwd", go.string()},
                   {"package", "./internal/shop"},
                   {"test", "TestWorkload"},
                   {"env", missing_env}},
                  30);
  EXPECT_EQ(done["error"]["kind"], "toolNotFound") << done.dump();
  EXPECT_EQ(done["error"]["message"],
            "'go' was not found (install golang-go, or set params.go or PATH in params.env)");
  EXPECT_TRUE(done["exitCode"].is_null());

  done = run({{"recipe", "go-test"},
              {"cwd", go.string()},
              {"package", "./internal/shop"},
              {"test", "TestNope"},
              {"env", env}},
             240);
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump();
  EXPECT_NE(done["error"]["output"].get<std::string>().find("no tests to run"), std::string::npos);
  EXPECT_TRUE(done["profileId"].is_null());

  std::ofstream(go / "internal/shop/broken.go")
      << "package shop\nfunc Broken() int { return undefinedName }\n";
  done = run({{"recipe", "go-test"},
              {"cwd", go.string()},
              {"package", "./internal/shop"},
              {"test", "TestWorkload"},
              {"env", env}},
             240);
  EXPECT_EQ(done["error"]["kind"], "buildFailed") << done.dump();
  EXPECT_NE(done["error"]["output"].get<std::string>().find("undefined: undefinedName"),
            std::string::npos)
      << done.dump();
  fs::remove(go / "internal/shop/broken.go");

  done = run({{"recipe", "java-test"},
              {"cwd", java.string()},
              {"class", "org.acme.shop.PricingTest"},
              {"method", "noSuchTest"},
              {"classpath", classpath(java)}},
             120);
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump();
  EXPECT_NE(done["error"]["output"].get<std::string>().find("hotlines: no test named noSuchTest"),
            std::string::npos);

  done = run({{"recipe", "java-test"},
              {"cwd", java.string()},
              {"class", "org.acme.shop.NoSuchTest"},
              {"classpath", classpath(java)}},
             120);
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump();

  // Without junit4.jar on the classpath the launcher does not compile.
  done = run({{"recipe", "java-test"},
              {"cwd", java.string()},
              {"class", "org.acme.shop.PricingTest"},
              {"classpath", {(java / "classes").string()}},
              {"outputDir", (dir_ / "no-junit").string()}},
             120);
  EXPECT_EQ(done["error"]["kind"], "buildFailed") << done.dump();
  EXPECT_NE(done["error"]["output"].get<std::string>().find("error: cannot find symbol"),
            std::string::npos)
      << done.dump();

  done = run(
      {{"recipe", "command"}, {"argv", {"sh", "-c", "sleep 30", "{profile}"}}, {"timeoutMs", 500}},
      30);
  EXPECT_EQ(done["error"]["kind"], "timeout") << done.dump();
  EXPECT_LT(done["durationMs"].get<int64_t>(), 5000);

  done = run({{"recipe", "command"}, {"argv", {"true", "{profile}"}}}, 30);
  EXPECT_EQ(done["error"]["kind"], "noProfile") << done.dump();
  EXPECT_EQ(done["exitCode"], 0);

  done = run({{"recipe", "command"},
              {"argv", {"sh", "-c", "echo about to crash; kill -SEGV $$", "{profile}"}}},
             30);
  EXPECT_EQ(done["error"]["kind"], "crashed") << done.dump();
  EXPECT_EQ(done["signal"], "SIGSEGV");
  EXPECT_EQ(done["error"]["output"], "$ sh -c 'echo about to crash; kill -SEGV $$' " +
                                         done["profilePath"].get<std::string>() +
                                         "\nabout to crash\nhotlines: sh was killed by signal 11");

  // A profile that cannot be loaded.
  done = run(
      {{"recipe", "command"}, {"argv", {"sh", "-c", "echo not a profile > \"$0\"", "{profile}"}}},
      30);
  EXPECT_EQ(done["error"]["kind"], "loadFailed") << done.dump();

  // Bad params are InvalidParams, before anything runs.
  json bad =
      c.response(c.request("hotlines/run", {{"recipe", "go-test"}, {"cwd", "/nonexistent"}}));
  EXPECT_EQ(bad["error"]["code"], -32602);
  EXPECT_EQ(bad["error"]["message"], "params.cwd is not a directory: /nonexistent");

  // Nothing was loaded and the server still answers.
  json profiles = c.result(c.request("hotlines/profiles", nullptr));
  EXPECT_EQ(profiles["profiles"].size(), 0u);
}

TEST_F(Runs, EndOfInputKillsRunningRuns) {
  LspClient &c = start_server(dir_);
  int id =
      c.request("hotlines/run",
                {{"recipe", "command"},
                 {"argv", {"sh", "-c", "echo pid=$$; sleep 300 & sleep 301; echo {profile}"}}});
  std::string rid = c.result(id)["runId"];
  json first = c.notification(
      "hotlines/runOutput",
      [&](const json &p) { return p["runId"] == rid && p["stream"] == "stdout"; }, 20);
  ASSERT_FALSE(first.is_null());
  int pgid = std::stoi(first["text"].get<std::string>().substr(4));
  usleep(200000);
  c.close_input(); // no shutdown, no exit
  EXPECT_EQ(c.wait_exit(20), 1);
  EXPECT_FALSE(process_group_alive(pgid));
  client_.reset();
}

TEST_F(Runs, TerminationSignalKillsRunningRuns) {
  LspClient &c = start_server(dir_);
  int id =
      c.request("hotlines/run", {{"recipe", "command"},
                                 {"argv", {"sh", "-c", "echo pid=$$; sleep 300; echo {profile}"}}});
  std::string rid = c.result(id)["runId"];
  json first = c.notification(
      "hotlines/runOutput",
      [&](const json &p) { return p["runId"] == rid && p["stream"] == "stdout"; }, 20);
  ASSERT_FALSE(first.is_null());
  int pgid = std::stoi(first["text"].get<std::string>().substr(4));
  kill(c.pid(), SIGTERM); // what an editor does to a server that does not exit
  EXPECT_EQ(c.wait_exit(20), 128 + SIGTERM);
  EXPECT_FALSE(process_group_alive(pgid));
  client_.reset();
}

// The oracle's per-line [samples, ns] over every .cpuprofile of a run's folder (it reads the
// .scripts.json beside each one itself).
json cpuprofile_oracle(const fs::path &folder) {
  std::string cmd =
      "python3 " + std::string(HOTLINES_SOURCE_DIR) + "/tests/oracles/cpuprofile_lines.py";
  for (const auto &e : fs::directory_iterator(folder))
    if (e.path().extension() == ".cpuprofile") cmd += " " + e.path().string();
  int status = -1;
  std::string out = test::run_command(cmd, &status);
  EXPECT_EQ(status, 0) << out;
  return json::parse(out, nullptr, false);
}

// The hotlines/fileAnnotations of `source` in profile `profile_id`: every line's self samples
// and time must equal the oracle's; returns the line with the most self time (null if none).
// *compared: how many lines were compared.
json hottest_line_as_oracle(LspClient &c, const std::string &source, const json &profile_id,
                            const json &oracle, int64_t *compared) {
  json ann =
      c.result(c.request("hotlines/fileAnnotations", {{"textDocument", {{"uri", file_uri(source)}}},
                                                      {"profileId", profile_id}}));
  EXPECT_FALSE(ann["lines"].empty()) << ann.dump();
  json hottest;
  for (const json &l : ann["lines"]) {
    const std::string key = source + ":" + std::to_string(l["line"].get<int>());
    const json want = oracle["lines"].contains(key) ? oracle["lines"][key] : json{0, 0};
    EXPECT_EQ(l["self"]["count"], want[0]) << key;
    EXPECT_EQ(l["self"]["value"], want[1]) << key;
    ++*compared;
    if (hottest.is_null() || l["self"]["value"] > hottest["self"]["value"]) hottest = l;
  }
  return hottest;
}

// A node:test test of a TypeScript project, as its "Profile" lens runs it: the package's build
// (tsc, with source maps), then node --test with the test's name, --cpu-prof reaching the
// test file's process. The profile lands on the .ts lines, equal to the oracle's reading of
// the folder's .cpuprofile files.
TEST_F(Runs, NodeTestOfATypeScriptTest) {
  fs::path root = copy_node_shop();
  LspClient &c = start_server(root);
  json r = c.result(c.request("hotlines/testsInFile",
                              {{"textDocument", {{"uri", file_uri(root / "test/cart.test.ts")}}}}));
  EXPECT_EQ(r["language"], "javascript");
  ASSERT_EQ(r["tests"].size(), 3u) << r.dump();
  EXPECT_EQ(r["tests"][0]["kind"], "nodeTest");
  EXPECT_EQ(r["tests"][0]["name"], "total is stable");
  EXPECT_EQ(r["tests"][1]["name"], "receipt");
  EXPECT_EQ(r["tests"][2]["name"], "has a line per item");
  EXPECT_EQ(r["tests"][0]["range"],
            json::parse(R"({"start":{"line":5,"character":0},"end":{"line":9,"character":2}})"));
  EXPECT_EQ(r["tests"][0]["run"], (json{{"recipe", "node-test"},
                                        {"runner", "node"},
                                        {"test", "total is stable"},
                                        {"file", (root / "test/cart.test.ts").string()},
                                        {"cwd", root.string()}}));
  std::string id;
  json done = run(r["tests"][0]["run"], 300, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump() << output_of(id);
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  const fs::path folder = done["profilePath"].get<std::string>();
  EXPECT_TRUE(fs::is_directory(folder)) << folder;
  const std::string out = output_of(id);
  EXPECT_NE(out.find("$ npm run --silent build"), std::string::npos) << out;
  EXPECT_NE(out.find("--test-name-pattern=^total is stable$"), std::string::npos) << out;
  EXPECT_NE(out.find("# pass 1"), std::string::npos) << out;

  json oracle = cpuprofile_oracle(folder);
  const std::string pricing = (root / "src/pricing.ts").string();
  int64_t compared = 0;
  json hottest = hottest_line_as_oracle(c, pricing, done["profileId"], oracle, &compared);
  EXPECT_EQ(hottest["line"], 12) << hottest.dump(); // discount's loop body
  std::cout << "node-test 'total is stable': " << done["durationMs"] << " ms, pricing.ts:12 self "
            << hottest["self"].dump() << ", oracle " << oracle["lines"][pricing + ":12"].dump()
            << ", " << compared << " lines compared\n";

  // node-script on what the build compiled.
  done = run({{"recipe", "node-script"}, {"file", "dist/src/main.js"}, {"args", {"400000"}}}, 120,
             &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump() << output_of(id);
  std::vector<std::string> top = top_lines(done["profilePath"], 1);
  EXPECT_EQ(top, std::vector<std::string>{"pricing.ts:12"});

  // A name no test has.
  done = run({{"recipe", "node-test"}, {"test", "no such test"}}, 300, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump() << output_of(id);
}

// Jest, Vitest and Mocha tests of node-runners, as their "Profile" lenses run them: the
// project's own runner with the test's full name ("suite test"), the hotlines preload in
// NODE_OPTIONS. Jest (babel-jest) and Vitest (esbuild, TypeScript) run code transformed in
// memory, whose lines are not the file's (babel prints cart.js's WEIGHTS array on one line,
// esbuild drops pricing.ts's types): the profile lands on the lines as written only through
// the maps the preload recorded. Each run's lines equal the oracle's reading of its
// .cpuprofile files, the hot loop's line is first, and the other test of the file did not
// run (its loop has no sample).
//
// The runs are told to color (FORCE_COLOR, as CI=1 or a user's shell does): the runners'
// summaries are checked in the output as plain text, with no escape sequence left in it.
TEST_F(Runs, NodeTestOfJestVitestAndMochaTests) {
  auto colored = [](json run) {
    run["env"] = {{"FORCE_COLOR", "1"}};
    return run;
  };
  fs::path root = copy_node_fixture(
      "node-runners", {"package.json", "package-lock.json", "src", "jest", "vitest", "mocha"});
  LspClient &c = start_server(root);
  struct Case {
    const char *file, *runner, *name, *full, *source;
    int hot, cold;   // the tested loop's line; the other test's loop line
    const char *ran; // the runner's summary of one test run, one skipped
  };
  for (const Case &k : {
           Case{"jest/cart.test.js", "jest", "total of (many) rounds?",
                "cart total of (many) rounds?", "src/cart.js", 21, 35,
                "Tests:       1 skipped, 1 passed, 2 total"},
           Case{"vitest/pricing.test.ts", "vitest", "price of (many) items?",
                "pricing price of (many) items?", "src/pricing.ts", 17, 29,
                "Tests  1 passed | 1 skipped (2)"},
           Case{"mocha/tally.test.js", "mocha", "counts (many) votes?",
                "tally counts (many) votes?", "src/tally.js", 9, 19, "1 passing"},
       }) {
    SCOPED_TRACE(k.runner);
    json r = c.result(
        c.request("hotlines/testsInFile", {{"textDocument", {{"uri", file_uri(root / k.file)}}}}));
    ASSERT_EQ(r["tests"].size(), 3u) << r.dump();
    EXPECT_EQ(r["tests"][1]["name"], k.name);
    const json want = {{"recipe", "node-test"},
                       {"runner", k.runner},
                       {"test", k.full},
                       {"file", (root / k.file).string()},
                       {"cwd", root.string()}};
    EXPECT_EQ(r["tests"][1]["run"], want);
    std::string id;
    json done = run(colored(r["tests"][1]["run"]), 300, &id);
    ASSERT_FALSE(done.is_null());
    const std::string out = output_of(id);
    EXPECT_FALSE(done.contains("error")) << done.dump() << out;
    ASSERT_TRUE(done["profileId"].is_string()) << done.dump() << out;
    EXPECT_NE(out.find(std::string("runner: ") + k.runner + " (params.runner)"), std::string::npos)
        << out;
    EXPECT_NE(out.find(std::string("node_modules/.bin/") + k.runner), std::string::npos) << out;
    EXPECT_NE(out.find(k.ran), std::string::npos) << out;
    EXPECT_EQ(out.find('\x1B'), std::string::npos) << out;

    json oracle = cpuprofile_oracle(done["profilePath"].get<std::string>());
    const std::string source = (root / k.source).string();
    int64_t compared = 0;
    json hottest = hottest_line_as_oracle(c, source, done["profileId"], oracle, &compared);
    EXPECT_EQ(hottest["line"], k.hot) << hottest.dump();
    const json hot = oracle["lines"].value(source + ":" + std::to_string(k.hot), json{0, 0});
    EXPECT_GE(hot[0].get<int64_t>(), 50) << hot; // 600 ms of the loop, 1 ms samples
    EXPECT_FALSE(oracle["lines"].contains(source + ":" + std::to_string(k.cold)))
        << oracle["lines"].dump();
    std::cout << k.runner << " '" << k.full << "': " << done["durationMs"] << " ms, " << k.source
              << ":" << k.hot << " self " << hottest["self"].dump() << ", oracle " << hot.dump()
              << ", " << compared << " lines compared\n";
  }

  // The package's tests as a whole: `npm test` (vitest run vitest/) under the preload, which
  // reaches Vitest's forked worker through npm and Vitest; both tests of pricing.test.ts run.
  std::string id;
  json done = run(colored({{"recipe", "node-test"}}), 300, &id);
  ASSERT_FALSE(done.is_null());
  const std::string out = output_of(id);
  EXPECT_FALSE(done.contains("error")) << done.dump() << out;
  EXPECT_NE(out.find("runner: npm (no test file or name: the package's test script)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("$ npm test"), std::string::npos) << out;
  EXPECT_NE(out.find("Tests  2 passed (2)"), std::string::npos) << out;
  json oracle = cpuprofile_oracle(done["profilePath"].get<std::string>());
  const std::string pricing = (root / "src/pricing.ts").string();
  int64_t compared = 0;
  json hottest = hottest_line_as_oracle(c, pricing, done["profileId"], oracle, &compared);
  const json price = oracle["lines"].value(pricing + ":17", json{0, 0});
  const json rebate = oracle["lines"].value(pricing + ":29", json{0, 0});
  EXPECT_GE(price[0].get<int64_t>(), 50) << oracle["lines"].dump();
  EXPECT_GE(rebate[0].get<int64_t>(), 50) << oracle["lines"].dump();
  EXPECT_TRUE(hottest["line"] == 17 || hottest["line"] == 29) << hottest.dump();
  std::cout << "npm test: " << done["durationMs"] << " ms, pricing.ts:17 " << price.dump()
            << ", pricing.ts:29 " << rebate.dump() << ", " << compared << " lines compared\n";

  // A name no test has.
  done = run({{"recipe", "node-test"},
              {"runner", "mocha"},
              {"file", (root / "mocha/tally.test.js").string()},
              {"test", "tally nothing"}},
             300, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_EQ(done["error"]["kind"], "testNotFound") << done.dump() << output_of(id);
}

TEST_F(Runs, TestsInFile) {
  fs::path go = copy_go_shop();
  fs::path java = copy_java_shop(false);
  LspClient &c = start_server(dir_);
  json r = c.result(
      c.request("hotlines/testsInFile",
                {{"textDocument",
                  {{"uri", file_uri(java / "src/test/java/org/acme/shop/PricingTest.java")}}}}));
  EXPECT_EQ(r["language"], "java");
  ASSERT_EQ(r["tests"].size(), 2u);
  EXPECT_EQ(r["tests"][0]["name"], "org.acme.shop.PricingTest#discountIsFinite");
  EXPECT_EQ(r["tests"][0]["kind"], "junit");
  EXPECT_EQ(r["tests"][0]["range"],
            json::parse(R"({"start":{"line":7,"character":4},"end":{"line":15,"character":5}})"));
  EXPECT_EQ(r["tests"][0]["run"], (json{{"recipe", "java-test"},
                                        {"class", "org.acme.shop.PricingTest"},
                                        {"method", "discountIsFinite"},
                                        {"cwd", java.string()}}));
  EXPECT_EQ(r["mains"], json::array());
  // Main methods of any Java file, ready to run with java-main (which builds with Maven here).
  r = c.result(c.request(
      "hotlines/testsInFile",
      {{"textDocument", {{"uri", file_uri(java / "src/main/java/org/acme/shop/Main.java")}}}}));
  EXPECT_EQ(r["tests"], json::array());
  ASSERT_EQ(r["mains"].size(), 1u) << r.dump();
  EXPECT_EQ(r["mains"][0]["kind"], "javaMain");
  EXPECT_EQ(r["mains"][0]["name"], "org.acme.shop.Main");
  EXPECT_EQ(
      r["mains"][0]["run"],
      (json{{"recipe", "java-main"}, {"mainClass", "org.acme.shop.Main"}, {"cwd", java.string()}}));
  r = c.result(
      c.request("hotlines/testsInFile",
                {{"textDocument", {{"uri", file_uri(go / "internal/shop/shop_test.go")}}}}));
  EXPECT_EQ(r["language"], "go");
  EXPECT_EQ(r["mains"], json::array());
  ASSERT_EQ(r["tests"].size(), 2u);
  EXPECT_EQ(r["tests"][0]["name"], "TestWorkload");
  EXPECT_EQ(r["tests"][0]["selectionRange"],
            json::parse(R"({"start":{"line":4,"character":5},"end":{"line":4,"character":17}})"));
  EXPECT_EQ(r["tests"][0]["run"], (json{{"recipe", "go-test"},
                                        {"test", "TestWorkload"},
                                        {"cwd", go.string()},
                                        {"package", "./internal/shop"}}));
  // An open document's text counts, unsaved edits included.
  std::string test_uri = file_uri(go / "internal/shop/shop_test.go");
  c.notify("textDocument/didOpen",
           {{"textDocument",
             {{"uri", test_uri},
              {"languageId", "go"},
              {"version", 1},
              {"text", test::read_file((go / "internal/shop/shop_test.go").string()) +
                           "\nfunc BenchmarkSpin(b *testing.B) {\n\tfor i := 0; i < b.N; i++ "
                           "{\n\t\tSpin(1000)\n\t}\n}\n"}}}});
  r = c.result(c.request("hotlines/testsInFile", {{"textDocument", {{"uri", test_uri}}}}));
  ASSERT_EQ(r["tests"].size(), 3u) << r.dump();
  EXPECT_EQ(r["tests"][2]["kind"], "goBenchmark");
  EXPECT_EQ(r["tests"][2]["run"]["recipe"], "go-bench");
  EXPECT_EQ(r["tests"][2]["run"]["bench"], "BenchmarkSpin");
  EXPECT_EQ(r["tests"][2]["range"]["start"]["line"], 20);

  r = c.result(c.request("hotlines/testsInFile",
                         {{"textDocument", {{"uri", file_uri(go / "internal/shop/shop.go")}}}}));
  EXPECT_EQ(r["language"], "");
  EXPECT_EQ(r["tests"].size(), 0u);
  json missing = c.response(c.request("hotlines/testsInFile",
                                      {{"textDocument", {{"uri", file_uri(dir_ / "Nope.java")}}}}));
  EXPECT_EQ(missing["error"]["code"], -32803);
}

// The line of `file` with the most self samples in a loaded profile (1-based), or 0.
int64_t hottest_line(LspClient &c, const fs::path &file, const json &profile_id) {
  json ann =
      c.result(c.request("hotlines/fileAnnotations",
                         {{"textDocument", {{"uri", file_uri(file)}}}, {"profileId", profile_id}}));
  int64_t best = 0, line = 0;
  for (const json &l : ann["lines"])
    if (l["self"]["count"].get<int64_t>() > best) {
      best = l["self"]["count"];
      line = l["line"];
    }
  return line;
}

TEST_F(Runs, PerfCommandRecordsANativeProgram) {
  fs::path root = dir_ / "native-shop";
  fs::create_directories(root);
  fs::copy(test::fixture_path("native-shop/src"), root / "src", fs::copy_options::recursive);
  int status = -1;
  std::string out = test::run_command("cd '" + root.string() +
                                          "' && g++ -g -O1 -fno-omit-frame-pointer -pthread -o "
                                          "shop src/shop.cc 2>&1",
                                      &status);
  ASSERT_EQ(status, 0) << out;
  LspClient &c = start_server(root);
  std::string id;
  json done = run({{"recipe", "command"}, {"profiler", "perf"}, {"argv", {"./shop", "100000000"}}},
                  240, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump() << output_of(id);
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  EXPECT_TRUE(done["profilePath"].get<std::string>().ends_with(".perf.data"));
  std::string said = output_of(id);
  EXPECT_NE(said.find("hotlines: perf: " + (root / "shop").string() + " keeps frame pointers"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("$ perf record -e cpu-clock -g -o "), std::string::npos) << said;
  // Pricing::discount's loop, as in the recorded fixtures.
  EXPECT_EQ(hottest_line(c, root / "src/shop.cc", done["profileId"]), 17);
}

TEST_F(Runs, GTestLensRunsCTestUnderPerf) {
  fs::path root = dir_ / "native-shop";
  fs::create_directories(root);
  for (const char *part : {"src", "test", "CMakeLists.txt"})
    fs::copy(test::fixture_path(std::string("native-shop/") + part), root / part,
             fs::copy_options::recursive);
  int status = -1;
  std::string out = test::run_command("cd '" + root.string() +
                                          "' && cmake -S . -B build >/dev/null 2>&1 && cmake "
                                          "--build build --target pricing_test 2>&1",
                                      &status);
  ASSERT_EQ(status, 0) << out;
  LspClient &c = start_server(root);
  json r =
      c.result(c.request("hotlines/testsInFile",
                         {{"textDocument", {{"uri", file_uri(root / "test/pricing_test.cc")}}}}));
  EXPECT_EQ(r["language"], "cpp");
  ASSERT_EQ(r["tests"].size(), 3u) << r.dump();
  EXPECT_EQ(r["tests"][0]["kind"], "gtest");
  EXPECT_EQ(r["tests"][0]["name"], "Pricing.DiscountIsFinite");
  EXPECT_EQ(r["tests"][1]["name"], "PricingFixture.LabelsAreCounted");
  EXPECT_EQ(r["tests"][2]["name"], "Rates.AreFinite");
  EXPECT_EQ(
      r["tests"][0]["run"],
      (json{{"recipe", "gtest"}, {"test", "Pricing.DiscountIsFinite"}, {"cwd", root.string()}}));
  std::string id;
  json done = run(r["tests"][0]["run"], 300, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump() << output_of(id);
  ASSERT_TRUE(done["profileId"].is_string()) << done.dump();
  std::string said = output_of(id);
  EXPECT_NE(said.find("perf record --call-graph dwarf"), std::string::npos) << said;
  EXPECT_NE(said.find("ctest --test-dir " + (root / "build").string() +
                      " -R '^Pricing\\.DiscountIsFinite$'"),
            std::string::npos)
      << said;
  EXPECT_EQ(hottest_line(c, root / "test/pricing_test.cc", done["profileId"]), 13);

  // The TEST_P: ctest runs both instances, Some/Rates.AreFinite/2 and /3, by a regex that
  // matches the names gtest_discover_tests gave them.
  EXPECT_EQ(r["tests"][2]["run"],
            (json{{"recipe", "gtest"}, {"test", "*/Rates.AreFinite/*"}, {"cwd", root.string()}}));
  json param = run(r["tests"][2]["run"], 300, &id);
  ASSERT_FALSE(param.is_null());
  EXPECT_FALSE(param.contains("error")) << param.dump() << output_of(id);
  ASSERT_TRUE(param["profileId"].is_string()) << param.dump();
  said = output_of(id);
  EXPECT_NE(said.find("-R '^([^/]+/)?Rates\\.AreFinite/'"), std::string::npos) << said;
  EXPECT_NE(said.find("Some/Rates.AreFinite/2 "), std::string::npos) << said;
  EXPECT_NE(said.find("Some/Rates.AreFinite/3 "), std::string::npos) << said;
  EXPECT_EQ(hottest_line(c, root / "test/pricing_test.cc", param["profileId"]), 13);

  // A test that is not there: ctest finds none.
  json none = run({{"recipe", "gtest"}, {"test", "Pricing.Nope"}}, 120);
  EXPECT_EQ(none["error"]["kind"], "testNotFound") << none.dump();
}

// The demo: a "Profile" lens on one of hotlines' own unit tests, run in this build through
// ctest under perf (the lens's params plus this build folder and a scratch output folder).
TEST_F(Runs, GTestOfHotlinesItself) {
  const fs::path src = HOTLINES_SOURCE_DIR;
  LspClient &c = start_server(src);
  json r = c.result(
      c.request("hotlines/testsInFile",
                {{"textDocument",
                  {{"uri", file_uri(src / "tests/unit/formats/perf_script_reader_test.cc")}}}}));
  ASSERT_GE(r["tests"].size(), 1u) << r.dump();
  json params = r["tests"][0]["run"];
  EXPECT_EQ(params, (json{{"recipe", "gtest"},
                          {"test", "PerfScriptReader.CallchainsWithSourceLinesMatchPerfReport"},
                          {"cwd", src.string()}}));
  params["buildDir"] = HOTLINES_BUILD_DIR;
  params["outputDir"] = dir_.string();
  std::string id;
  json done = run(params, 240, &id);
  ASSERT_FALSE(done.is_null());
  EXPECT_FALSE(done.contains("error")) << done.dump() << output_of(id);
  EXPECT_TRUE(done["profileId"].is_string()) << done.dump();
  EXPECT_NE(output_of(id).find("100% tests passed, 0 tests failed out of 1"), std::string::npos)
      << output_of(id);
  json threads = c.result(c.request("hotlines/threads", {{"profileId", done["profileId"]}}));
  EXPECT_NE(threads.dump().find("perf_script_rea"), std::string::npos) // the test's comm
      << threads.dump();
}

} // namespace
} // namespace hotlines
