-- The plugin's heat on Pricing.java (java-shop, ap-cpu.jfr): the extmarks carry the
-- server's numbers (compared with hotlines/fileAnnotations), follow :HotlinesThreads,
-- :HotlinesWindow and view changes made behind the plugin (hotlines/annotationsChanged), move
-- and vanish with edits, and :HotlinesToggle hides and shows them; `text = "value"` prints
-- weights by the server's units rule (hotlines.units).
-- Run by tests/nvim_plugin.cmake (headless, only editors/nvim on the runtimepath).
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

t.run(function()
  t.setup({ settings = { profiles = { 'profiles/ap-cpu.jfr' } } })
  local buf = t.open(t.pricing)
  local heat = require('hotlines.heat')
  local st = heat.buffers[buf]

  -- All threads: the JIT inlined discount into cached, so line 32 is the hottest.
  local ann = t.marks_match_server(buf, 'all threads')
  local marks = t.marks(buf)
  t.check(marks[32] and marks[32].text == '7.2% cpu', 'line 32 reads "7.2% cpu" (got ' .. vim.inspect(marks[32]) .. ')')
  t.check(marks[15] and marks[15].text == '4.2% cpu', 'line 15 reads "4.2% cpu" (got ' .. vim.inspect(marks[15]) .. ')')
  local hottest
  for _, l in ipairs(ann.lines) do
    if l.heat == 1 then hottest = l.line end
  end
  t.check(hottest == 32, "the server's heat 1.0 is on line 32 (got " .. tostring(hottest) .. ')')
  local level = {}
  for _, m in ipairs(heat.marks_for(ann)) do
    level[m.line] = m.level
  end
  t.check(level[32] == 5, 'line 32 has heat level 5 (got ' .. tostring(level[32]) .. ')')
  t.check(level[15] == 3, 'line 15 (heat 0.58) has level 3 (got ' .. tostring(level[15]) .. ')')
  -- The 10-step background follows heat too; `text = "count"` shows the server's samples.
  local by_line = {}
  for _, m in ipairs(heat.marks_for(ann)) do
    by_line[m.line] = m
  end
  t.check(
    by_line[32].line_hl == 'HotlinesLine10' and by_line[15].line_hl == 'HotlinesLine6',
    'backgrounds: HotlinesLine10 on 32, HotlinesLine6 on 15 (heat 0.58)'
  )
  require('hotlines.config').get().heat.text = 'count'
  local counts = {}
  for _, m in ipairs(heat.marks_for(ann)) do
    counts[m.line] = m.text
  end
  require('hotlines.config').get().heat.text = 'percent'
  local self32
  for _, l in ipairs(ann.lines) do
    if l.line == 32 then self32 = l.self.count end
  end
  t.check(counts[32] == string.format('%d samples cpu', self32), 'text = "count": ' .. tostring(counts[32]))
  -- `text = "value"` follows the server's units (README "Units"; tests/data/units.json is
  -- what the server's and the web view's tests check too).
  local units = require('hotlines.units')
  for _, c in ipairs({
    { 2177226384, 'bytes', '2.03 GiB' },
    { 1536, 'bytes', '1.50 KiB' },
    { 999, 'bytes', '999 B' },
    { 1152, 'bytes', '1.13 KiB' },
    { 1500, 'nanoseconds', '1.50 µs' },
    { 999, 'nanoseconds', '999 ns' },
    { 12500000, 'nanoseconds', '12.50 ms' },
  }) do
    local got = units.format_weight(c[1], c[2])
    t.check(got == c[3], string.format('%d %s reads "%s" (got "%s")', c[1], c[2], c[3], got))
  end
  local shared = vim.fn.json_decode(table.concat(vim.fn.readfile(t.fixtures .. '/../data/units.json'), '\n'))
  t.check(#shared.cases >= 20, 'tests/data/units.json has its cases')
  for _, c in ipairs(shared.cases) do
    local got = units.format_weight(c[2], c[1])
    t.check(got == c[3], string.format('units.json: %s %s reads "%s" (got "%s")', c[2], c[1], c[3], got))
  end
  require('hotlines.config').get().heat.text = 'value'
  local alloc = heat.marks_for({
    event = 'alloc',
    unit = 'bytes',
    total = { count = 10, value = 2177226384 },
    lines = { { line = 7, heat = 1, self = { count = 10, value = 2177226384 }, total = { count = 10, value = 2177226384 } } },
  })
  local lock = heat.marks_for({
    event = 'lock',
    unit = 'nanoseconds',
    total = { count = 1, value = 1500 },
    lines = { { line = 3, heat = 1, self = { count = 1, value = 1500 }, total = { count = 1, value = 1500 } } },
  })
  require('hotlines.config').get().heat.text = 'percent'
  t.check(alloc[1] and alloc[1].text == '2.03 GiB alloc', 'text = "value", bytes: ' .. vim.inspect(alloc[1] and alloc[1].text))
  t.check(lock[1] and lock[1].text == '1.50 µs lock', 'text = "value", nanoseconds: ' .. vim.inspect(lock[1] and lock[1].text))
  -- Neovim 0.8+ reports the sign of an extmark; 0.7 does not (the screen test reads it there).
  if marks[32].sign then
    t.check(marks[32].sign == '█' and marks[15].sign == '▄', 'sign glyphs █ on 32 and ▄ on 15')
  end

  -- The main thread only: line 15 is the hottest with 13.4%.
  local seq = heat.seq
  vim.cmd('HotlinesThreads DestroyJavaVM')
  t.check(t.wait_redraw(buf, seq), ':HotlinesThreads redraws')
  ann = t.marks_match_server(buf, 'thread DestroyJavaVM')
  marks = t.marks(buf)
  t.check(
    marks[15] and marks[15].text == '13.4% cpu',
    'main thread: line 15 reads "13.4% cpu" (got ' .. vim.inspect(marks[15]) .. ')'
  )
  local best, best_line = -1, nil
  for _, l in ipairs(ann.lines) do
    if l.self.value > best then
      best, best_line = l.self.value, l.line
    end
  end
  t.check(best_line == 15, "main thread: the server's hottest line is 15 (got " .. tostring(best_line) .. ')')

  -- Edits: three lines above line 15 move its mark to 18 (after the server answers again).
  seq = heat.seq
  vim.api.nvim_buf_set_lines(buf, 14, 14, false, { '// a', '// b', '// c' })
  t.check(t.wait_redraw(buf, seq), 'an edit redraws after the pause')
  local moved
  for _, l in ipairs(st.result.lines) do
    if l.line == 18 then moved = l end
  end
  t.check(moved ~= nil and moved.profiledLine == 15, 'the server maps line 18 to profiled line 15')
  ann = t.marks_match_server(buf, 'after inserting 3 lines')
  marks = t.marks(buf)
  t.check(marks[18] and marks[18].text == '13.4% cpu' and marks[15] == nil, 'the mark moved from 15 to 18')

  -- Deleting the hot line drops its annotation (an extmark alone would slide to line 19).
  seq = heat.seq
  vim.api.nvim_buf_set_lines(buf, 17, 18, false, {})
  t.check(t.wait_redraw(buf, seq), 'a deletion redraws')
  marks = t.marks(buf)
  t.check(marks[18] == nil or marks[18].text ~= '13.4% cpu', "the deleted line's mark is gone")
  t.marks_match_server(buf, 'after deleting the hot line')
  vim.cmd('edit!')
  t.check(
    t.wait(10000, function()
      st = heat.buffers[buf]
      return st and st.result and st.drawn_seq == st.seq and t.marks(buf)[15] ~= nil
    end),
    ':edit! restores the text and its marks'
  )

  -- The whole profile again, then a time window: fewer samples, still the server's numbers.
  -- :HotlinesThreads without a name opens a picker of all the profile's threads.
  local offered
  vim.ui.select = function(items, _, choose)
    offered = items
    choose(items[1], 1)
  end
  seq = heat.seq
  vim.cmd('HotlinesThreads')
  t.check(t.wait_redraw(buf, seq), ':HotlinesThreads (picker: all threads) redraws')
  local threads = t.server(buf, 'hotlines/threads', { grouped = false, threads = {} }).threads
  t.check(
    offered and #offered == #threads + 1 and offered[1] == '(all threads)' and offered[2] == threads[1].name,
    'the picker offers "(all threads)" and the ' .. #threads .. ' threads of the profile, heaviest first'
  )
  local ann_all = t.server(buf, 'hotlines/fileAnnotations', { textDocument = { uri = vim.uri_from_bufnr(buf) } })
  seq = heat.seq
  vim.cmd('HotlinesWindow 0s 2s')
  t.check(t.wait_redraw(buf, seq), ':HotlinesWindow redraws')
  ann = t.marks_match_server(buf, 'window 0s..2s')
  t.check(
    ann.total.count < ann_all.total.count,
    'the window holds fewer samples (' .. ann.total.count .. ' < ' .. ann_all.total.count .. ')'
  )
  seq = heat.seq
  vim.cmd('HotlinesWindow')
  t.check(t.wait_redraw(buf, seq), ':HotlinesWindow without bounds redraws')

  -- A view change the plugin did not make (another client of the server, a raw command): the
  -- server's hotlines/annotationsChanged redraws the heat with the server's numbers.
  seq = heat.seq
  t.server(buf, 'workspace/executeCommand', { command = 'hotlines.selectThreads', arguments = { { threads = { 'DestroyJavaVM' } } } })
  t.check(t.wait_redraw(buf, seq), 'annotationsChanged redraws')
  ann = t.marks_match_server(buf, 'thread DestroyJavaVM, selected behind the plugin')
  t.check(t.marks(buf)[15] and t.marks(buf)[15].text == '13.4% cpu', 'line 15 reads "13.4% cpu" again')
  seq = heat.seq
  t.server(buf, 'workspace/executeCommand', { command = 'hotlines.selectThreads', arguments = { { threads = {} } } })
  t.check(t.wait_redraw(buf, seq), 'annotationsChanged redraws for all threads')

  -- Toggle off: no marks; on: the marks are back.
  vim.cmd('HotlinesToggle')
  t.check(#vim.api.nvim_buf_get_extmarks(buf, heat.ns, 0, -1, {}) == 0, ':HotlinesToggle clears the marks')
  seq = heat.seq
  vim.cmd('HotlinesToggle')
  t.check(t.wait_redraw(buf, seq), ':HotlinesToggle on redraws')
  t.check(#vim.api.nvim_buf_get_extmarks(buf, heat.ns, 0, -1, {}) > 0, ':HotlinesToggle shows the marks again')
end)
