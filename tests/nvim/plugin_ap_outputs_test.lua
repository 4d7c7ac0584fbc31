-- The plugin's heat on Pricing.java from async-profiler's HTML flame graph alone
-- (ap-multi-cpu-lines.html, `jfrconv -o html --cpu --lines` of ap-multi.jfr), loaded with
-- :HotlinesLoad: the same lines and marks as the JFR it was made from.
-- Run by tests/nvim_plugin.cmake (headless, only editors/nvim on the runtimepath).
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

-- {line = "self.count/total.count"} of a fileAnnotations answer.
local function line_numbers(ann)
  local out = {}
  for _, l in ipairs(ann.lines) do
    out[l.line] = l.self.count .. '/' .. l.total.count
  end
  return out
end

t.run(function()
  t.setup({ settings = { profiles = { 'profiles/async-profiler-outputs/ap-multi-cpu-lines.html' } } })
  vim.cmd('cd ' .. t.java_shop)
  local buf = t.open(t.pricing)
  local heat = require('hotlines.heat')
  local page = t.marks_match_server(buf, 'ap-multi-cpu-lines.html')
  local page_marks = vim.tbl_map(function(m) return m.text end, t.marks(buf))
  t.check(page.event == 'cpu' and page.total.count == 672, 'the page is cpu, 672 samples (got ' .. page.event .. ' ' .. page.total.count .. ')')

  local seq = heat.seq
  vim.cmd('HotlinesLoad profiles/ap-multi.jfr')
  t.check(t.wait_redraw(buf, seq, 20000), ':HotlinesLoad of the JFR redraws')
  local jfr = t.marks_match_server(buf, 'ap-multi.jfr')
  local jfr_marks = vim.tbl_map(function(m) return m.text end, t.marks(buf))
  t.check(jfr.total.count == page.total.count, 'the same total')
  t.check(vim.deep_equal(line_numbers(page), line_numbers(jfr)),
    'the same lines and numbers: page ' .. vim.inspect(line_numbers(page)) .. ', jfr ' .. vim.inspect(line_numbers(jfr)))
  t.check(vim.tbl_count(page_marks) >= 5 and vim.deep_equal(page_marks, jfr_marks),
    'the same marks: page ' .. vim.inspect(page_marks) .. ', jfr ' .. vim.inspect(jfr_marks))
end)
