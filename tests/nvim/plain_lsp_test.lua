-- Neovim's built-in LSP client, no plugins, against `hotlines serve`: the proof that an editor
-- with no hotlines extension shows hot lines. Run headless by tests/nvim.cmake:
--   HOTLINES_BINARY=… HOTLINES_FIXTURES=… nvim --headless -u NONE -i NONE -n -c "luafile THIS"
-- Exits 0 when every check passes, 1 with the failures printed otherwise.
local binary = os.getenv('HOTLINES_BINARY')
local fixtures = assert(os.getenv('HOTLINES_FIXTURES'), 'HOTLINES_FIXTURES is not set')
local root = fixtures .. '/java-shop'
local source = root .. '/src/main/java/org/acme/shop/Pricing.java'
local failures = {}

local function check(ok, what)
  if not ok then
    table.insert(failures, what)
    io.stderr:write('FAIL: ' .. what .. '\n')
  else
    io.stderr:write('ok: ' .. what .. '\n')
  end
end

local function finish()
  io.stderr:write(#failures == 0 and 'all checks passed\n' or (#failures .. ' failed\n'))
  vim.cmd(#failures == 0 and 'qall!' or 'cquit 1')
end

local client_id = vim.lsp.start_client({
  name = 'hotlines',
  cmd = { binary, 'serve' },
  root_dir = root,
  -- A profile named in the settings is loaded at start (relative to the root).
  init_options = { profiles = { 'profiles/ap-cpu.jfr' } },
})
check(client_id ~= nil, 'the client starts')
local client = vim.lsp.get_client_by_id(client_id)

vim.cmd('edit ' .. source)
vim.bo.readonly = false -- the fixture is read-only on disk; the test edits the buffer only
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client_id)
check(vim.wait(10000, function() return client.initialized end, 50), 'the server initializes')

local function request(method, params)
  local response = client.request_sync(method, params, 10000, buf)
  if not response then return nil, 'timeout' end
  return response.result, response.err
end

local loaded = vim.wait(20000, function()
  local r = request('hotlines/profiles', {})
  return r and #r.profiles == 1
end, 100)
check(loaded, 'the configured profile is loaded')

local doc = { uri = vim.uri_from_bufnr(buf) }

-- Inlay hints: a label per hot line, ▮ bars and the self share.
local hints = request('textDocument/inlayHint', {
  textDocument = doc,
  range = { start = { line = 0, character = 0 }, ['end'] = { line = 60, character = 0 } },
})
local labels = {}
for _, h in ipairs(hints or {}) do labels[h.position.line] = h.label end
check(labels[14] == '▮▮▮▯ 4.2% cpu', 'line 15 has the hint "▮▮▮▯ 4.2% cpu" (got ' .. tostring(labels[14]) .. ')')
check(labels[31] == '▮▮▮▮ 7.2% cpu', 'line 32 has the hint "▮▮▮▮ 7.2% cpu" (got ' .. tostring(labels[31]) .. ')')

-- Code lenses above the methods.
local lenses = request('textDocument/codeLens', { textDocument = doc }) or {}
local titles = {}
for _, l in ipairs(lenses) do titles[l.range.start.line] = l.command.title end
check(titles[11] == 'cpu 25.8% total · 4.2% self · 652 samples',
  'a lens above discount (got ' .. tostring(titles[11]) .. ')')

-- Hover on line 15: every event, callers and callees.
local hover = request('textDocument/hover', { textDocument = doc, position = { line = 14, character = 10 } })
local text = hover and hover.contents and hover.contents.value or ''
check(text:find('| cpu | 4.2% (105) | 25.7% (650) |', 1, true) ~= nil, 'hover shows line 15 self and total')
check(text:find('21.9% org.acme.shop.Main.main:23', 1, true) ~= nil, 'hover shows the caller Main.main:23')

-- The hottest line of the main thread (which calls discount directly) is line 15: select the
-- thread through workspace/executeCommand, as any editor can.
local _, err = request('workspace/executeCommand',
  { command = 'hotlines.selectThreads', arguments = { { threads = { 'DestroyJavaVM' } } } })
check(err == nil, 'hotlines.selectThreads succeeds')
hints = request('textDocument/inlayHint', {
  textDocument = doc,
  range = { start = { line = 0, character = 0 }, ['end'] = { line = 60, character = 0 } },
}) or {}
local best_line, best = nil, -1
for _, h in ipairs(hints) do
  local pct = tonumber(h.label:match('([%d.]+)%%'))
  if pct and pct > best and not h.label:find('total') then best, best_line = pct, h.position.line end
end
check(best_line == 14, 'line 15 is the hottest line of the main thread (got ' .. tostring(best_line and best_line + 1) .. ')')
check(best == 13.4, 'line 15 holds 13.4% of the main thread (got ' .. tostring(best) .. ')')

-- Edits move annotations: three lines above line 15 put its hint on line 18.
vim.api.nvim_buf_set_lines(buf, 14, 14, false, { '// a', '// b', '// c' })
vim.wait(200)
hints = request('textDocument/inlayHint', {
  textDocument = doc,
  range = { start = { line = 0, character = 0 }, ['end'] = { line = 60, character = 0 } },
}) or {}
labels = {}
for _, h in ipairs(hints) do labels[h.position.line] = h.label end
check(labels[17] ~= nil and labels[14] == nil, 'after inserting three lines the hint is on line 18')

vim.lsp.stop_client(client_id)
finish()
