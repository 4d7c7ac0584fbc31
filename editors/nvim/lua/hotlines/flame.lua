-- `:HotlinesFlame`: writes the active profile's HTML flame graph with the CLI
-- (`hotlines flamegraph PROFILE -o OUT.html`) and opens it with `open_cmd` (xdg-open).
-- Frames link to files (--link file); the server-side loopback view is not built yet.
local client = require('hotlines.client')
local config = require('hotlines.config')
local heat = require('hotlines.heat')

local M = {}

---@param done fun(err: string|nil, html: string|nil)|nil called when the page is written
function M.open(done)
  client.with(function(c)
    local path = heat.last_profile and heat.last_profile.path
    if not path then
      local r = client.request_sync(c, 'hotlines/profiles', vim.empty_dict(), 2000)
      local ps = r and r.profiles or {}
      path = ps[#ps] and ps[#ps].path
    end
    if not path then
      vim.notify('hotlines: no profile loaded', vim.log.levels.WARN)
      if done then done('no profile') end
      return
    end
    local out = vim.fn.tempname() .. '.html'
    local cmd = { config.get().cmd[1], 'flamegraph', path, '-o', out, '--link', 'file', '--root', c.config.root_dir }
    vim.fn.jobstart(cmd, {
      on_exit = function(_, code)
        if code ~= 0 then
          vim.notify('hotlines: flamegraph failed (exit ' .. code .. ')', vim.log.levels.ERROR)
          if done then done('exit ' .. code) end
          return
        end
        local open = vim.deepcopy(config.get().open_cmd)
        table.insert(open, out)
        vim.fn.jobstart(open, { detach = true })
        if done then done(nil, out) end
      end,
    })
  end)
end

return M
