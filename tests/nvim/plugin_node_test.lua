-- :HotlinesProfileTest on node-shop's TypeScript test "total is stable" (a copy of the fixture
-- with its npm packages installed from package-lock.json): the lens's node-test run builds the
-- project with tsc, runs node --test with --cpu-prof, and the heat of the open pricing.ts comes
-- from the test process's profile, source-mapped to the .ts lines: its hottest line is 12
-- (discount's loop), with the samples and time tests/oracles/cpuprofile_lines.py reads from the
-- run's .cpuprofile files. Needs node and npm.
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

t.run(function()
  if vim.fn.executable('node') ~= 1 or vim.fn.executable('npm') ~= 1 then
    t.check(false, 'node and npm are installed (scripts/deps.sh)')
    return
  end
  local tmp = assert(os.getenv('HOTLINES_TEST_TMP'), 'HOTLINES_TEST_TMP is not set')
  local root = tmp .. '/node-shop-' .. vim.fn.getpid()
  vim.fn.delete(root, 'rf')
  vim.fn.mkdir(root, 'p')
  local shop = t.fixtures .. '/node-shop/'
  vim.fn.system({ 'cp', '-r', shop .. 'package.json', shop .. 'package-lock.json', shop .. 'tsconfig.json',
    shop .. 'src', shop .. 'test', root })
  local out = vim.fn.system({ 'npm', 'ci', '--prefix', root, '--no-audit', '--no-fund', '--prefer-offline',
    '--loglevel=error' })
  t.check(vim.v.shell_error == 0, 'npm ci installs the fixture packages: ' .. out)
  t.setup({})
  -- pricing.ts is open (no profile yet) while the test runs in the other window.
  vim.cmd('edit ' .. root .. '/src/pricing.ts')
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd('vsplit ' .. root .. '/test/cart.test.ts')
  local test_buf = vim.api.nvim_get_current_buf()
  t.check(vim.bo[test_buf].filetype == 'typescript', 'cart.test.ts is typescript')
  t.client_starts(test_buf, 'a client starts for the TypeScript buffer')
  local r = t.profile_test_at('cart.total(1500000);', 0, 0, '"total is stable"')
  if not r then return end
  local f = r.finished
  t.check(f.error == nil and type(f.profileId) == 'string', 'the run succeeded and its profile loaded: ' .. vim.inspect(f))
  t.check(r.test == 'total is stable', 'the test under the cursor was run (got ' .. tostring(r.test) .. ')')
  local text = table.concat(vim.api.nvim_buf_get_lines(r.buf, 0, -1, false), '\n')
  t.check(text:find('--test-name-pattern=^total is stable$', 1, true) ~= nil, 'the output shows node --test with the name')

  local heat = require('hotlines.heat')
  t.check(
    t.wait(10000, function()
      local st = heat.buffers[buf]
      return st and st.result and #st.result.lines > 0
    end),
    'the heat of the open pricing.ts arrives when the run finishes'
  )
  local ann = t.marks_match_server(buf, 'pricing.ts after the run')
  local hottest
  for _, l in ipairs(ann.lines) do
    if not hottest or l.self.value > hottest.self.value then hottest = l end
  end
  t.check(hottest ~= nil and hottest.line == 12, 'the hottest line of pricing.ts is 12 (got ' .. vim.inspect(hottest) .. ')')
  -- The oracle, over every .cpuprofile of the run's folder.
  local files = vim.fn.glob(f.profilePath .. '/*.cpuprofile', false, true)
  local cmd = { 'python3', t.fixtures .. '/../oracles/cpuprofile_lines.py' }
  vim.list_extend(cmd, files)
  local oracle = vim.fn.json_decode(vim.fn.system(cmd))
  local want = oracle.lines[root .. '/src/pricing.ts:12'] or { 0, 0 }
  t.check(
    hottest ~= nil and hottest.self.count == want[1] and hottest.self.value == want[2],
    string.format('pricing.ts:12 self is the oracle\'s %d samples, %d ns (got %s)', want[1], want[2],
      vim.inspect(hottest and hottest.self))
  )
  print(string.format('node test: pricing.ts:12 self %d samples %d ns; oracle %d, %d', hottest.self.count,
    hottest.self.value, want[1], want[2]))
  vim.fn.delete(root, 'rf')
end)
