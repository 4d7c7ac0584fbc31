# Builds the web view from editors/web/src into FRESH and fails unless it equals the committed
# editors/web/dist/view.js (which the binary embeds). Fix: cd editors/web && npm run build.
execute_process(COMMAND ${NODE} build.mjs --out ${FRESH} WORKING_DIRECTORY ${WEB_DIR}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "esbuild failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${FRESH} ${WEB_DIR}/dist/view.js
  RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "editors/web/dist/view.js is stale: run `npm run build` in editors/web and commit it")
endif()
message(STATUS "editors/web/dist/view.js matches a fresh build")
