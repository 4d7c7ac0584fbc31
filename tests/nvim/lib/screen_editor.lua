-- The editor side of plugin_screen_test.lua, run inside tmux: the plugin on Pricing.java
-- with numbers and a sign column; once the heat is drawn it writes the server's
-- fileAnnotations (asked on its own, not read from the plugin) to $HOTLINES_SCREEN_READY.
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/plugin_harness.lua')
t.setup({ settings = { profiles = { 'profiles/ap-cpu.jfr' } } })
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 0
vim.o.ruler = false
local buf = t.open(t.pricing)
local ann = t.server(buf, 'hotlines/fileAnnotations', { textDocument = { uri = vim.uri_from_bufnr(buf) } })
vim.cmd('redraw')
-- Written aside, then renamed: the outer test must never read a half-written file.
vim.defer_fn(function()
  local ready = os.getenv('HOTLINES_SCREEN_READY')
  vim.fn.writefile({ vim.fn.json_encode(ann) }, ready .. '.part')
  vim.loop.fs_rename(ready .. '.part', ready)
end, 300)
