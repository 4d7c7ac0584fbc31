-- One `hotlines serve` client per workspace root: finds the root of a buffer, starts the
-- server with vim.lsp.start_client (Neovim 0.7 has no vim.lsp.start), attaches buffers, and
-- routes the server's hotlines/* notifications (and window/showDocument) to the feature modules. Request helpers
-- wrap client.request so callers get (err, result) and never a nil client.
local config = require('hotlines.config')

local M = {}

---@type table<string, integer> workspace root -> client id
M.by_root = {}

local uv = vim.loop

---Calls a method of an LSP client object: `client.name(...)` up to 0.10, `client:name(...)`
---from 0.11 (where the dot form is deprecated).
---@param c table
---@param name string
---@return any
function M.call(c, name, ...)
  if vim.fn.has('nvim-0.11') == 1 then return c[name](c, ...) end
  return c[name](...)
end

---The nearest folder up from `path` holding a root marker, else the file's folder.
---@param path string an absolute file path
---@return string
function M.root_for(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local markers = config.get().root_markers
  local d = dir
  while d and d ~= '' do
    for _, m in ipairs(markers) do
      if uv.fs_stat(d .. '/' .. m) then return d end
    end
    local parent = vim.fn.fnamemodify(d, ':h')
    if parent == d then break end
    d = parent
  end
  return dir
end

---Handlers of the server's notifications and requests, resolved lazily so modules load on use.
local function handlers()
  return {
    ['hotlines/profileLoaded'] = function(_, result, ctx) require('hotlines.heat').on_profile(ctx.client_id, result) end,
    ['hotlines/profileChanged'] = function(_, result, ctx) require('hotlines.heat').on_profile(ctx.client_id, result) end,
    -- Re-resolved sources (sourceRoots, pathRemaps, a new index), a changed view or baseline.
    ['hotlines/annotationsChanged'] = function(_, _, ctx) require('hotlines.heat').refresh_all(ctx.client_id) end,
    ['hotlines/runOutput'] = function(_, result, ctx) require('hotlines.run').on_output(ctx.client_id, result) end,
    ['hotlines/runFinished'] = function(_, result, ctx) require('hotlines.run').on_finished(ctx.client_id, result) end,
    -- A request: the flame graph page, or a frame double-clicked in it.
    ['window/showDocument'] = function(_, result) return require('hotlines.flame').show_document(result) end,
  }
end

---Starts (or returns) the client of `root`.
---@param root string
---@return integer|nil client id
function M.start(root)
  local id = M.by_root[root]
  local running = id and vim.lsp.get_client_by_id(id)
  -- Not lsp.client_is_stopped: in 0.7 it says true until the client has initialized.
  if running and not M.call(running, 'is_stopped') then return id end
  local cfg = config.get()
  if vim.fn.executable(cfg.cmd[1]) ~= 1 then
    vim.notify('hotlines: ' .. cfg.cmd[1] .. ' is not executable (set cmd in setup())', vim.log.levels.ERROR)
    return nil
  end
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  capabilities.window = capabilities.window or {}
  capabilities.window.showDocument = { support = true }
  id = vim.lsp.start_client({
    capabilities = capabilities,
    name = 'hotlines',
    cmd = cfg.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    -- The settings, and annotationsChanged: the server says when the heat should be redrawn.
    init_options = vim.tbl_extend('force', {}, cfg.settings, { annotationsChanged = true }),
    handlers = handlers(),
  })
  M.by_root[root] = id
  return id
end

---Attaches `bufnr` to the client of its workspace root, starting it when needed.
---@param bufnr integer
---@return integer|nil client id
function M.attach(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or vim.bo[bufnr].buftype ~= '' then return nil end
  local id = M.start(M.root_for(name))
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
    require('hotlines.heat').attach(bufnr, id)
  end
  return id
end

---The hotlines client of `bufnr`, else of the current buffer, else the only one running.
---@param bufnr integer|nil
---@return table|nil client
function M.get(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local attached = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(attached) do
    if c.name == 'hotlines' then return c end
  end
  local found
  for _, id in pairs(M.by_root) do
    local c = vim.lsp.get_client_by_id(id)
    if c and not M.call(c, 'is_stopped') then
      if found then return nil end -- several roots: the buffer must say which
      found = c
    end
  end
  return found
end

---Sends a request; `cb(err, result)` runs on the main loop. Errors are {code, message}.
---@param client table
---@param method string
---@param params table
---@param cb fun(err: table|nil, result: any)
---@param bufnr integer|nil
function M.request(client, method, params, cb, bufnr)
  local ok = M.call(client, 'request', method, params, function(err, result) cb(err, result) end, bufnr)
  if not ok then cb({ code = -1, message = 'the hotlines server is not running' }, nil) end
end

---workspace/executeCommand `name` with `arg` as arguments[0].
---@param client table
---@param name string
---@param arg table
---@param cb fun(err: table|nil, result: any)
function M.command(client, name, arg, cb)
  M.request(client, 'workspace/executeCommand', { command = name, arguments = { arg } }, cb)
end

---A blocking request (completion and health only).
---@param client table
---@param method string
---@param params table
---@param timeout_ms integer|nil
---@return any result, table|nil err
function M.request_sync(client, method, params, timeout_ms)
  local r = M.call(client, 'request_sync', method, params, timeout_ms or 5000)
  if not r then return nil, { message = 'timeout' } end
  return r.result, r.err
end

---Runs `fn(client)` with the client of the current buffer, or reports that there is none.
---@param fn fun(client: table)
function M.with(fn)
  local c = M.get()
  if not c then
    vim.notify('hotlines: no hotlines server for this buffer', vim.log.levels.WARN)
    return
  end
  fn(c)
end

---Reports a request error (nil: nothing to report). Returns true when there was one.
---@param err table|nil
---@param what string
---@return boolean
function M.failed(err, what)
  if not err then return false end
  vim.notify('hotlines: ' .. what .. ': ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
  return true
end

return M
