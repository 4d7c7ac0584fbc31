-- The rendered screen, no screenshot: Neovim with the plugin runs inside tmux
-- (lib/screen_editor.lua), `tmux capture-pane` reads the screen, and each profiled line of
-- Pricing.java must show the glyph of its heat level (from the server's `heat`) in the sign
-- column and its share at the end. Uses a private tmux socket and kills only its server.
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

local tmux = os.getenv('HOTLINES_TMUX') or 'tmux'
local socket = 'hotlines-nvim-' .. vim.fn.getpid()
local ready = vim.fn.tempname()

local function tm(args)
  local cmd = { 'env', '-u', 'TMUX', tmux, '-L', socket, '-f', '/dev/null' }
  vim.list_extend(cmd, args)
  return vim.fn.system(cmd)
end

t.run(function()
  local nvim = os.getenv('HOTLINES_NVIM') or 'nvim'
  local plugin = os.getenv('HOTLINES_NVIM_PLUGIN') or (dir .. '/../../editors/nvim')
  local inner = table.concat({
    'env',
    'TERM=xterm-256color',
    'HOTLINES_SCREEN_READY=' .. ready,
    'HOTLINES_BINARY=' .. t.binary,
    'HOTLINES_FIXTURES=' .. t.fixtures,
    nvim,
    '-u',
    'NONE',
    '-i',
    'NONE',
    '-n',
    '--cmd',
    vim.fn.shellescape('set rtp+=' .. plugin),
    '-c',
    vim.fn.shellescape('luafile ' .. dir .. '/lib/screen_editor.lua'),
  }, ' ')
  tm({ 'new-session', '-d', '-x', '120', '-y', '60', inner })
  local ok = t.wait(30000, function() return vim.fn.filereadable(ready) == 1 end)
  t.check(ok, 'the editor in tmux draws the heat')
  if not ok then
    io.stderr:write(tm({ 'capture-pane', '-p' }))
    tm({ 'kill-server' })
    return
  end
  local ann = vim.fn.json_decode(table.concat(vim.fn.readfile(ready), '\n'))
  local screen = tm({ 'capture-pane', '-p' })
  tm({ 'kill-server' })
  vim.fn.delete(ready)

  -- Each screen row: sign column (2 cells), the number, the text.
  local rows = {}
  for _, row in ipairs(vim.split(screen, '\n', true)) do
    -- "█  32  text", "    2" (an empty line); not "~  …  1,1  All" (the ruler).
    local sign, num = row:match('^(%S*)%s+(%d+) ')
    if not num then
      sign, num = row:match('^(%S*)%s+(%d+)$')
    end
    if num then rows[tonumber(num)] = { sign = sign, text = row } end
  end
  local count = #vim.fn.readfile(t.pricing)
  t.check(
    vim.tbl_count(rows) == count,
    'the screen shows all ' .. count .. ' lines of Pricing.java with numbers (got ' .. vim.tbl_count(rows) .. ')'
  )
  local glyphs = require('hotlines.config').defaults.heat.glyphs
  local want, checked = {}, 0
  for _, l in ipairs(ann.lines) do
    if 100 * l.self.value / ann.total.value >= 1 then
      want[l.line] = {
        glyph = glyphs[math.max(1, math.ceil(5 * l.heat))],
        text = string.format('%.1f%% cpu', 100 * l.self.value / ann.total.value),
      }
    end
  end
  for n, row in pairs(rows) do
    local w = want[n]
    if w then
      checked = checked + 1
      t.check(
        row.sign == w.glyph and row.text:find(w.text, 1, true) ~= nil,
        string.format('line %d shows %s … %s (screen: %q)', n, w.glyph, w.text, row.text)
      )
    else
      t.check(row.sign == '', string.format('line %d has no sign (screen: %q)', n, row.text))
    end
  end
  t.check(
    checked == 2 and rows[32] and rows[32].sign == '█' and rows[15].sign == '▄',
    'two hot lines on screen: █ on line 32 (the hottest), ▄ on line 15'
  )
end)
