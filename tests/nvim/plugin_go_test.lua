-- The plugin on go-shop (pprof, paths recorded under /build/go-shop resolved by suffix):
-- :HotlinesLoad profiles/cpu.pprof from the module root, shop.go's marks carry the server's
-- numbers, Discount's line 13 is the file's hottest line, and :HotlinesHot jumps into the
-- package's files.
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

t.run(function()
  local root = t.fixtures .. '/go-shop'
  t.setup({})
  vim.cmd('cd ' .. root)
  vim.cmd('edit internal/shop/shop.go')
  local buf = vim.api.nvim_get_current_buf()
  local heat = require('hotlines.heat')
  local c
  t.check(
    t.wait(10000, function()
      c = require('hotlines.client').get(buf)
      return c ~= nil and c.initialized
    end),
    'a client starts for go-shop (root: go.mod)'
  )
  t.check(
    c and c.config.root_dir == root,
    'the root is the module root (got ' .. tostring(c and c.config.root_dir) .. ')'
  )
  t.check(#vim.api.nvim_buf_get_extmarks(buf, heat.ns, 0, -1, {}) == 0, 'no marks before a profile is loaded')

  local seq = heat.seq
  vim.cmd('HotlinesLoad profiles/cpu.pprof')
  t.check(t.wait_redraw(buf, seq, 20000), ':HotlinesLoad profiles/cpu.pprof redraws shop.go')
  local ann = t.marks_match_server(buf, 'shop.go, cpu.pprof')
  t.check(ann.file:find('internal/shop/shop.go$') ~= nil, 'the server resolves shop.go (' .. ann.file .. ')')
  -- The view's hottest line is elsewhere; in shop.go it is Discount's line 13.
  local hottest
  for _, l in ipairs(ann.lines) do
    if not hottest or l.heat > hottest.heat then hottest = l end
  end
  local level = {}
  for _, m in ipairs(heat.marks_for(ann)) do
    level[m.line] = m.level
  end
  t.check(
    hottest and hottest.line == 13 and level[13] == math.ceil(5 * hottest.heat),
    "line 13 is shop.go's hottest, level ceil(5 × "
      .. tostring(hottest and hottest.heat)
      .. ') = '
      .. tostring(level[13])
  )

  vim.cmd('HotlinesHot')
  t.check(
    t.wait(
      20000,
      function() return vim.fn.getqflist({ title = 1 }).title:find('hotlines: hot methods', 1, true) == 1 end
    ),
    ':HotlinesHot fills the quickfix list'
  )
  local qf = vim.fn.getqflist()
  local shop = vim.tbl_filter(
    function(q) return vim.api.nvim_buf_get_name(q.bufnr):find(root .. '/internal/shop/', 1, true) == 1 end,
    qf
  )
  t.check(
    #qf > 0 and #shop == #qf,
    ':HotlinesHot entries all jump into internal/shop (' .. #shop .. ' of ' .. #qf .. ')'
  )
end)
