# Profiled runs with real toolchains (java, javac, jcmd, go, JUnit 4 and 5, Maven, Gradle): the
# real server driven over stdio. The Maven tests take 20-35 s each (java-test 35 s, java-main's
# three runs 20 s measured) and are labelled `slow` (the ASan pass skips them); Gradle's take
# 17 s (java-test) and 20 s (java-main).
add_executable(runs_test ${CMAKE_CURRENT_SOURCE_DIR}/runs/runs_test.cc)
target_link_libraries(runs_test PRIVATE engine protocol test_support)
add_dependencies(runs_test hotlines)
gtest_discover_tests(runs_test DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
  TEST_FILTER "-*Maven*" PROPERTIES TIMEOUT 600 LABELS "runs")
gtest_discover_tests(runs_test DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
  TEST_FILTER "*Maven*" PROPERTIES TIMEOUT 900 LABELS slow)
