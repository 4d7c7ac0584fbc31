# The Emacs package (editors/emacs/hotlines.el) in `emacs --batch -Q` with ERT, against the
# real server on tests/fixtures: byte-compilation without warnings, checkdoc and
# package-install-file (package), heat equal to hotlines/fileAnnotations (heat), hot lists,
# xref callers, imenu, flame-graph showDocument and eglot beside it (lists), a profiled Go
# test run (run), and the heat on an `emacs -nw` screen in tmux (screen).
find_program(EMACS emacs)
find_program(TMUX tmux)
if(NOT EMACS)
  message(WARNING "emacs not found: the Emacs package tests are skipped (scripts/deps.sh test)")
  return()
endif()
set(HOTLINES_EMACS_ENV "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES};HOTLINES_GO_CACHE=${CMAKE_BINARY_DIR}/runs-go;HOTLINES_EL=${CMAKE_SOURCE_DIR}/editors/emacs/hotlines.el")
set(HOTLINES_EMACS_RUN ${EMACS} --batch -Q -L ${CMAKE_SOURCE_DIR}/editors/emacs
    -L ${CMAKE_SOURCE_DIR}/tests/emacs/lib)
set(emacs_tests package heat lists run)
if(TMUX)
  list(APPEND emacs_tests screen)
else()
  message(WARNING "tmux not found: the Emacs screen test is skipped")
endif()
foreach(name ${emacs_tests})
  add_test(NAME emacs.${name}
    COMMAND ${HOTLINES_EMACS_RUN} -l ${CMAKE_SOURCE_DIR}/tests/emacs/${name}-test.el
            -f ert-run-tests-batch-and-exit)
  set_tests_properties(emacs.${name} PROPERTIES TIMEOUT 300 LABELS editor
    ENVIRONMENT "${HOTLINES_EMACS_ENV};HOTLINES_EMACS=${EMACS};HOTLINES_TMUX=${TMUX}")
endforeach()
