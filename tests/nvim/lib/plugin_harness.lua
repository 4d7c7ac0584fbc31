-- Shared by the plugin_*_test.lua scripts: checks that print ok/FAIL, finish() that exits
-- Neovim with the verdict, waiting helpers, and a setup of the plugin (only editors/nvim on
-- the runtimepath) against $HOTLINES_BINARY on $HOTLINES_FIXTURES (tests/fixtures).
-- Environment: HOTLINES_BINARY, HOTLINES_FIXTURES (set by tests/nvim_plugin.cmake).
local M = {}

M.binary = assert(os.getenv('HOTLINES_BINARY'), 'HOTLINES_BINARY is not set')
M.fixtures = assert(os.getenv('HOTLINES_FIXTURES'), 'HOTLINES_FIXTURES is not set')
M.java_shop = M.fixtures .. '/java-shop'
M.pricing = M.java_shop .. '/src/main/java/org/acme/shop/Pricing.java'
M.failures = {}

---Records one check.
function M.check(ok, what)
  if ok then
    io.stderr:write('ok: ' .. what .. '\n')
  else
    table.insert(M.failures, what)
    io.stderr:write('FAIL: ' .. what .. '\n')
  end
  return ok
end

---Exits 0 when every check passed, else 1.
function M.finish()
  for _, c in ipairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
    require('hotlines.client').call(c, 'stop')
  end
  io.stderr:write(#M.failures == 0 and 'all checks passed\n' or (#M.failures .. ' failed\n'))
  vim.cmd(#M.failures == 0 and 'qall!' or 'cquit 1')
end

---Runs `fn` and turns an error into a failure (so finish() always runs).
function M.run(fn)
  local ok, err = xpcall(fn, debug.traceback)
  if not ok then M.check(false, 'the script raised: ' .. tostring(err)) end
  M.finish()
end

---Waits until `cond()` is true (polling), returns whether it became true.
function M.wait(ms, cond) return vim.wait(ms, cond, 20) end

---Calls `start(done)` and waits for `done(...)`; returns its arguments.
function M.await(ms, start)
  local result
  start(function(...) result = { ... } end)
  M.wait(ms, function() return result ~= nil end)
  return unpack(result or {})
end

---Loads the plugin as a user would (runtime plugin/ + setup) with the test binary.
function M.setup(opts)
  vim.cmd('filetype on')
  vim.cmd('runtime plugin/hotlines.lua')
  M.check(vim.fn.exists(':HotlinesLoad') == 2, 'plugin/hotlines.lua defines :HotlinesLoad')
  opts = opts or {}
  opts.cmd = { M.binary, 'serve' }
  require('hotlines').setup(opts)
end

---Checks that a hotlines client starts for `buf` (and is initialized) within 10 s.
function M.client_starts(buf, what)
  M.check(M.wait(10000, function()
    local c = require('hotlines.client').get(buf)
    return c ~= nil and c.initialized
  end), what)
end

---Puts the cursor on the first line matching `pattern` (at `row_offset` lines below it, column
---`col`), runs :HotlinesProfileTest there and waits for the run to finish (240 s).
---@return table|nil run the run's state in hotlines.run (nil when it did not finish)
function M.profile_test_at(pattern, row_offset, col, what)
  local lnum = vim.fn.search(pattern)
  M.check(lnum > 0, pattern .. ' is in ' .. vim.fn.expand('%:t'))
  if lnum == 0 then return nil end
  vim.api.nvim_win_set_cursor(0, { lnum + row_offset, col })
  local run = require('hotlines.run')
  vim.cmd('HotlinesProfileTest')
  local r
  M.check(M.wait(240000, function()
    r = run.last and run.runs[run.last]
    return r ~= nil and r.finished ~= nil
  end), ':HotlinesProfileTest runs ' .. what .. ' to the end')
  if not r or not r.finished then return nil end
  return r
end

---Opens `path` (read-only fixtures: the tests edit buffers only) and waits for its first heat.
---@return integer bufnr
function M.open(path)
  vim.cmd('edit ' .. path)
  vim.bo.readonly = false
  local buf = vim.api.nvim_get_current_buf()
  local heat = require('hotlines.heat')
  M.check(
    M.wait(30000, function()
      local st = heat.buffers[buf]
      return st ~= nil and st.result ~= nil and #st.result.lines > 0
    end),
    'heat arrives for ' .. vim.fn.fnamemodify(path, ':t')
  )
  return buf
end

---A request on the plugin's own client for `buf`, answered synchronously: what the server
---computes, to compare the plugin's drawing with.
function M.server(buf, method, params)
  local c = require('hotlines.client').get(buf)
  local r = require('hotlines.client').call(c, 'request_sync', method, params or vim.empty_dict(), 20000, buf)
  assert(r and not r.err, method .. ' failed: ' .. vim.inspect(r and r.err))
  return r.result
end

---The heat extmarks of `buf`: {[line (1-based)] = text}.
function M.marks(buf)
  local out = {}
  local ns = require('hotlines.heat').ns
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
    local d = m[4]
    out[m[2] + 1] = { text = d.virt_text and d.virt_text[1][1], sign = d.sign_text and vim.trim(d.sign_text) }
  end
  return out
end

---What the marks must be for a fileAnnotations answer, computed here from the server's
---numbers: the self share of lines reaching 1%, else the total share ("↳ … total").
function M.expected_marks(ann)
  local out = {}
  local function pct(w) return 100 * w.value / ann.total.value end
  for _, l in ipairs(ann.lines) do
    if pct(l.self) >= 1 then
      out[l.line] = string.format('%.1f%% %s', pct(l.self), ann.event)
    elseif pct(l.total) >= 1 then
      out[l.line] = string.format('↳ %.1f%% %s total', pct(l.total), ann.event)
    end
  end
  return out
end

---Compares the marks of `buf` with the server's fileAnnotations (now); `what` names the check.
function M.marks_match_server(buf, what)
  local ann = M.server(buf, 'hotlines/fileAnnotations', { textDocument = { uri = vim.uri_from_bufnr(buf) } })
  local want, got = M.expected_marks(ann), M.marks(buf)
  local same = vim.tbl_count(want) == vim.tbl_count(got) and vim.tbl_count(want) > 0
  for line, text in pairs(want) do
    if not got[line] or got[line].text ~= text then same = false end
  end
  M.check(
    same,
    what
      .. ": marks equal the server's numbers (want "
      .. vim.inspect(want)
      .. ', got '
      .. vim.inspect(vim.tbl_map(function(m) return m.text end, got))
      .. ')'
  )
  return ann
end

---Waits until the plugin has drawn an answer for `buf` newer than the one it had.
---`before_seq` is require('hotlines.heat').seq before the action.
function M.wait_redraw(buf, before_seq, ms)
  local heat = require('hotlines.heat')
  return M.wait(ms or 10000, function()
    local st = heat.buffers[buf] -- a reload (:edit!) attaches the buffer anew
    return st ~= nil and st.seq > before_seq and st.drawn_seq == st.seq
  end)
end

return M
