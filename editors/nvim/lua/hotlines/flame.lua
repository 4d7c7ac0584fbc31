-- `:HotlinesFlame`: the server's flame graph view (hotlines/openView, served on loopback)
-- in the browser. The client declares window/showDocument, so the server asks to open the
-- page (external: opened with `open_cmd`), and a frame double-clicked in the page comes
-- back as a showDocument of its source, which opens here at the frame's line.
local client = require('hotlines.client')
local config = require('hotlines.config')

local M = {}

---Opens `url` with open_cmd (detached).
---@param url string
---@return boolean started
local function open_external(url)
  local cmd = vim.deepcopy(config.get().open_cmd)
  table.insert(cmd, url)
  return vim.fn.jobstart(cmd, { detach = true }) > 0
end

---Handler of window/showDocument (server -> client request): pages go to the browser,
---sources open in the current window at the selection.
---@param params table {uri, external?, takeFocus?, selection?}
---@return table {success}
function M.show_document(params)
  if params.external then return { success = open_external(params.uri) } end
  local fname = vim.uri_to_fname(params.uri)
  local ok = pcall(vim.cmd, 'edit ' .. vim.fn.fnameescape(fname))
  if ok and params.selection then
    local line = params.selection.start.line + 1
    pcall(vim.api.nvim_win_set_cursor, 0, { math.min(line, vim.api.nvim_buf_line_count(0)), 0 })
  end
  return { success = ok }
end

---Opens the view of the profile shown.
---@param done fun(err: table|nil, url: string|nil)|nil called with the page's URL
function M.open(done)
  client.with(function(c)
    client.request(c, 'hotlines/openView', vim.empty_dict(), function(err, r)
      if client.failed(err, 'flame graph') then
        if done then done(err) end
        return
      end
      if not r.showDocument then open_external(r.url) end
      vim.notify('hotlines: flame graph at ' .. r.url)
      if done then done(nil, r.url) end
    end)
  end)
end

return M
