-- Profile the test under the cursor: hotlines/testsInFile finds the JUnit, Go or GoogleTest
-- test whose range holds the cursor, hotlines/run starts it, hotlines/runOutput streams into a scratch
-- buffer `hotlines://run/<runId>`, and hotlines/runFinished reports how it went; the
-- profile the run wrote is loaded by the server (profileLoaded redraws the heat).
local client = require('hotlines.client')
local config = require('hotlines.config')
local scratch = require('hotlines.scratch')
local units = require('hotlines.units')

local M = {}

---@class HotlinesRun
---@field id string
---@field client_id integer
---@field buf integer the output buffer
---@field finished table|nil the runFinished params
---@field on_finished fun(run: HotlinesRun)|nil

---@type table<string, HotlinesRun>
M.runs = {}
---@type string|nil the run started last
M.last = nil

local function run_for(client_id, run_id)
  local key = client_id .. ':' .. run_id
  local run = M.runs[key]
  if not run then
    run = { id = run_id, client_id = client_id, buf = scratch.buffer('hotlines://run/' .. run_id) }
    M.runs[key] = run
  end
  return run
end

---The innermost test of `tests` whose range holds the 0-based `line`.
---@param tests table[] from hotlines/testsInFile
---@param line integer
---@return table|nil
function M.test_at(tests, line)
  local best
  for _, t in ipairs(tests) do
    local r = t.range
    if r.start.line <= line and line <= r['end'].line then
      if not best or (r['end'].line - r.start.line) < (best.range['end'].line - best.range.start.line) then best = t end
    end
  end
  return best
end

---`:HotlinesProfileTest`: profiles the test under the cursor.
---@param on_finished fun(run: HotlinesRun)|nil called after runFinished
function M.profile_test(on_finished)
  client.with(function(c)
    local bufnr = vim.api.nvim_get_current_buf()
    local line = vim.api.nvim_win_get_cursor(0)[1] - 1
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
    client.request(c, 'hotlines/testsInFile', params, function(err, found)
      if client.failed(err, 'tests') then return end
      local test = M.test_at(found.tests or {}, line)
      if not test then
        vim.notify('hotlines: no test under the cursor', vim.log.levels.WARN)
        return
      end
      local run_params = vim.deepcopy(test.run)
      if next(config.get().run_env) then
        run_params.env = vim.tbl_extend('force', run_params.env or {}, config.get().run_env)
      end
      if config.get().run_timeout_ms > 0 then run_params.timeoutMs = config.get().run_timeout_ms end
      client.request(c, 'hotlines/run', run_params, function(err2, started)
        if client.failed(err2, 'cannot run ' .. test.name) then return end
        local run = run_for(c.id, started.runId)
        run.on_finished = on_finished
        run.test = test.name
        M.last = c.id .. ':' .. started.runId
        scratch.append(run.buf, '# ' .. test.name .. ' → ' .. started.profilePath .. '\n')
        scratch.show(run.buf, config.get().run_output)
        vim.notify('hotlines: profiling ' .. test.name)
      end)
    end)
  end)
end

---`:HotlinesProfileCancel`: stops the run started last.
function M.cancel()
  local run = M.last and M.runs[M.last]
  local c = run and vim.lsp.get_client_by_id(run.client_id)
  if not run or run.finished or not c then
    vim.notify('hotlines: no run in progress', vim.log.levels.WARN)
    return
  end
  client.request(c, 'hotlines/cancelRun', { runId = run.id }, function(err) client.failed(err, 'cancel') end)
end

---hotlines/runOutput.
function M.on_output(client_id, params) scratch.append(run_for(client_id, params.runId).buf, params.text) end

---hotlines/runFinished: reports, redraws the heat, calls the run's on_finished.
function M.on_finished(client_id, params)
  local run = run_for(client_id, params.runId)
  run.finished = params
  local msg
  if params.error and params.error ~= vim.NIL then
    msg = string.format('hotlines: run %s failed (%s): %s', params.runId, params.error.kind, params.error.message)
  else
    msg = string.format(
      'hotlines: run %s finished (exit %s, %s), profile %s loaded',
      params.runId,
      tostring(params.exitCode),
      units.format_weight((params.durationMs or 0) * 1e6, 'nanoseconds'),
      tostring(params.profileId)
    )
  end
  scratch.append(run.buf, '\n# ' .. msg:gsub('^hotlines: ', '') .. '\n')
  vim.notify(msg, params.error and params.error ~= vim.NIL and vim.log.levels.ERROR or vim.log.levels.INFO)
  require('hotlines.heat').refresh_all(client_id, function()
    if run.on_finished then run.on_finished(run) end
  end)
end

return M
