# The Neovim plugin (editors/nvim) in headless Neovim with only the plugin on the
# runtimepath, against the real server on tests/fixtures: heat marks, commands and
# quickfix lists (java-shop and go-shop), profiled runs, and the rendered screen (tmux).
find_program(NVIM nvim)
find_program(TMUX tmux)
if(NVIM)
  set(HOTLINES_NVIM_PLUGIN ${CMAKE_SOURCE_DIR}/editors/nvim)
  set(HOTLINES_NVIM_ENV "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES};HOTLINES_TEST_TMP=${CMAKE_BINARY_DIR}/nvim-plugin;HOTLINES_GO_CACHE=${CMAKE_BINARY_DIR}/runs-go")
  foreach(name heat commands go run ap_outputs states node native)
    add_test(NAME nvim.plugin_${name}
      COMMAND ${NVIM} --headless -u NONE -i NONE -n -c "set rtp+=${HOTLINES_NVIM_PLUGIN}"
              -c "luafile ${CMAKE_SOURCE_DIR}/tests/nvim/plugin_${name}_test.lua")
    set_tests_properties(nvim.plugin_${name} PROPERTIES TIMEOUT 300 LABELS editor
      ENVIRONMENT "${HOTLINES_NVIM_ENV}")
  endforeach()
  if(TMUX)
    add_test(NAME nvim.plugin_screen
      COMMAND ${NVIM} --headless -u NONE -i NONE -n -c "set rtp+=${HOTLINES_NVIM_PLUGIN}"
              -c "luafile ${CMAKE_SOURCE_DIR}/tests/nvim/plugin_screen_test.lua")
    set_tests_properties(nvim.plugin_screen PROPERTIES TIMEOUT 120 LABELS editor
      ENVIRONMENT "${HOTLINES_NVIM_ENV};HOTLINES_NVIM=${NVIM};HOTLINES_TMUX=${TMUX};HOTLINES_NVIM_PLUGIN=${HOTLINES_NVIM_PLUGIN}")
  else()
    message(WARNING "tmux not found: the Neovim screen test is skipped")
  endif()
endif()
