-- `:HotlinesReport`: the resolution report (hotlines/resolutionReport) in a scratch
-- buffer: how much weight resolves to workspace files, the unresolved frames and the
-- suggested path remaps.
local client = require('hotlines.client')
local heat = require('hotlines.heat')
local scratch = require('hotlines.scratch')

local M = {}

---The report as text lines.
---@param r table the hotlines/resolutionReport result
---@return string[]
function M.lines(r)
  local out = {
    string.format('hotlines resolution report (%s)', r.event),
    string.format('resolved   %s in %d functions', heat.percent(r.resolved.pct), r.resolved.functions),
    string.format('unresolved %s in %d functions', heat.percent(r.unresolved.pct), r.unresolved.functions),
    string.format('external   %s in %d functions', heat.percent(r.external.pct), r.external.functions),
    'roots: ' .. table.concat(r.roots or {}, ', '),
  }
  if r.warning and r.warning ~= '' then table.insert(out, 'warning: ' .. r.warning) end
  if #(r.topUnresolved or {}) > 0 then
    table.insert(out, '')
    table.insert(out, 'unresolved frames:')
    for _, u in ipairs(r.topUnresolved) do
      table.insert(out, string.format('  %6s  %s  (%s: %s)', heat.percent(u.totalPct), u.name, u.recorded, u.reason))
    end
  end
  if #(r.failingPrefixes or {}) > 0 then
    table.insert(out, '')
    table.insert(out, 'suggested remaps (settings.pathRemaps):')
    for _, p in ipairs(r.failingPrefixes) do
      local remap = p.suggestedRemap
      if remap and remap ~= vim.NIL then
        table.insert(out, string.format('  %s -> %s  (resolves %d files)', remap.from, remap.to, p.wouldResolve))
      end
    end
  end
  return out
end

---Opens the report of the active profile.
---@param done fun(err: table|nil, buf: integer|nil)|nil
function M.show(done)
  client.with(function(c)
    client.request(c, 'hotlines/resolutionReport', vim.empty_dict(), function(err, r)
      if client.failed(err, 'report') then
        if done then done(err) end
        return
      end
      local buf = scratch.buffer('hotlines://report')
      scratch.set_lines(buf, M.lines(r))
      scratch.show(buf, 'split')
      if done then done(nil, buf) end
    end)
  end)
end

return M
