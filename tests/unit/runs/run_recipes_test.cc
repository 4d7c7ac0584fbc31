// Recipes as argv builders, the diagnosis of finished runs, the jcmd -l parser and the
// run params parser: pure functions, no process is started here.
#include "protocol/run_types.h"
#include "server/runs/run_recipes.h"

#include <gtest/gtest.h>
#include <uv.h>

#include <set>

namespace hotlines {
namespace {

using Argv = std::vector<std::string>;

RecipeContext context(std::set<std::string> files = {}) {
  RecipeContext ctx;
  ctx.workspace_root = "/w";
  ctx.run_id = "r7";
  ctx.stamp = "20250101-120000";
  ctx.exists = [files](const std::string &f) { return files.count(f) > 0; };
  return ctx;
}

RunParams params(const json &j) {
  RunParams p;
  std::string err = parse_params(j, &p);
  EXPECT_EQ(err, "");
  return p;
}

RunPlan plan_of(const json &j, const RecipeContext &ctx = context()) {
  RunPlan plan;
  std::string err = build_run_plan(params(j), ctx, &plan);
  EXPECT_EQ(err, "");
  return plan;
}

std::string plan_error(const json &j, const RecipeContext &ctx = context()) {
  RunPlan plan;
  RunParams p;
  std::string err = parse_params(j, &p);
  if (!err.empty()) return err;
  return build_run_plan(p, ctx, &plan);
}

const Argv kJfr = {"-XX:StartFlightRecording=filename=/w/.hotlines/"
                   "org.acme.PricingTest.discountIsFinite-20250101-120000-r7.jfr,settings=profile,"
                   "dumponexit=true",
                   "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints"};

TEST(RunRecipes, GoTestCpu) {
  RunPlan plan = plan_of({{"recipe", "go-test"},
                          {"cwd", "/w/go-shop"},
                          {"package", "./internal/shop"},
                          {"test", "TestWorkload"}});
  EXPECT_EQ(plan.cwd, "/w/go-shop");
  EXPECT_EQ(plan.output_dir, "/w/.hotlines");
  EXPECT_TRUE(plan.default_output_dir);
  EXPECT_EQ(plan.profile_path, "/w/.hotlines/TestWorkload-cpu-20250101-120000-r7.pprof");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].argv,
            (Argv{"go", "test", "-count=1", "-run", "^TestWorkload$", "-cpuprofile",
                  plan.profile_path, "-o", "/w/.hotlines/r7.test", "./internal/shop"}));
  EXPECT_EQ(plan.remove_after, Argv{"/w/.hotlines/r7.test"});
  EXPECT_EQ(plan.format, "pprof");
}

TEST(RunRecipes, GoProfilesSubtestsAndBench) {
  RunPlan mutex = plan_of({{"recipe", "go-test"}, {"test", "TestX/case_1"}, {"profile", "mutex"}});
  EXPECT_EQ(mutex.cwd, "/w");
  EXPECT_EQ(mutex.steps[0].argv[4], "^TestX$/^case_1$");
  EXPECT_EQ(mutex.steps[0].argv[5], "-mutexprofile");
  RunPlan bench = plan_of({{"recipe", "go-bench"},
                           {"bench", "BenchmarkSpin"},
                           {"profile", "mem"},
                           {"goArgs", {"-benchtime=2x"}},
                           {"package", "./x"}});
  EXPECT_EQ(bench.steps[0].argv, (Argv{"go", "test", "-count=1", "-run", "^$", "-bench",
                                       "^BenchmarkSpin$", "-memprofile", bench.profile_path, "-o",
                                       "/w/.hotlines/r7.test", "-benchtime=2x", "./x"}));
  EXPECT_EQ(plan_error({{"recipe", "go-test"}, {"test", "Test X"}}),
            "params.test is not a Go test name: 'Test X'");
  EXPECT_EQ(plan_error({{"recipe", "go-test"}, {"package", "-exec=evil"}}),
            "params.package must be a package path such as ./internal/shop");
  EXPECT_EQ(plan_error({{"recipe", "go-test"}, {"profile", "heap"}}),
            "params.profile must be one of cpu, mem, block, mutex (got 'heap')");
}

TEST(RunRecipes, JavaTestClasspathJUnit4) {
  json params = {{"recipe", "java-test"},
                 {"cwd", "shop"},
                 {"class", "org.acme.PricingTest"},
                 {"method", "discountIsFinite"},
                 {"classpath", "classes:/usr/share/java/junit4.jar"},
                 {"jvmArgs", {"-Xmx256m"}}};
  RunPlan plan = plan_of(params);
  EXPECT_EQ(plan.cwd, "/w/shop");
  EXPECT_EQ(plan.label, "org.acme.PricingTest#discountIsFinite");
  // First the launcher is compiled (once per output folder), then the test runs.
  ASSERT_EQ(plan.steps.size(), 2u);
  ASSERT_EQ(plan.files.size(), 1u);
  std::string dir = plan.files[0].path.substr(0, plan.files[0].path.rfind('/'));
  EXPECT_EQ(dir.rfind("/w/.hotlines/junit4-launcher-", 0), 0u) << dir;
  EXPECT_NE(plan.files[0].content.find("JUnitCore"), std::string::npos);
  EXPECT_EQ(plan.steps[0].argv,
            (Argv{"javac", "-d", dir, "-cp", "/w/shop/classes:/usr/share/java/junit4.jar",
                  dir + "/HotlinesJUnit4.java"}));
  Argv want = {"java"};
  want.insert(want.end(), kJfr.begin(), kJfr.end());
  want.insert(want.end(), {"-Xmx256m", "-cp", dir + ":/w/shop/classes:/usr/share/java/junit4.jar",
                           "HotlinesJUnit4", "org.acme.PricingTest", "discountIsFinite"});
  EXPECT_EQ(plan.steps[1].argv, want);
  EXPECT_TRUE(plan.remove_after.empty());

  // Compiled already: only the test runs.
  RunPlan again = plan_of(params, context({dir + "/HotlinesJUnit4.class"}));
  ASSERT_EQ(again.steps.size(), 1u);
  EXPECT_EQ(again.steps[0].argv, want);
  EXPECT_TRUE(again.files.empty());
}

TEST(RunRecipes, JavaTestJUnit5ConsoleAndAsyncProfiler) {
  RunPlan plan =
      plan_of({{"recipe", "java-test"},
               {"class", "a.BTest"},
               {"method", "check(int)"},
               {"classpath", {"/cp/classes", "/jars/junit-platform-console-standalone-1.9.1.jar"}},
               {"env", {{"JAVA_HOME", "/jdk"}}},
               {"asyncProfiler", {{"path", "/ap/libasyncProfiler.so"}, {"event", "wall"}}}});
  EXPECT_EQ(plan.steps[0].argv,
            (Argv{"/jdk/bin/java",
                  "-agentpath:/ap/libasyncProfiler.so=start,event=wall,file=" + plan.profile_path +
                      ",jfr",
                  "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints", "-jar",
                  "/jars/junit-platform-console-standalone-1.9.1.jar", "--disable-banner",
                  "--disable-ansi-colors", "--details=tree", "--fail-if-no-tests", "--class-path",
                  "/cp/classes", "--select-method", "a.BTest#check(int)"}));
  EXPECT_EQ(
      plan_error(
          {{"recipe", "java-test"}, {"class", "a.B"}, {"classpath", "x"}, {"runner", "junit5"}}),
      "the JUnit 5 runner needs params.junitConsole (junit-platform-console-standalone.jar)");
}

TEST(RunRecipes, JavaTestMavenAndGradleDetection) {
  RecipeContext maven = context({"/w/pom.xml"});
  RunPlan plan = plan_of({{"recipe", "java-test"},
                          {"class", "org.acme.PricingTest"},
                          {"method", "discountIsFinite"},
                          {"buildArgs", {"-o"}}},
                         maven);
  std::string arg_line = "-DargLine=" + kJfr[0] + " " + kJfr[1] + " " + kJfr[2];
  EXPECT_EQ(
      plan.steps[0].argv,
      (Argv{"mvn", "-B", "test", "-Dtest=org.acme.PricingTest#discountIsFinite", arg_line, "-o"}));
  EXPECT_TRUE(plan.files.empty());

  RecipeContext gradle = context({"/w/build.gradle.kts", "/w/gradlew"});
  RunPlan g = plan_of({{"recipe", "java-test"},
                       {"class", "org.acme.PricingTest"},
                       {"method", "discountIsFinite"},
                       {"outputDir", "/tmp/o'ut"}},
                      gradle);
  EXPECT_FALSE(g.default_output_dir);
  EXPECT_EQ(g.steps[0].argv,
            (Argv{"/w/gradlew", "test", "--tests", "org.acme.PricingTest.discountIsFinite",
                  "--init-script", "/tmp/o'ut/r7-init.gradle", "--no-daemon", "--console=plain"}));
  ASSERT_EQ(g.files.size(), 1u);
  EXPECT_NE(g.files[0].content.find("tasks.withType(Test) {"), std::string::npos);
  EXPECT_NE(g.files[0].content.find("'-XX:StartFlightRecording=filename=/tmp/o\\'ut/"),
            std::string::npos)
      << g.files[0].content;

  EXPECT_EQ(plan_error({{"recipe", "java-test"}, {"class", "a.B"}}),
            "java-test: no pom.xml or build.gradle in /w; give params.classpath (a plain "
            "classpath build) or params.cwd");
  EXPECT_EQ(plan_error({{"recipe", "java-test"}, {"class", "a.B; rm"}, {"classpath", "x"}}),
            "params.class is not a Java class name: 'a.B; rm'");
  EXPECT_EQ(plan_error({{"recipe", "java-test"},
                        {"class", "a.B"},
                        {"classpath", "x"},
                        {"outputDir", "/tmp/a,b"}}),
            "the profile path must not contain ',' (it goes into a JVM option): "
            "/tmp/a,b/a.B-20250101-120000-r7.jfr");
}

TEST(RunRecipes, JavaMainCommandAttach) {
  RunPlan main = plan_of({{"recipe", "java-main"},
                          {"mainClass", "org.acme.shop.Main"},
                          {"classpath", {"classes"}},
                          {"args", {"3"}}});
  EXPECT_EQ(main.steps[0].argv.back(), "3");
  EXPECT_EQ(main.steps[0].argv[main.steps[0].argv.size() - 2], "org.acme.shop.Main");
  EXPECT_EQ(main.steps[0].argv[main.steps[0].argv.size() - 3], "/w/classes");
  EXPECT_EQ(plan_error({{"recipe", "java-main"}}),
            "java-main needs exactly one of params.mainClass and params.jar");

  RunPlan cmd = plan_of({{"recipe", "command"},
                         {"argv", {"/bin/prof", "--out={profile}", "x; rm -rf /"}},
                         {"format", "collapsed"}});
  EXPECT_EQ(cmd.profile_path, "/w/.hotlines/prof-20250101-120000-r7.collapsed");
  EXPECT_EQ(cmd.steps[0].argv, (Argv{"/bin/prof", "--out=" + cmd.profile_path, "x; rm -rf /"}));
  EXPECT_EQ(plan_error({{"recipe", "command"}, {"argv", {"true"}}}),
            "params.argv must contain {profile} where the command is told to write its profile");

  RunPlan attach = plan_of({{"recipe", "attach-jvm"}, {"pid", 4242}, {"durationMs", 3000}});
  ASSERT_EQ(attach.steps.size(), 3u);
  EXPECT_EQ(attach.steps[0].argv,
            (Argv{"jcmd", "4242", "JFR.start", "name=hotlines-r7", "settings=profile"}));
  EXPECT_EQ(attach.steps[1].argv, (Argv{"jcmd", "4242", "JFR.dump", "name=hotlines-r7",
                                        "filename=" + attach.profile_path}));
  EXPECT_EQ(attach.steps[1].delay_ms, 3000);
  EXPECT_EQ(attach.steps[2].argv, (Argv{"jcmd", "4242", "JFR.stop", "name=hotlines-r7"}));
  EXPECT_TRUE(attach.steps[2].cleanup);
  EXPECT_FALSE(attach.steps[1].cleanup);
}

TEST(RunRecipes, JavaMainBuildsFirst) {
  const std::string profile = "/w/.hotlines/org.acme.shop.Main-20250101-120000-r7.jfr";
  const Argv jfr = {"-XX:StartFlightRecording=filename=" + profile +
                        ",settings=profile,dumponexit=true",
                    "-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints"};
  auto java = [&](Argv tail) {
    Argv argv = {"java"};
    argv.insert(argv.end(), jfr.begin(), jfr.end());
    argv.insert(argv.end(), tail.begin(), tail.end());
    return argv;
  };
  json main = {{"recipe", "java-main"},
               {"cwd", "/w/shop"},
               {"mainClass", "org.acme.shop.Main"},
               {"args", {"1"}}};

  // auto + pom.xml: mvn compile, then java with target/classes.
  RunPlan maven = plan_of(main, context({"/w/shop/pom.xml"}));
  ASSERT_EQ(maven.steps.size(), 2u);
  EXPECT_EQ(maven.steps[0].argv, (Argv{"mvn", "-B", "compile"}));
  EXPECT_TRUE(maven.steps[0].build);
  EXPECT_EQ(maven.steps[1].argv,
            java({"-cp", "/w/shop/target/classes", "org.acme.shop.Main", "1"}));
  EXPECT_FALSE(maven.steps[1].build);
  EXPECT_EQ(maven.label, "org.acme.shop.Main");
  EXPECT_EQ(maven.profile_path, profile);

  // Explicit maven with the wrapper, buildArgs, and dependencies on params.classpath.
  json m = main;
  m["build"] = "maven";
  m["buildArgs"] = {"-s", "settings.xml", "-o"};
  m["classpath"] = {"lib/gson.jar"};
  m["jvmArgs"] = {"-Xmx64m"};
  RunPlan wrapped = plan_of(m, context({"/w/shop/mvnw"}));
  ASSERT_EQ(wrapped.steps.size(), 2u);
  EXPECT_EQ(wrapped.steps[0].argv,
            (Argv{"/w/shop/mvnw", "-B", "compile", "-s", "settings.xml", "-o"}));
  EXPECT_EQ(wrapped.steps[1].argv,
            java({"-Xmx64m", "-cp", "/w/shop/target/classes:/w/shop/lib/gson.jar",
                  "org.acme.shop.Main", "1"}));
  m["maven"] = "/opt/mvn/bin/mvn";
  EXPECT_EQ(plan_of(m, context({"/w/shop/mvnw"})).steps[0].argv[0], "/opt/mvn/bin/mvn");

  // auto + build.gradle[.kts] / settings.gradle[.kts]: gradle classes.
  for (const char *f :
       {"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"}) {
    RunPlan gradle = plan_of(main, context({std::string("/w/shop/") + f}));
    ASSERT_EQ(gradle.steps.size(), 2u) << f;
    EXPECT_EQ(gradle.steps[0].argv, (Argv{"gradle", "classes", "--no-daemon", "--console=plain"}));
    EXPECT_TRUE(gradle.steps[0].build);
    EXPECT_EQ(gradle.steps[1].argv,
              java({"-cp", "/w/shop/build/classes/java/main:/w/shop/build/resources/main",
                    "org.acme.shop.Main", "1"}));
  }
  json g = main;
  g["build"] = "gradle";
  g["buildArgs"] = {"--offline"};
  g["classpath"] = "/l/a.jar:b.jar";
  RunPlan gradlew = plan_of(g, context({"/w/shop/gradlew", "/w/shop/pom.xml"}));
  EXPECT_EQ(gradlew.steps[0].argv,
            (Argv{"/w/shop/gradlew", "classes", "--no-daemon", "--console=plain", "--offline"}));
  EXPECT_EQ(gradlew.steps[1].argv,
            java({"-cp",
                  "/w/shop/build/classes/java/main:/w/shop/build/resources/main:/l/a.jar:/w/shop/"
                  "b.jar",
                  "org.acme.shop.Main", "1"}));
  g["gradle"] = "/opt/gradle";
  EXPECT_EQ(plan_of(g).steps[0].argv[0], "/opt/gradle");

  // auto is none with a classpath or jar, or without a build file: java only, as before.
  json cp = main;
  cp["classpath"] = {"classes"};
  RunPlan plain = plan_of(cp, context({"/w/shop/pom.xml"}));
  ASSERT_EQ(plain.steps.size(), 1u);
  EXPECT_EQ(plain.steps[0].argv, java({"-cp", "/w/shop/classes", "org.acme.shop.Main", "1"}));
  RunPlan bare = plan_of(main);
  ASSERT_EQ(bare.steps.size(), 1u);
  EXPECT_EQ(bare.steps[0].argv, java({"org.acme.shop.Main", "1"}));
  json none = main;
  none["build"] = "none";
  EXPECT_EQ(plan_of(none, context({"/w/shop/pom.xml"})).steps[0].argv,
            java({"org.acme.shop.Main", "1"}));
  RunPlan jar = plan_of({{"recipe", "java-main"}, {"cwd", "/w/shop"}, {"jar", "app.jar"}},
                        context({"/w/shop/pom.xml"}));
  ASSERT_EQ(jar.steps.size(), 1u);
  EXPECT_EQ(jar.steps[0].argv.back(), "/w/shop/app.jar");

  EXPECT_EQ(plan_error({{"recipe", "java-main"}, {"jar", "a.jar"}, {"build", "maven"}}),
            "params.jar runs as it is: java-main with a jar takes build 'auto' or 'none'");
  EXPECT_EQ(plan_error({{"recipe", "java-main"}, {"mainClass", "a.B"}, {"build", "classpath"}}),
            "params.build 'classpath' is for java-test; java-main takes auto, maven, gradle or "
            "none");
  EXPECT_EQ(plan_error({{"recipe", "java-test"}, {"class", "a.BTest"}, {"build", "none"}}),
            "params.build 'none' is for java-main; java-test takes auto, maven, gradle or "
            "classpath");
  EXPECT_EQ(plan_error({{"recipe", "java-main"}, {"mainClass", "a.B"}, {"build", "ant"}}),
            "params.build must be one of auto, maven, gradle, classpath, none (got 'ant')");
}

TEST(RunRecipes, NeedsACwd) {
  RecipeContext ctx = context();
  ctx.workspace_root = "";
  EXPECT_EQ(plan_error({{"recipe", "go-test"}}, ctx),
            "params.cwd is required: the client sent no workspace root");
  RunPlan plan = plan_of({{"recipe", "go-test"}, {"cwd", "/m"}}, ctx);
  EXPECT_EQ(plan.output_dir, "/m/.hotlines");
}

TEST(RunParams, Errors) {
  RunParams p;
  EXPECT_EQ(parse_params(json::object(), &p), "params.recipe is required");
  EXPECT_EQ(parse_params({{"recipe", "rust"}}, &p),
            "params.recipe must be one of java-test, java-main, go-test, go-bench, node-test, "
            "node-script, command, attach-jvm, gtest (got 'rust')");
  EXPECT_EQ(parse_params({{"recipe", "command"}, {"argv", "ls"}}, &p),
            "params.argv must be an array of strings");
  EXPECT_EQ(parse_params({{"recipe", "command"}, {"env", {{"A", 1}}}}, &p),
            "params.env.A must be a string");
  EXPECT_EQ(parse_params({{"recipe", "go-test"}, {"timeoutMs", -1}}, &p),
            "params.timeoutMs must be between 0 and 1099511627776");
}

RunPlan family(RunFamily f, std::string label = "X") {
  RunPlan plan;
  plan.family = f;
  plan.label = std::move(label);
  plan.profile_path = "/o/p.jfr";
  return plan;
}

RunOutcome exited(int code, std::string output) {
  RunOutcome o;
  o.exit_code = code;
  o.output = std::move(output);
  return o;
}

std::string kind_of(const std::optional<RunError> &e) {
  return e ? e->kind : "ok";
}

TEST(RunDiagnosis, Kinds) {
  RunOutcome missing;
  missing.spawn_error = UV_ENOENT;
  missing.spawn_file = "go";
  auto e = diagnose_run(family(RunFamily::go_test), missing, false);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, "toolNotFound");
  EXPECT_EQ(e->message,
            "'go' was not found (install golang-go, or set params.go or PATH in params.env)");

  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::go_test),
                                 exited(0, "testing: warning: no tests to run\nPASS\n"), true)),
            "testNotFound");
  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::go_test),
                                 exited(1, "# x\n./a.go:3: undefined: y\nFAIL\tx [build failed]\n"),
                                 false)),
            "buildFailed");
  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::go_test),
                                 exited(2, "panic: boom\n\ngoroutine 6 [running]:\n"), true)),
            "crashed");
  EXPECT_EQ(
      kind_of(diagnose_run(family(RunFamily::go_bench), exited(0, "PASS\nok x 0.1s\n"), true)),
      "testNotFound");
  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::go_bench),
                                 exited(0, "BenchmarkX-2  10  5 ns/op\nPASS\n"), true)),
            "ok");
  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::maven),
                                 exited(1, "[ERROR] COMPILATION ERROR :\n[INFO] BUILD FAILURE\n"),
                                 false)),
            "buildFailed");
  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::maven),
                                 exited(1, "[ERROR] Failed to execute goal …: No tests were "
                                           "executed!  (Set -DfailIfNoTests=false …)\n"),
                                 true)),
            "testNotFound");
  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::junit4),
                                 exited(3, "hotlines: no test named nope in a.B\n"), true)),
            "testNotFound");
  EXPECT_EQ(
      kind_of(diagnose_run(family(RunFamily::java),
                           exited(1, "Error: Could not find or load main class a.Main\n"), false)),
      "testNotFound");
  // A failing test that wrote its profile still loads; exit code and output tell.
  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::junit4), exited(1, "FAILURES!!!\n"), true)),
            "ok");
  EXPECT_EQ(kind_of(diagnose_run(family(RunFamily::command), exited(0, ""), false)), "noProfile");
  RunOutcome killed;
  killed.signal = SIGSEGV;
  e = diagnose_run(family(RunFamily::command, "prof"), killed, true);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, "crashed");
  EXPECT_EQ(e->message, "prof was killed by SIGSEGV");
  RunOutcome t = exited(0, "a\nb\nc\n");
  t.timed_out = true;
  t.duration_ms = 500;
  e = diagnose_run(family(RunFamily::command, "sleep"), t, true);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, "timeout");
  EXPECT_EQ(e->message, "the run of sleep timed out after 500 ms and was stopped");
  EXPECT_EQ(e->output, "a\nb\nc");
  // Terminal escapes are dropped from the output of an error.
  e = diagnose_run(family(RunFamily::maven),
                   exited(1, "\x1b[0m\x1b[1;31m[ERROR] COMPILATION ERROR\x1b[m\n"), false);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->output, "[ERROR] COMPILATION ERROR");
}

TEST(RunDiagnosis, BuildStepFailed) {
  RunPlan plan = family(RunFamily::java, "org.acme.shop.Main");
  plan.steps = {{{"mvn", "-B", "compile"}, 0, false, true}, {{"java", "org.acme.shop.Main"}}};
  RunOutcome o = exited(1, "[ERROR] COMPILATION ERROR :\n[INFO] BUILD FAILURE\n");
  o.failed_step = 0;
  auto e = diagnose_run(plan, o, false);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, "buildFailed");
  EXPECT_EQ(e->message, "the project did not compile (mvn exited with code 1); "
                        "org.acme.shop.Main did not start");
  // Gradle, failing for another reason than the compiler.
  plan.steps[0].argv = {"/w/gradlew", "classes"};
  o = exited(1, "FAILURE: Build failed with an exception.\n* What went wrong:\nTask 'x' not "
                "found\nBUILD FAILED in 1s\n");
  o.failed_step = 0;
  e = diagnose_run(plan, o, false);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, "buildFailed");
  EXPECT_EQ(e->message, "the build failed (gradlew exited with code 1); org.acme.shop.Main did "
                        "not start");
  // The program failed after a good build: a missing main class is still testNotFound.
  o = exited(1, "[INFO] BUILD SUCCESS\nError: Could not find or load main class a.Nope\n");
  o.failed_step = 1;
  EXPECT_EQ(kind_of(diagnose_run(plan, o, false)), "testNotFound");
  // A build killed by a signal crashed.
  o = RunOutcome();
  o.signal = SIGKILL;
  o.failed_step = 0;
  EXPECT_EQ(kind_of(diagnose_run(plan, o, false)), "crashed");
}

TEST(RunDiagnosis, LastLines) {
  EXPECT_EQ(last_lines("1\n2\n3\n4\n", 2), "3\n4");
  EXPECT_EQ(last_lines("1\n2", 5), "1\n2");
  EXPECT_EQ(last_lines("", 3), "");
}

TEST(JcmdList, Parses) {
  auto jvms = parse_jcmd_list("4242 org.acme.shop.Main 30\n"
                              "77 jdk.jcmd/sun.tools.jcmd.JCmd -l\n"
                              "99 /tmp/app.jar\n"
                              "garbage\n");
  ASSERT_EQ(jvms.size(), 2u);
  EXPECT_EQ(jvms[0].pid, 4242);
  EXPECT_EQ(jvms[0].main_class, "org.acme.shop.Main");
  EXPECT_EQ(jvms[0].args, "30");
  EXPECT_EQ(jvms[1].pid, 99);
  EXPECT_EQ(jvms[1].main_class, "/tmp/app.jar");
  EXPECT_EQ(jvms[1].args, "");
}

// perf runs: a context whose programs keep frame pointers or not.
RecipeContext perf_context(FramePointers fp, std::set<std::string> files = {}) {
  RecipeContext ctx = context(std::move(files));
  ctx.path_env = "/usr/local/bin:/usr/bin";
  ctx.frame_pointers = [fp](const std::string &, std::string *why) {
    *why = "3 of 4 functions set up a frame pointer";
    return fp;
  };
  return ctx;
}

TEST(RunRecipes, CommandUnderPerfWithFramePointers) {
  RunPlan plan = plan_of({{"recipe", "command"},
                          {"profiler", "perf"},
                          {"argv", {"./build/shop", "1000"}},
                          {"cwd", "/w/native"}},
                         perf_context(FramePointers::yes));
  EXPECT_EQ(plan.profile_path, "/w/.hotlines/shop-20250101-120000-r7.perf.data");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].argv, (Argv{"perf", "record", "-e", "cpu-clock", "-g", "-o",
                                      plan.profile_path, "--", "./build/shop", "1000"}));
  EXPECT_EQ(plan.notes, (Argv{"perf: /w/native/build/shop keeps frame pointers (3 of 4 "
                              "functions set up a frame pointer): perf record -g"}));
  EXPECT_EQ(plan.format, "");
}

TEST(RunRecipes, CommandUnderPerfWithoutFramePointersUsesDwarf) {
  RunPlan plan = plan_of({{"recipe", "command"},
                          {"profiler", "perf"},
                          {"argv", {"shop"}},
                          {"perfArgs", {"-F", "999"}},
                          {"perf", "/opt/perf"}},
                         perf_context(FramePointers::no, {"/usr/bin/shop"}));
  EXPECT_EQ(plan.steps[0].argv,
            (Argv{"/opt/perf", "record", "-e", "cpu-clock", "--call-graph", "dwarf", "-o",
                  plan.profile_path, "-F", "999", "--", "shop"}));
  EXPECT_EQ(plan.notes, (Argv{"perf: /usr/bin/shop has no frame pointers (3 of 4 functions set "
                              "up a frame pointer): perf record --call-graph dwarf"}));
  RunPlan forced = plan_of(
      {{"recipe", "command"}, {"profiler", "perf"}, {"argv", {"shop"}}, {"callGraph", "fp"}},
      perf_context(FramePointers::no));
  EXPECT_EQ(forced.steps[0].argv[4], "-g");
  EXPECT_EQ(forced.notes, (Argv{"perf: params.callGraph is fp: perf record -g"}));
  // DWARF without a rate of perfArgs' own: 999 Hz, not perf's 4000.
  RunPlan dwarf = plan_of({{"recipe", "command"},
                           {"profiler", "perf"},
                           {"argv", {"shop"}},
                           {"perfArgs", {"--call-graph", "dwarf,16384"}}},
                          perf_context(FramePointers::no));
  EXPECT_EQ(dwarf.steps[0].argv,
            (Argv{"perf", "record", "-e", "cpu-clock", "--call-graph", "dwarf", "-F", "999", "-o",
                  dwarf.profile_path, "--call-graph", "dwarf,16384", "--", "shop"}));
  EXPECT_EQ(plan_error({{"recipe", "command"}, {"profiler", "perf"}, {"argv", {"x", "{profile}"}}}),
            "params.argv: with profiler 'perf' the profile is perf's; {profile} has no place");
  EXPECT_EQ(plan_error({{"recipe", "command"}, {"profiler", "yourkit"}, {"argv", {"x"}}}),
            "params.profiler must be one of perf (got 'yourkit')");
}

TEST(RunRecipes, GTestBinaryAndCTest) {
  RunPlan bin = plan_of({{"recipe", "gtest"},
                         {"test", "Pricing.DiscountIsFinite"},
                         {"binary", "build/pricing_test"},
                         {"cwd", "/w/native"}},
                        perf_context(FramePointers::yes));
  EXPECT_EQ(bin.family, RunFamily::gtest);
  EXPECT_EQ(bin.label, "Pricing.DiscountIsFinite");
  EXPECT_EQ(bin.profile_path, "/w/.hotlines/Pricing.DiscountIsFinite-20250101-120000-r7.perf.data");
  EXPECT_EQ(bin.steps[0].argv,
            (Argv{"perf", "record", "-e", "cpu-clock", "-g", "-o", bin.profile_path, "--",
                  "/w/native/build/pricing_test", "--gtest_filter=Pricing.DiscountIsFinite"}));

  RunPlan ctest = plan_of({{"recipe", "gtest"}, {"test", "PricingFixture.LabelsAreCounted"}},
                          perf_context(FramePointers::yes, {"/w/build/CTestTestfile.cmake"}));
  EXPECT_EQ(ctest.steps[0].argv,
            (Argv{"perf", "record", "-e", "cpu-clock", "--call-graph", "dwarf", "-F", "999", "-o",
                  ctest.profile_path, "--", "ctest", "--test-dir", "/w/build", "-R",
                  "^PricingFixture\\.LabelsAreCounted$", "--output-on-failure"}));
  EXPECT_EQ(ctest.notes,
            (Argv{"perf: no frame pointers to rely on (the program that will run is not known "
                  "in advance): perf record --call-graph dwarf"}));

  EXPECT_EQ(plan_error({{"recipe", "gtest"}, {"test", "Pricing.DiscountIsFinite"}}),
            "gtest: no params.binary and no CMake build with tests in /w/build (no "
            "CTestTestfile.cmake); build the project, or give params.binary or params.buildDir");
  EXPECT_EQ(plan_error({{"recipe", "gtest"}, {"test", "Pricing"}}),
            "params.test is not a GoogleTest name Suite.Name (or */Suite.Name/*, Suite/*.Name, "
            "*/Suite/*.Name): 'Pricing'");
  EXPECT_EQ(plan_error({{"recipe", "gtest"}, {"test", "*/Pricing.Rates"}}),
            "params.test is not a GoogleTest name Suite.Name (or */Suite.Name/*, Suite/*.Name, "
            "*/Suite/*.Name): '*/Pricing.Rates'");
  // TEST_P, TYPED_TEST and TYPED_TEST_P: ctest -R by the names gtest_discover_tests gives them.
  auto ctest_regex = [&](const std::string &test) {
    RunPlan plan = plan_of({{"recipe", "gtest"}, {"test", test}},
                           perf_context(FramePointers::yes, {"/w/build/CTestTestfile.cmake"}));
    return plan.steps.empty() ? std::string() : plan.steps[0].argv.at(15);
  };
  EXPECT_EQ(ctest_regex("*/Rates.AreFinite/*"), "^([^/]+/)?Rates\\.AreFinite/");
  EXPECT_EQ(ctest_regex("Sizes/*.AreCounted"), "^Sizes\\.AreCounted<");
  EXPECT_EQ(ctest_regex("*/Sizes/*.AreCounted"), "^[^.]+\\.AreCounted<");
  EXPECT_EQ(plan_error({{"recipe", "gtest"}}), "params.test (Suite.Name) is required for gtest");
}

TEST(RunDiagnosis, GTest) {
  RunPlan plan = family(RunFamily::gtest, "Pricing.Nope");
  EXPECT_EQ(kind_of(diagnose_run(plan, exited(8, "No tests were found!!!\n"), true)),
            "testNotFound");
  EXPECT_EQ(
      kind_of(diagnose_run(
          plan, exited(0, "[==========] 0 tests from 0 test suites ran. (0 ms total)\n"), true)),
      "testNotFound");
  EXPECT_EQ(kind_of(diagnose_run(plan, exited(0, "[  PASSED  ] 1 test.\n"), true)), "ok");
  EXPECT_EQ(kind_of(diagnose_run(
                plan,
                exited(255, "Error:\nAccess to performance monitoring and observability "
                            "operations is limited.\nperf_event_paranoid setting is 4\n"),
                false)),
            "spawnFailed");
}

} // namespace
} // namespace hotlines

namespace hotlines {

TEST(RunRecipes, NodeTestRunsTheBuildThenNodeTestWithCpuProf) {
  RunParams p;
  p.recipe = "node-test";
  p.test = "total (is) stable";
  p.file = "/w/shop/test/cart.test.ts";
  RecipeContext ctx;
  ctx.workspace_root = "/w/shop";
  ctx.run_id = "r1";
  ctx.stamp = "s";
  ctx.exists = [](const std::string &) { return false; };
  ctx.package_json = [](const std::string &) {
    PackageJson pkg;
    pkg.found = true;
    pkg.scripts = {{"build", "tsc -p ."}, {"test", "node --test dist/test/"}};
    return pkg;
  };
  RunPlan plan;
  ASSERT_EQ(build_run_plan(p, ctx, &plan), "");
  EXPECT_EQ(plan.profile_path, "/w/shop/.hotlines/total__is__stable-s-r1.cpuprofiles");
  ASSERT_EQ(plan.steps.size(), 2u);
  EXPECT_EQ(plan.steps[0].argv, (std::vector<std::string>{"npm", "run", "--silent", "build"}));
  EXPECT_TRUE(plan.steps[0].build);
  EXPECT_EQ(plan.unset_env, std::vector<std::string>{"NODE_TEST_CONTEXT"});
  EXPECT_EQ(plan.steps[1].argv,
            (std::vector<std::string>{"node", "--cpu-prof", "--cpu-prof-dir=" + plan.profile_path,
                                      "--test", "--test-name-pattern=^total \\(is\\) stable$"}));
  p.recipe = "node-script";
  p.file = "dist/src/main.js";
  p.args = {"800000"};
  RunPlan script;
  ASSERT_EQ(build_run_plan(p, ctx, &script), "");
  EXPECT_EQ(script.steps.back().argv.back(), "800000");
  p.file.clear();
  RunPlan none;
  EXPECT_NE(build_run_plan(p, ctx, &none), "");
}

// Jest, Vitest and Mocha run from the package's node_modules/.bin with the test's full name
// as an anchored pattern; the preload is written into the output folder and added to the
// NODE_OPTIONS the run would have had; no build step.
TEST(RunRecipes, NodeTestRunsJestVitestMochaWithThePreload) {
  RunParams p;
  p.recipe = "node-test";
  p.test = "cart total (of) 3?";
  p.file = "/w/shop/test/cart.test.js";
  p.env = {{"NODE_OPTIONS", "--max-old-space-size=512"}};
  RecipeContext ctx;
  ctx.workspace_root = "/w/shop/pkg";
  ctx.run_id = "r2";
  ctx.stamp = "s";
  ctx.exists = [](const std::string &f) { return f.rfind("/w/shop/node_modules/.bin/", 0) == 0; };
  ctx.package_json = [](const std::string &) {
    PackageJson pkg;
    pkg.scripts = {{"build", "tsc"}, {"test", "jest"}};
    pkg.dependencies = {"jest", "mocha"};
    return pkg;
  };
  ctx.read_source = [](const std::string &) { return std::string("test('x', () => {})"); };
  const std::string pattern = "^cart total \\(of\\) 3\\?( |$)";
  RunPlan jest;
  ASSERT_EQ(build_run_plan(p, ctx, &jest), "");
  ASSERT_EQ(jest.steps.size(), 1u);
  EXPECT_EQ(jest.steps[0].argv,
            (std::vector<std::string>{"node", "/w/shop/node_modules/.bin/jest", "--runTestsByPath",
                                      p.file, "--testNamePattern", pattern}));
  EXPECT_EQ(jest.notes, std::vector<std::string>{"runner: jest (package.json's test script "
                                                 "runs jest)"});
  ASSERT_EQ(jest.files.size(), 1u);
  EXPECT_EQ(jest.files[0].path, "/w/shop/pkg/.hotlines/r2-cpuprofile-preload.js");
  EXPECT_NE(jest.files[0].content.find("HOTLINES_CPUPROFILE_DIR"), std::string::npos);
  EXPECT_EQ(jest.remove_after, std::vector<std::string>{jest.files[0].path});
  EXPECT_EQ(
      jest.env["NODE_OPTIONS"],
      "--max-old-space-size=512 --require \"/w/shop/pkg/.hotlines/r2-cpuprofile-preload.js\"");
  EXPECT_EQ(jest.env["HOTLINES_CPUPROFILE_DIR"], jest.profile_path);

  p.runner = "vitest";
  RunPlan vitest;
  ASSERT_EQ(build_run_plan(p, ctx, &vitest), "");
  EXPECT_EQ(vitest.steps[0].argv,
            (std::vector<std::string>{"node", "/w/shop/node_modules/.bin/vitest", "run", p.file,
                                      "--testNamePattern", pattern}));
  EXPECT_EQ(vitest.notes, std::vector<std::string>{"runner: vitest (params.runner)"});
  p.runner = "mocha";
  p.env.clear();
  ctx.node_options = "--trace-warnings";
  RunPlan mocha;
  ASSERT_EQ(build_run_plan(p, ctx, &mocha), "");
  EXPECT_EQ(mocha.steps[0].argv,
            (std::vector<std::string>{"node", "/w/shop/node_modules/.bin/mocha", p.file, "--grep",
                                      pattern}));
  EXPECT_EQ(mocha.env["NODE_OPTIONS"].rfind("--trace-warnings --require \"", 0), 0u);

  // npm test: the package's build first, then its test script under the preload.
  p.runner = "auto";
  p.test.clear();
  p.file.clear();
  RunPlan npm;
  ASSERT_EQ(build_run_plan(p, ctx, &npm), "");
  ASSERT_EQ(npm.steps.size(), 2u);
  EXPECT_EQ(npm.steps[0].argv, (std::vector<std::string>{"npm", "run", "--silent", "build"}));
  EXPECT_EQ(npm.steps[1].argv, (std::vector<std::string>{"npm", "test"}));
  EXPECT_EQ(npm.notes, std::vector<std::string>{
                           "runner: npm (no test file or name: the package's test script)"});

  // Not installed; a Java runner name.
  p.runner = "vitest";
  p.file = "/w/shop/test/cart.test.js";
  ctx.exists = [](const std::string &) { return false; };
  RunPlan missing;
  EXPECT_EQ(build_run_plan(p, ctx, &missing),
            "vitest is not installed for /w/shop/pkg: no node_modules/.bin/vitest there or above "
            "(npm install it, or give params.runner)");
  p.runner = "junit4";
  RunPlan java;
  EXPECT_EQ(build_run_plan(p, ctx, &java),
            "params.runner for node-test must be one of auto, node, jest, vitest, mocha, npm "
            "(got 'junit4')");
}

} // namespace hotlines
