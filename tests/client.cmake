# Real-client tests (Node): installs the pinned vscode-jsonrpc with npm ci and runs node --test.
find_program(NODE node)
find_program(NPM npm)
if(NODE AND NPM)
  add_test(NAME client.npm_ci
    COMMAND ${NPM} ci --no-audit --no-fund --prefer-offline
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/client)
  set_tests_properties(client.npm_ci PROPERTIES FIXTURES_SETUP client_deps TIMEOUT 300 LABELS client)
  add_test(NAME client.vscode_jsonrpc_session
    COMMAND ${NODE} --test session.test.js
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/client)
  set_tests_properties(client.vscode_jsonrpc_session PROPERTIES FIXTURES_REQUIRED client_deps TIMEOUT 120
    LABELS client ENVIRONMENT "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES}")
  # The editor surface against the reference tools (jfr from the JDK, go tool pprof).
  add_test(NAME client.editor_session
    COMMAND ${NODE} --test editor_session.test.js
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/client)
  set_tests_properties(client.editor_session PROPERTIES FIXTURES_REQUIRED client_deps TIMEOUT 600
    LABELS client ENVIRONMENT "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES}")
  # Hostile input: raw bytes that used to crash or wedge the server (issue 18).
  add_test(NAME client.hostile_input
    COMMAND ${NODE} --test hostile_input.test.js
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/client)
  set_tests_properties(client.hostile_input PROPERTIES FIXTURES_REQUIRED client_deps TIMEOUT 300
    LABELS client ENVIRONMENT "HOTLINES_BINARY=$<TARGET_FILE:hotlines>")
  # The loopback view server against local attackers: Host, Origin, open, limits.
  add_test(NAME client.view_server
    COMMAND ${NODE} --test view_server.test.js
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/client)
  set_tests_properties(client.view_server PROPERTIES FIXTURES_REQUIRED client_deps TIMEOUT 120
    LABELS client ENVIRONMENT "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES}")
  # Hostile files: FIFOs, /dev/zero, gzip bombs, profiles truncated while they reload.
  add_test(NAME client.hostile_files
    COMMAND ${NODE} --test hostile_files.test.js
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}/tests/client)
  set_tests_properties(client.hostile_files PROPERTIES FIXTURES_REQUIRED client_deps TIMEOUT 300
    LABELS client ENVIRONMENT "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES}")
else()
  message(WARNING "node/npm not found: real-client tests are skipped")
endif()
