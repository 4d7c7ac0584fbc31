-- Per-line heat from hotlines/fileAnnotations, drawn as extmarks in one namespace: a sign
-- glyph in 5 levels, an optional line background in 10 steps, end-of-line text. With a
-- baseline set the lines carry `delta` and the marks show the change (red slower, green
-- faster). Refreshed on profile load/reload, view changes and (debounced) edits; the
-- server maps lines through unsaved edits, so its `line` is always the current line.
local client = require('hotlines.client')
local config = require('hotlines.config')
local units = require('hotlines.units')

local M = {}

M.ns = vim.api.nvim_create_namespace('hotlines')

---@class HotlinesBufState
---@field client_id integer
---@field seq integer the last request sent (M.seq); older answers are dropped
---@field timer any|nil the debounce timer of edits
---@field drawn_seq integer the request whose answer is drawn
---@field result table|nil the last fileAnnotations answer drawn

---@type table<integer, HotlinesBufState>
M.buffers = {}

---Numbers the fileAnnotations requests of all buffers (increasing, also across re-attaches).
M.seq = 0

---Whether heat is shown (`:HotlinesToggle`).
M.enabled = nil

local function enabled()
  if M.enabled == nil then M.enabled = config.get().heat.enabled end
  return M.enabled
end

---Defines the highlight groups with `highlight default`: a colour scheme (or a user) that
---sets them first wins.
function M.define_highlights()
  local h = config.get().heat
  local function hl(name, spec) vim.cmd('highlight default ' .. name .. ' ' .. spec) end
  for i = 1, 5 do
    hl('HotlinesHeat' .. i, 'guifg=' .. h.colors[i] .. ' ctermfg=' .. ({ 101, 178, 214, 208, 196 })[i])
    hl('HotlinesSlower' .. i, 'guifg=' .. h.slower[i] .. ' ctermfg=' .. ({ 95, 131, 167, 203, 203 })[i])
    hl('HotlinesFaster' .. i, 'guifg=' .. h.faster[i] .. ' ctermfg=' .. ({ 65, 71, 71, 77, 83 })[i])
  end
  for i = 1, 10 do
    hl('HotlinesLine' .. i, 'guibg=' .. h.gradient[i] .. ' ctermbg=' .. (232 + i))
  end
  hl('HotlinesText', 'guifg=' .. h.colors[4] .. ' ctermfg=208')
  hl('HotlinesTotal', 'guifg=#7f7f7f ctermfg=244')
end

---The share of `w` in `total` in percent under the configured measure (settings.measure).
---@param w table|nil {count, value}
---@param total table|nil
---@return number
function M.share(w, total)
  local measure = (config.get().settings or {}).measure or 'value'
  if not w or not total then return 0 end
  local t = total[measure] or 0
  if t == 0 then return 0 end
  return 100 * (w[measure] or 0) / t
end

---Formats a share like the server's hints: "4.2%", "<0.1%".
---@param pct number
---@return string
function M.percent(pct)
  if pct > 0 and pct < 0.05 then return '<0.1%' end
  return string.format('%.1f%%', pct)
end

---Formats a weight for text = "count" or "value".
local function amount(w, unit, kind)
  if kind == 'count' then return string.format('%d samples', w.count or 0) end
  return units.format_weight(w.value or 0, unit)
end

---Builds the marks of one fileAnnotations answer: {line (1-based), sign, sign_hl, line_hl, text, text_hl}.
---@param result table
---@return table[]
function M.marks_for(result)
  local h = config.get().heat
  local event = result.event or ''
  local marks = {}
  local diff = false
  local max_delta = 0
  for _, l in ipairs(result.lines or {}) do
    if l.delta then
      diff = true
      max_delta = math.max(max_delta, math.abs(l.delta))
    end
  end
  for _, l in ipairs(result.lines or {}) do
    local mark = { line = l.line }
    if diff then
      if math.abs(l.delta or 0) >= 0.05 and max_delta > 0 then
        local level = math.max(1, math.min(5, math.ceil(5 * math.abs(l.delta) / max_delta)))
        local group = (l.delta > 0 and 'HotlinesSlower' or 'HotlinesFaster') .. level
        mark.sign, mark.sign_hl = h.glyphs[level], group
        mark.text = string.format('%s%.1f%% %s vs baseline', l.delta > 0 and '+' or '', l.delta, event)
        mark.text_hl = group
        mark.level = level
        table.insert(marks, mark)
      end
    else
      local self_pct = M.share(l.self, result.total)
      local total_pct = M.share(l.total, result.total)
      if self_pct >= h.min_percent then
        local level = math.max(1, math.min(5, math.ceil(5 * (l.heat or 0))))
        mark.level = level
        mark.sign, mark.sign_hl = h.glyphs[level], 'HotlinesHeat' .. level
        mark.line_hl = 'HotlinesLine' .. math.max(1, math.min(10, math.ceil(10 * (l.heat or 0))))
        if h.text == 'percent' then
          mark.text = M.percent(self_pct) .. ' ' .. event
        else
          mark.text = amount(l.self, result.unit, h.text) .. ' ' .. event
        end
        mark.text_hl = 'HotlinesText'
        table.insert(marks, mark)
      elseif total_pct >= h.min_percent then
        mark.text = '↳ ' .. M.percent(total_pct) .. ' ' .. event .. ' total'
        mark.text_hl = 'HotlinesTotal'
        table.insert(marks, mark)
      end
    end
  end
  return marks
end

---Removes the heat of `bufnr`.
---@param bufnr integer
function M.clear(bufnr)
  if vim.api.nvim_buf_is_valid(bufnr) then vim.api.nvim_buf_clear_namespace(bufnr, M.ns, 0, -1) end
end

---Draws one fileAnnotations answer into `bufnr`.
---@param bufnr integer
---@param result table
function M.render(bufnr, result)
  M.clear(bufnr)
  if not enabled() then return end
  local h = config.get().heat
  local count = vim.api.nvim_buf_line_count(bufnr)
  for _, m in ipairs(M.marks_for(result)) do
    if m.line >= 1 and m.line <= count then
      local opts = { priority = 20 }
      if h.signs and m.sign then
        opts.sign_text, opts.sign_hl_group = m.sign, m.sign_hl
      end
      if h.line_background and m.line_hl then opts.line_hl_group = m.line_hl end
      if h.virtual_text and m.text then
        opts.virt_text, opts.virt_text_pos = { { m.text, m.text_hl } }, 'eol'
      end
      vim.api.nvim_buf_set_extmark(bufnr, M.ns, m.line - 1, 0, opts)
    end
  end
end

---Asks the server for the annotations of `bufnr` and draws them.
---@param bufnr integer
---@param done fun()|nil called after drawing (or when nothing is drawn)
function M.refresh(bufnr, done)
  local st = M.buffers[bufnr]
  local c = st and vim.lsp.get_client_by_id(st.client_id)
  if not c or not vim.api.nvim_buf_is_valid(bufnr) then
    if done then done() end
    return
  end
  M.seq = M.seq + 1
  local seq = M.seq
  st.seq = seq
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  client.request(c, 'hotlines/fileAnnotations', params, function(err, result)
    if st.seq == seq and vim.api.nvim_buf_is_valid(bufnr) then
      if err then
        -- No profile loaded yet (-32602) or one reloading (-32801): nothing to draw.
        st.result = nil
        M.clear(bufnr)
      else
        st.result = result
        M.render(bufnr, result)
      end
      st.drawn_seq = seq
    end
    if done then done() end
  end, bufnr)
end

-- Refreshes asked for within a few milliseconds run once: a view command's answer and the
-- server's hotlines/annotationsChanged (or profileLoaded and it) arrive back to back.
local batch -- { all = boolean, clients = { [client_id] = true }, dones = fun()[] }

local function run_batch()
  local b = batch
  batch = nil
  local pending = 1
  local function one()
    pending = pending - 1
    if pending == 0 then
      for _, done in ipairs(b.dones) do
        done()
      end
    end
  end
  for bufnr, st in pairs(M.buffers) do
    if b.all or b.clients[st.client_id] then
      pending = pending + 1
      M.refresh(bufnr, one)
    end
  end
  one()
end

---Refreshes every buffer attached to `client_id` (all buffers when nil).
---@param client_id integer|nil
---@param done fun()|nil called once all have answered
function M.refresh_all(client_id, done)
  if not batch then
    batch = { all = false, clients = {}, dones = {} }
    vim.defer_fn(run_batch, 20)
  end
  if client_id == nil then
    batch.all = true
  else
    batch.clients[client_id] = true
  end
  if done then table.insert(batch.dones, done) end
end

---A profile loaded or reloaded on `client_id`.
---@param client_id integer
---@param summary table the profile summary
function M.on_profile(client_id, summary)
  M.last_profile = summary
  M.refresh_all(client_id)
end

---Starts tracking `bufnr`: edits refresh after a pause; the first refresh runs now.
---@param bufnr integer
---@param client_id integer
function M.attach(bufnr, client_id)
  if M.buffers[bufnr] then
    M.buffers[bufnr].client_id = client_id
    return
  end
  local st = { client_id = client_id, seq = 0, drawn_seq = 0 }
  M.buffers[bufnr] = st
  -- on_lines sees every change (typing, :s, API calls); the refresh waits for a pause.
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function()
      if M.buffers[bufnr] ~= st then return true end -- detached
      vim.schedule(function() M.schedule(bufnr) end)
    end,
    on_detach = function()
      if st.timer then st.timer:close() end
      if M.buffers[bufnr] == st then M.buffers[bufnr] = nil end
    end,
  })
  M.refresh(bufnr)
end

---Refreshes `bufnr` once edits pause for heat.debounce_ms.
---@param bufnr integer
function M.schedule(bufnr)
  local st = M.buffers[bufnr]
  if not st or not vim.api.nvim_buf_is_valid(bufnr) then return end
  if not st.timer then st.timer = vim.loop.new_timer() end
  st.timer:stop()
  st.timer:start(config.get().heat.debounce_ms, 0, vim.schedule_wrap(function() M.refresh(bufnr) end))
end

---Shows or hides heat in every buffer (`:HotlinesToggle`).
function M.toggle()
  M.enabled = not enabled()
  for bufnr, st in pairs(M.buffers) do
    if M.enabled then
      if st.result then M.render(bufnr, st.result) end
      M.refresh(bufnr)
    else
      M.clear(bufnr)
    end
  end
  vim.notify('hotlines: heat ' .. (M.enabled and 'on' or 'off'))
end

return M
