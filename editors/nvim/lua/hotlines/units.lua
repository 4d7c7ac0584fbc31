-- Weights in their unit by the server's one rule (server/engine/units.cc, README "Units"):
-- bytes as B, KiB, MiB, GiB, TiB and nanoseconds as ns, µs, ms, s; scaled values with 2
-- decimals rounded half away from zero on the exact integer, unscaled ones as integers.
local M = {}

local TIME_UNITS = { 'ns', 'µs', 'ms', 's' }
local BYTE_UNITS = { 'B', 'KiB', 'MiB', 'GiB', 'TiB' }

---|w| in the largest unit it reaches; a value that rounds to `step` (1024.00 KiB) moves up a
---unit. Exact for |w| < 2^53 (Lua numbers are doubles).
local function scaled(w, step, labels)
  w = w >= 0 and math.floor(w + 0.5) or -math.floor(-w + 0.5)
  local a = math.abs(w)
  if a < step then return string.format('%.0f %s', w == 0 and 0 or w, labels[1]) end
  local i, div = 1, 1
  while i < #labels and a >= div * step do
    div, i = div * step, i + 1
  end
  local function hundredths()
    local q = math.floor(a / div)
    local r = a - q * div
    if r < 0 then
      q, r = q - 1, r + div
    elseif r >= div then
      q, r = q + 1, r - div
    end
    return q * 100 + math.floor((r * 100 + div / 2) / div)
  end
  local h = hundredths()
  if h >= step * 100 and i < #labels then
    div, i = div * step, i + 1
    h = hundredths()
  end
  return string.format('%s%.0f.%02d %s', w < 0 and '-' or '', math.floor(h / 100), h % 100, labels[i])
end

---A weight in its unit: "2.03 GiB", "1.50 µs", "999 B"; other units as "<integer> <unit>".
---@param w number
---@param unit string|nil "bytes", "nanoseconds" (or "ns"), "samples", ...
---@return string
function M.format_weight(w, unit)
  if unit == 'nanoseconds' or unit == 'ns' then return scaled(w, 1000, TIME_UNITS) end
  if unit == 'bytes' then return scaled(w, 1024, BYTE_UNITS) end
  return string.format('%d %s', w, unit or '')
end

return M
