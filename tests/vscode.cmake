# The VS Code extension (editors/vscode): npm ci, strict TypeScript check, unit tests of the
# pure parts (node --test), the packaged .vsix, and the extension in a real VS Code
# (code-server + Debian chromium via playwright-core, installed by tests/vscode/install_harness.sh
# from the npm registry into build/vscode-harness). Screenshots: build/vscode-artifacts.
find_program(NODE node)
find_program(NPM npm)
if(NODE AND NPM)
  set(VSCODE_DIR ${CMAKE_SOURCE_DIR}/editors/vscode)
  set(VSCODE_VSIX ${CMAKE_BINARY_DIR}/vscode/hotlines.vsix)
  add_test(NAME vscode.npm_ci COMMAND ${NPM} ci --no-audit --no-fund --prefer-offline WORKING_DIRECTORY ${VSCODE_DIR})
  set_tests_properties(vscode.npm_ci PROPERTIES FIXTURES_SETUP vscode_deps TIMEOUT 300 LABELS editor)
  add_test(NAME vscode.typecheck COMMAND ${NODE} node_modules/typescript/bin/tsc --noEmit -p . WORKING_DIRECTORY ${VSCODE_DIR})
  set_tests_properties(vscode.typecheck PROPERTIES FIXTURES_REQUIRED vscode_deps TIMEOUT 120 LABELS editor)
  add_test(NAME vscode.unit COMMAND ${NPM} run --silent test:unit WORKING_DIRECTORY ${VSCODE_DIR})
  set_tests_properties(vscode.unit PROPERTIES FIXTURES_REQUIRED vscode_deps TIMEOUT 120 LABELS editor)
  add_test(NAME vscode.package COMMAND ${NODE} build.mjs --vsix ${VSCODE_VSIX} WORKING_DIRECTORY ${VSCODE_DIR})
  set_tests_properties(vscode.package PROPERTIES FIXTURES_REQUIRED vscode_deps FIXTURES_SETUP vscode_vsix
    TIMEOUT 180 LABELS editor)

  set(VSCODE_HARNESS ${CMAKE_BINARY_DIR}/vscode-harness)
  add_test(NAME vscode.harness COMMAND bash ${CMAKE_SOURCE_DIR}/tests/vscode/install_harness.sh ${VSCODE_HARNESS})
  set_tests_properties(vscode.harness PROPERTIES FIXTURES_SETUP vscode_harness TIMEOUT 1200 LABELS "editor;slow"
    RESOURCE_LOCK chromium)
  add_test(NAME vscode.workbench COMMAND ${NODE} --test --test-concurrency=1 workbench.test.mjs
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/vscode)
  set_tests_properties(vscode.workbench PROPERTIES FIXTURES_REQUIRED "vscode_deps;vscode_vsix;vscode_harness"
    TIMEOUT 900 LABELS "editor;slow" RESOURCE_LOCK chromium
    ENVIRONMENT "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES};HARNESS=${VSCODE_HARNESS};VSIX=${VSCODE_VSIX};HOTLINES_ARTIFACTS=${CMAKE_BINARY_DIR}/vscode-artifacts")
else()
  message(WARNING "node/npm not found: VS Code extension tests are skipped")
endif()
