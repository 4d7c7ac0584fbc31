-- Scratch buffers (no file, not listed, hidden when closed) for run output and reports,
-- found again by name so a second :HotlinesReport reuses the first one's buffer.
local M = {}

---The buffer named `name`, created when missing.
---@param name string e.g. "hotlines://report"
---@return integer bufnr
function M.buffer(name)
  local existing = vim.fn.bufnr(name)
  if existing ~= -1 and vim.api.nvim_buf_is_valid(existing) then return existing end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, name)
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  return buf
end

---Replaces the lines of `buf`.
---@param buf integer
---@param lines string[]
function M.set_lines(buf, lines) vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines) end

---Appends `text` (chunks, not necessarily whole lines) to `buf`.
---@param buf integer
---@param text string
function M.append(buf, text)
  if text == '' then return end
  local parts = vim.split(text, '\n', true)
  local last = vim.api.nvim_buf_line_count(buf)
  local tail = vim.api.nvim_buf_get_lines(buf, last - 1, last, false)[1] or ''
  parts[1] = tail .. parts[1]
  vim.api.nvim_buf_set_lines(buf, last - 1, last, false, parts)
end

---Shows `buf` in a split (`how`: "split", "vsplit"; "none" does not), keeping the cursor.
---@param buf integer
---@param how string|nil
function M.show(buf, how)
  how = how or 'split'
  if how == 'none' or vim.fn.bufwinnr(buf) ~= -1 then return end
  local win = vim.api.nvim_get_current_win()
  vim.cmd((how == 'vsplit' and 'vertical ' or '') .. 'sbuffer ' .. buf)
  vim.api.nvim_set_current_win(win)
end

return M
