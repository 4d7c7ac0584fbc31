-- Native code in the Neovim plugin: a C++ buffer (filetype cpp) and a Rust one start the client;
-- :HotlinesProfileTest on native-shop's Pricing.DiscountIsFinite (a CMake copy of the fixture,
-- built here) runs it through ctest under perf, and the heat of pricing_test.cc comes from that
-- perf.data: its hottest line is the loop, line 13. Needs cmake, g++, libgtest-dev and perf.
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

t.run(function()
  for _, tool in ipairs({ 'cmake', 'perf' }) do
    if vim.fn.executable(tool) ~= 1 then
      t.check(false, tool .. ' is installed (scripts/deps.sh)')
      return
    end
  end
  local tmp = assert(os.getenv('HOTLINES_TEST_TMP'), 'HOTLINES_TEST_TMP is not set')
  local root = tmp .. '/native-shop-' .. vim.fn.getpid()
  vim.fn.mkdir(root, 'p')
  local src = t.fixtures .. '/native-shop/'
  vim.fn.system({ 'cp', '-r', src .. 'CMakeLists.txt', src .. 'src', src .. 'test', src .. 'rust', root })
  vim.fn.system({ 'chmod', '-R', 'u+w', root })
  local out = vim.fn.system({ 'sh', '-c', 'cd ' .. vim.fn.shellescape(root)
    .. ' && cmake -S . -B build >/dev/null && cmake --build build --target pricing_test 2>&1' })
  t.check(vim.v.shell_error == 0, 'native-shop builds with CMake: ' .. out)
  t.setup({})

  -- A Rust buffer starts a client too.
  vim.cmd('edit ' .. root .. '/rust/shop.rs')
  t.check(vim.bo.filetype == 'rust', 'shop.rs is a rust buffer (got ' .. vim.bo.filetype .. ')')
  local rust_buf = vim.api.nvim_get_current_buf()
  t.client_starts(rust_buf, 'a client starts for the rust buffer')

  vim.cmd('edit ' .. root .. '/test/pricing_test.cc')
  local buf = vim.api.nvim_get_current_buf()
  t.check(vim.bo.filetype == 'cpp', 'pricing_test.cc is a cpp buffer (got ' .. vim.bo.filetype .. ')')
  t.client_starts(buf, 'a client starts for the cpp buffer')
  local r = t.profile_test_at('TEST(Pricing, DiscountIsFinite)', 0, 40, 'Pricing.DiscountIsFinite')
  if not r then return end
  local f = r.finished
  t.check(f.error == nil and f.exitCode == 0 and type(f.profileId) == 'string',
    'the run succeeded and its profile loaded: ' .. vim.inspect(f))
  t.check(r.test == 'Pricing.DiscountIsFinite', 'the test under the cursor ran (got ' .. tostring(r.test) .. ')')
  local text = table.concat(vim.api.nvim_buf_get_lines(r.buf, 0, -1, false), '\n')
  t.check(text:find('perf record --call-graph dwarf', 1, true) ~= nil, 'the output says how perf walks stacks')
  t.check(text:find("-R '^Pricing\\.DiscountIsFinite$'", 1, true) ~= nil, 'ctest runs that one test')

  local heat = require('hotlines.heat')
  vim.fn.win_gotoid(vim.fn.win_findbuf(buf)[1])
  t.check(t.wait(20000, function()
    local st = heat.buffers[buf]
    return st and st.result and #st.result.lines > 0
  end), 'the heat of pricing_test.cc arrives when the run finishes')
  local ann = t.marks_match_server(buf, 'pricing_test.cc after the run')
  local hottest, best = nil, -1
  for _, l in ipairs(ann.lines) do
    if l.self.count > best then
      hottest, best = l.line, l.self.count
    end
  end
  t.check(hottest == 13, 'the hottest line is the loop, 13 (got ' .. tostring(hottest) .. ')')
  vim.fn.delete(root, 'rf')
end)
