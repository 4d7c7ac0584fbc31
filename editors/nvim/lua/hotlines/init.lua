-- Entry point of the hotlines Neovim plugin: `require('hotlines').setup(opts)` merges the
-- configuration, defines the highlight groups and attaches buffers of the configured
-- filetypes (already open ones too) to one `hotlines serve` client per workspace root.
-- Needs Neovim 0.7 or newer.
local config = require('hotlines.config')

local M = {}

M.did_setup = false

---@param opts HotlinesConfig|table|nil see `:help hotlines-config`
function M.setup(opts)
  config.set(opts)
  M.did_setup = true
  local heat = require('hotlines.heat')
  heat.enabled = nil
  heat.define_highlights()
  local group = vim.api.nvim_create_augroup('hotlines', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = config.get().filetypes,
    callback = function(args) require('hotlines.client').attach(args.buf) end,
  })
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = group,
    callback = function() heat.define_highlights() end,
  })
  local fts = {}
  for _, ft in ipairs(config.get().filetypes) do
    fts[ft] = true
  end
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and fts[vim.bo[buf].filetype] then require('hotlines.client').attach(buf) end
  end
end

---Runs setup() with the defaults when the user has not (commands call this).
function M.ensure()
  if not M.did_setup then M.setup({}) end
end

return M
