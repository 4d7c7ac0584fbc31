# Headless Neovim with its built-in LSP client and no plugins (Debian's neovim 0.7.2): a
# plain editor shows hotlines' inlay hints, code lenses and hovers.
find_program(NVIM nvim)
if(NVIM)
  add_test(NAME nvim.plain_lsp
    COMMAND ${NVIM} --headless -u NONE -i NONE -n -c "luafile ${CMAKE_SOURCE_DIR}/tests/nvim/plain_lsp_test.lua")
  set_tests_properties(nvim.plain_lsp PROPERTIES TIMEOUT 120 LABELS editor
    ENVIRONMENT "HOTLINES_BINARY=$<TARGET_FILE:hotlines>;HOTLINES_FIXTURES=${HOTLINES_FIXTURES}")
else()
  message(WARNING "nvim not found: the Neovim test is skipped (scripts/deps.sh test installs it)")
endif()
