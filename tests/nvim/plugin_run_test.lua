-- :HotlinesProfileTest on go-shop's TestWorkload (a copy of the fixture: runs write
-- .hotlines/ beside it): the run output streams into its scratch buffer, runFinished
-- loads the profile, and the heat of shop.go is drawn from the new profile.
-- Needs go; GOCACHE is $HOTLINES_GO_CACHE (shared with the runs tests), the proxy is off.
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

t.run(function()
  if vim.fn.executable('go') ~= 1 then
    t.check(false, 'go is installed (scripts/deps.sh test)')
    return
  end
  local tmp = assert(os.getenv('HOTLINES_TEST_TMP'), 'HOTLINES_TEST_TMP is not set')
  local cache = os.getenv('HOTLINES_GO_CACHE') or (tmp .. '/go')
  local root = tmp .. '/go-shop-' .. vim.fn.getpid()
  vim.fn.mkdir(root, 'p')
  vim.fn.system({ 'cp', '-r', t.fixtures .. '/go-shop/go.mod', t.fixtures .. '/go-shop/internal', root })
  vim.fn.system({ 'chmod', '-R', 'u+w', root })
  t.setup({
    run_env = {
      GOFLAGS = '-mod=mod',
      GOCACHE = cache .. '/cache',
      GOPATH = cache .. '/path',
      GOPROXY = 'off',
      GOTOOLCHAIN = 'local',
    },
  })
  -- shop.go is open (no profile yet: no heat) while the test runs in the other window.
  vim.cmd('edit ' .. root .. '/internal/shop/shop.go')
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd('vsplit ' .. root .. '/internal/shop/shop_test.go')
  local test_buf = vim.api.nvim_get_current_buf()
  t.client_starts(test_buf, 'a client starts for the go-shop copy')
  local r = t.profile_test_at('func TestWorkload', 2, 0, 'TestWorkload') -- inside the body
  if not r then return end
  local f = r.finished
  t.check(
    f.error == nil and f.exitCode == 0 and type(f.profileId) == 'string',
    'the run succeeded and its profile loaded: ' .. vim.inspect(f)
  )
  t.check(r.test == 'TestWorkload', 'the test under the cursor was run (got ' .. tostring(r.test) .. ')')
  local out = table.concat(vim.api.nvim_buf_get_lines(r.buf, 0, -1, false), '\n')
  t.check(vim.fn.bufname(r.buf) == 'hotlines://run/' .. r.id, 'the output buffer is hotlines://run/' .. r.id)
  t.check(
    out:find("$ go test -count=1 -run '^TestWorkload$' -cpuprofile", 1, true) ~= nil,
    'the output shows the go test command'
  )
  t.check(out:find('ok  \texample.com/gows/internal/shop', 1, true) ~= nil, 'the output shows the test passing')
  t.check(vim.fn.bufwinnr(r.buf) ~= -1, 'the output is shown in a window')

  -- shop.go is annotated from the new profile without any command.
  local heat = require('hotlines.heat')
  t.check(
    t.wait(10000, function()
      local st = heat.buffers[buf]
      return st and st.result and #st.result.lines > 0
    end),
    'the heat of the open shop.go arrives when the run finishes'
  )
  local ann = t.marks_match_server(buf, 'shop.go after the run')
  t.check(
    ann.profileId == f.profileId,
    "the heat is the run's profile " .. f.profileId .. ' (got ' .. tostring(ann.profileId) .. ')'
  )
  local line13
  for _, l in ipairs(ann.lines) do
    if l.line == 13 then line13 = l end
  end
  t.check(line13 ~= nil and line13.total.value > 0, "the run profiled Discount's line 13")
  -- A second run, cancelled right after it started.
  vim.fn.win_gotoid(vim.fn.win_findbuf(test_buf)[1])
  vim.api.nvim_win_set_cursor(0, { lnum + 2, 0 })
  t.check(vim.api.nvim_buf_get_name(0):find('shop_test%.go$') ~= nil, 'back in shop_test.go')
  local first = run.last
  vim.cmd('HotlinesProfileTest')
  t.check(t.wait(20000, function() return run.last ~= first end), 'a second run starts')
  vim.cmd('HotlinesProfileCancel')
  local second = run.runs[run.last]
  t.check(t.wait(60000, function() return second.finished ~= nil end), 'the cancelled run finishes')
  local e = second.finished and second.finished.error
  t.check(type(e) == 'table' and e.kind == 'cancelled', 'runFinished says cancelled (got ' .. vim.inspect(e) .. ')')
  vim.fn.delete(root, 'rf')
end)
