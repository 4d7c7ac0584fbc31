-- Quickfix lists: hot methods (hotlines/hotMethods, located with hotlines/resolveFrame),
-- hot lines (the fileAnnotations of the files the hot methods resolve to, by self), and
-- the callers or callees of the line or method under the cursor (hotlines/callers|callees).
-- Entries keep the server's order; only frames that resolve to workspace files are listed.
local client = require('hotlines.client')
local config = require('hotlines.config')
local heat = require('hotlines.heat')

local M = {}

local function pct(w, total) return heat.share(w, total) end

---Sets the quickfix list and opens it.
local function show(title, items)
  vim.fn.setqflist({}, ' ', { title = title, items = items })
  if #items > 0 then vim.cmd('botright copen') end
end

---Calls `done(results)` with the answers of `method` for each of `params_list`, in order.
local function all(c, method, params_list, done)
  local results, pending = {}, #params_list
  if pending == 0 then return done(results) end
  for i, p in ipairs(params_list) do
    client.request(c, method, p, function(err, r)
      results[i] = not err and r or false
      pending = pending - 1
      if pending == 0 then done(results) end
    end)
  end
end

---Hot methods with their locations: `done(err, hot, located)` where located[i] is
---{method, location} for the methods that resolve to workspace files.
local function located_methods(c, limit, done)
  client.request(c, 'hotlines/hotMethods', { limit = limit }, function(err, hot)
    if err then return done(err) end
    local params = {}
    for _, m in ipairs(hot.methods) do
      table.insert(params, { ['function'] = m.name })
    end
    all(c, 'hotlines/resolveFrame', params, function(frames)
      local located = {}
      for i, m in ipairs(hot.methods) do
        local f = frames[i]
        if f and f.status == 'resolved' and f.location then
          table.insert(located, { method = m, location = f.location })
        end
      end
      done(nil, hot, located)
    end)
  end)
end

---`:HotlinesHot`: the hot methods by self, each entry at the method's hottest line.
---@param done fun(err: table|nil, items: table[]|nil)|nil
function M.hot_methods(done)
  client.with(function(c)
    located_methods(c, config.get().hot_limit, function(err, hot, located)
      if client.failed(err, 'hot methods') then
        if done then done(err) end
        return
      end
      local items = {}
      for _, l in ipairs(located) do
        local m = l.method
        table.insert(items, {
          filename = vim.uri_to_fname(l.location.uri),
          lnum = l.location.range.start.line + 1,
          col = 1,
          text = string.format(
            '%s  self %s · total %s',
            m.name,
            heat.percent(pct(m.self, hot.total)),
            heat.percent(pct(m.total, hot.total))
          ),
        })
      end
      show(string.format('hotlines: hot methods (%s)', hot.event), items)
      if done then done(nil, items) end
    end)
  end)
end

---The function of `functions` (fileAnnotations, by line) holding `line`.
local function function_at(functions, line)
  local name
  for _, f in ipairs(functions or {}) do
    if f.line <= line then name = f.name end
  end
  return name
end

---`:HotlinesHotLines`: the hottest lines by self of the workspace files the hot methods
---resolve to.
---@param done fun(err: table|nil, items: table[]|nil)|nil
function M.hot_lines(done)
  client.with(function(c)
    located_methods(c, 200, function(err, hot, located)
      if client.failed(err, 'hot lines') then
        if done then done(err) end
        return
      end
      local uris, seen = {}, {}
      for _, l in ipairs(located) do
        if not seen[l.location.uri] then
          seen[l.location.uri] = true
          table.insert(uris, { textDocument = { uri = l.location.uri } })
        end
      end
      all(c, 'hotlines/fileAnnotations', uris, function(files)
        local rows = {}
        for _, f in ipairs(files) do
          for _, l in ipairs(f and f.lines or {}) do
            local self_pct = pct(l.self, f.total)
            if self_pct >= config.get().heat.min_percent then
              table.insert(rows, { file = f, line = l, self_pct = self_pct })
            end
          end
        end
        table.sort(rows, function(a, b)
          if a.self_pct ~= b.self_pct then return a.self_pct > b.self_pct end
          if a.file.uri ~= b.file.uri then return a.file.uri < b.file.uri end
          return a.line.line < b.line.line
        end)
        local items = {}
        for i, r in ipairs(rows) do
          if i > config.get().hot_limit then break end
          table.insert(items, {
            filename = vim.uri_to_fname(r.file.uri),
            lnum = r.line.line,
            col = 1,
            text = string.format(
              'self %s · total %s  %s',
              heat.percent(r.self_pct),
              heat.percent(pct(r.line.total, r.file.total)),
              function_at(r.file.functions, r.line.line) or ''
            ),
          })
        end
        show(string.format('hotlines: hot lines (%s)', hot.event), items)
        if done then done(nil, items) end
      end)
    end)
  end)
end

---`:HotlinesCallers` / `:HotlinesCallees`: the line under the cursor when it is profiled,
---else the profiled method around it.
---@param method "hotlines/callers"|"hotlines/callees"
---@param done fun(err: table|nil, items: table[]|nil)|nil
function M.calls(method, done)
  client.with(function(c)
    local bufnr = vim.api.nvim_get_current_buf()
    local line = vim.api.nvim_win_get_cursor(0)[1]
    local params = { maxDepth = 2, lines = true }
    local st = heat.buffers[bufnr]
    local anchor
    local profiled = false
    for _, l in ipairs(st and st.result and st.result.lines or {}) do
      if l.line == line then profiled = true end
    end
    if profiled then
      params.uri, params.line = vim.uri_from_bufnr(bufnr), line
      anchor = vim.fn.expand('%:t') .. ':' .. line
    else
      anchor = function_at(st and st.result and st.result.functions, line)
      if not anchor then
        vim.notify('hotlines: nothing profiled under the cursor', vim.log.levels.WARN)
        if done then done({ message = 'nothing profiled' }) end
        return
      end
      params['function'] = anchor
    end
    client.request(c, method, params, function(err, tree)
      if client.failed(err, method) then
        if done then done(err) end
        return
      end
      local items = {}
      for _, n in ipairs(tree.nodes) do
        if n.depth == 1 then
          local text =
            string.format('%s %s%s', heat.percent(pct(n.total, tree.total)), n.name, n.line and (':' .. n.line) or '')
          local item = { text = text, lnum = n.line or 0, col = 1 }
          if n.uri then
            item.filename = vim.uri_to_fname(n.uri)
          else
            item.valid = 0
          end
          table.insert(items, item)
        end
      end
      local what = method == 'hotlines/callers' and 'callers' or 'callees'
      show(string.format('hotlines: %s of %s (%s)', what, anchor, tree.event), items)
      if done then done(nil, items) end
    end)
  end)
end

return M
