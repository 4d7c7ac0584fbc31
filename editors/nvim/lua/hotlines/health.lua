-- `:checkhealth hotlines`: the server binary and its version, a running client for the
-- current buffer, the loaded profiles and how much of the active one resolves to
-- workspace files. Works with Neovim 0.7 (require('health').report_*) and newer (vim.health).
local M = {}

local function reporter()
  local h = vim.health or require('health')
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
    info = h.info or h.report_info,
  }
end

function M.check()
  local report = reporter()
  local config = require('hotlines.config').get()
  local client = require('hotlines.client')
  report.start('hotlines')
  if vim.fn.has('nvim-0.7') == 1 then
    report.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch)
  else
    report.error('Neovim 0.7 or newer is needed')
  end
  local bin = config.cmd[1]
  if vim.fn.executable(bin) ~= 1 then
    report.error(bin .. ' not found', { 'install hotlines or set cmd in require("hotlines").setup()' })
    return
  end
  local version = vim.fn.system({ bin, '--version' })
  if vim.v.shell_error == 0 then
    report.ok('server: ' .. vim.fn.exepath(bin) .. ' (' .. vim.trim(version) .. ')')
  else
    report.error(bin .. ' --version failed: ' .. vim.trim(version))
  end
  local c = client.get()
  if not c then
    report.warn('no hotlines client for this buffer', { 'open a file of: ' .. table.concat(config.filetypes, ', ') })
    return
  end
  if not c.initialized then
    report.error('the server did not initialize (root ' .. tostring(c.config.root_dir) .. ')')
    return
  end
  report.ok('server running for ' .. tostring(c.config.root_dir) .. ' (client ' .. c.id .. ')')
  local profiles = client.request_sync(c, 'hotlines/profiles', vim.empty_dict(), 5000)
  if not profiles or #profiles.profiles == 0 then
    report.warn('no profile loaded', { ':HotlinesLoad {path}, or settings.profiles in setup()' })
    return
  end
  for _, p in ipairs(profiles.profiles) do
    report.ok(string.format('profile %s: %s (%s, %d samples)', p.profileId, p.path, p.format, p.samples))
  end
  local r, err = client.request_sync(c, 'hotlines/resolutionReport', vim.empty_dict(), 10000)
  if not r then
    report.warn('no resolution report: ' .. (err and err.message or '?'))
    return
  end
  local line = string.format(
    '%d functions resolve to workspace files (%.1f%% of %s); %d unresolved (%.1f%%)',
    r.resolved.functions,
    r.resolved.pct,
    r.event,
    r.unresolved.functions,
    r.unresolved.pct
  )
  if r.warning and r.warning ~= '' then
    report.warn(line, { r.warning, ':HotlinesReport lists the unresolved frames' })
  else
    report.ok(line)
  end
end

return M
