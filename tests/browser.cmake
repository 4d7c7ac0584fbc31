# Web view and real-browser tests (Node + Debian's chromium, see scripts/deps.sh test):
#  - web.*: npm ci in editors/web, strict TypeScript check, unit tests of the pure parts
#    (editors/web/test, node --test), and the committed bundle
#    editors/web/dist/view.js equals a fresh esbuild build of the sources (the binary embeds
#    the committed one, so a stale bundle would ship old code);
#  - browser.*: npm ci in tests/browser (playwright-core, speedscope), then in headless
#    chromium: the exported view (view), the view driven by an HTTP host (hosts), and the
#    speedscope export in the real speedscope app (speedscope), and a page's script profiled
#    through the DevTools protocol, read as the oracle reads it (devtools). Screenshots:
#    build/browser-artifacts.
find_program(NODE node)
find_program(NPM npm)
find_program(CHROMIUM NAMES chromium chromium-browser)
if(NODE AND NPM)
  set(WEB_DIR ${CMAKE_SOURCE_DIR}/editors/web)
  add_test(NAME web.npm_ci COMMAND ${NPM} ci --no-audit --no-fund --prefer-offline
    WORKING_DIRECTORY ${WEB_DIR})
  set_tests_properties(web.npm_ci PROPERTIES FIXTURES_SETUP web_deps TIMEOUT 300 LABELS web)
  add_test(NAME web.typecheck COMMAND ${NODE} node_modules/typescript/bin/tsc --noEmit -p .
    WORKING_DIRECTORY ${WEB_DIR})
  set_tests_properties(web.typecheck PROPERTIES FIXTURES_REQUIRED web_deps TIMEOUT 120 LABELS web)
  add_test(NAME web.unit COMMAND ${NPM} run --silent test:unit WORKING_DIRECTORY ${WEB_DIR})
  set_tests_properties(web.unit PROPERTIES FIXTURES_REQUIRED web_deps TIMEOUT 120 LABELS web)
  add_test(NAME web.bundle_fresh
    COMMAND ${CMAKE_COMMAND} -DNODE=${NODE} -DWEB_DIR=${WEB_DIR}
            -DFRESH=${CMAKE_BINARY_DIR}/web-fresh/view.js -P ${CMAKE_SOURCE_DIR}/tests/browser/bundle_fresh.cmake)
  set_tests_properties(web.bundle_fresh PROPERTIES FIXTURES_REQUIRED web_deps TIMEOUT 120 LABELS web)

  if(CHROMIUM)
    set(BROWSER_DIR ${CMAKE_SOURCE_DIR}/tests/browser)
    add_test(NAME browser.npm_ci COMMAND ${NPM} ci --no-audit --no-fund --prefer-offline
      WORKING_DIRECTORY ${BROWSER_DIR})
    set_tests_properties(browser.npm_ci PROPERTIES FIXTURES_SETUP browser_deps TIMEOUT 300 LABELS browser)
    set(BROWSER_ENV "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES};HOTLINES_ARTIFACTS=${CMAKE_BINARY_DIR}/browser-artifacts;CHROMIUM=${CHROMIUM}")
    foreach(name view hosts speedscope served devtools)
      add_test(NAME browser.${name} COMMAND ${NODE} --test ${name}.test.mjs WORKING_DIRECTORY ${BROWSER_DIR})
      # One browser at a time: the machine has two cores and chromium wants both.
      set_tests_properties(browser.${name} PROPERTIES FIXTURES_REQUIRED browser_deps TIMEOUT 300
        LABELS browser RESOURCE_LOCK chromium ENVIRONMENT "${BROWSER_ENV}")
    endforeach()
  else()
    message(WARNING "chromium not found (scripts/deps.sh test installs it): browser tests are skipped")
  endif()
else()
  message(WARNING "node/npm not found: web view and browser tests are skipped")
endif()
