-- :HotlinesState on a wall-clock recording (java-shop, ap-wall.jfr: async-profiler's wall
-- samples record their thread state): the picker offers the recorded states, and RUNNABLE
-- alone shows the 1677 running samples (the JDK parser's count, jfr_aggregate.py --state)
-- with the server's numbers on Pricing.java; "(all states)" brings back all 14332.
-- Run by tests/nvim_plugin.cmake (headless, only editors/nvim on the runtimepath).
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

t.run(function()
  t.setup({ settings = { profiles = { 'profiles/ap-wall.jfr' } } })
  local buf = t.open(t.pricing)
  local heat = require('hotlines.heat')
  local ann = t.marks_match_server(buf, 'all states')
  t.check(ann.total.count == 14332, 'every wall sample: 14332 (got ' .. tostring(ann.total.count) .. ')')

  local offered
  vim.ui.select = function(items, _, choose)
    offered = items
    choose(items[3], 3)
  end
  local seq = heat.seq
  vim.cmd('HotlinesState')
  t.check(
    offered and #offered == 3 and offered[1] == '(all states)' and offered[2] == 'SLEEPING' and offered[3] == 'RUNNABLE',
    'the picker offers "(all states)", SLEEPING and RUNNABLE (got ' .. vim.inspect(offered) .. ')'
  )
  t.check(t.wait_redraw(buf, seq), ':HotlinesState (picked RUNNABLE) redraws')
  ann = t.marks_match_server(buf, 'RUNNABLE')
  t.check(ann.total.count == 1677, 'RUNNABLE samples: 1677 (got ' .. tostring(ann.total.count) .. ')')

  seq = heat.seq
  vim.cmd('HotlinesState sleeping')
  t.check(t.wait_redraw(buf, seq), ':HotlinesState sleeping redraws')
  ann = t.server(buf, 'hotlines/fileAnnotations', { textDocument = { uri = vim.uri_from_bufnr(buf) } })
  t.check(ann.total.count == 12655, 'SLEEPING samples: 12655 (got ' .. tostring(ann.total.count) .. ')')

  vim.ui.select = function(items, _, choose) choose(items[1], 1) end
  seq = heat.seq
  vim.cmd('HotlinesState')
  t.check(t.wait_redraw(buf, seq), ':HotlinesState (all states) redraws')
  ann = t.marks_match_server(buf, 'all states again')
  t.check(ann.total.count == 14332, 'all states again: 14332 (got ' .. tostring(ann.total.count) .. ')')
end)
