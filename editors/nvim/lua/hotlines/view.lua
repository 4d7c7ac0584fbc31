-- What the editor shows: load a profile, pick the event, threads and time window, set a
-- baseline. Each changes the server's session view (workspace/executeCommand) and then
-- refreshes the heat of every attached buffer. `done` callbacks are for scripts and tests.
local client = require('hotlines.client')
local config = require('hotlines.config')
local heat = require('hotlines.heat')

local M = {}

---Calls `done(err)` once all buffers of `c` are redrawn.
local function redraw(c, done)
  heat.refresh_all(c.id, function()
    if done then done() end
  end)
end

---Profile files under `root` (by the configured extensions), relative to it.
---@param root string
---@return string[]
function M.profiles_under(root)
  local out = {}
  for _, ext in ipairs(config.get().profile_extensions) do
    for _, f in ipairs(vim.fn.globpath(root, '**/*' .. ext, false, true)) do
      table.insert(out, f)
    end
  end
  table.sort(out)
  return out
end

---`:HotlinesLoad` completion: files and folders matching the profile extensions.
---@param arglead string
---@return string[]
function M.complete_profiles(arglead)
  local out = {}
  for _, f in ipairs(vim.fn.getcompletion(arglead, 'file')) do
    if f:sub(-1) == '/' then
      table.insert(out, f)
    else
      for _, ext in ipairs(config.get().profile_extensions) do
        if f:sub(-#ext) == ext then
          table.insert(out, f)
          break
        end
      end
    end
  end
  return out
end

---Loads `path` (relative to the current directory); without a path, pick one under the root.
---@param path string|nil
---@param done fun(err: table|nil, summary: table|nil)|nil
function M.load(path, done)
  client.with(function(c)
    if not path or path == '' then
      local found = M.profiles_under(c.config.root_dir)
      if #found == 0 then
        vim.notify('hotlines: no profile files under ' .. c.config.root_dir, vim.log.levels.WARN)
        return
      end
      vim.ui.select(found, { prompt = 'Load profile' }, function(choice)
        if choice then M.load(choice, done) end
      end)
      return
    end
    local abs = vim.fn.fnamemodify(vim.fn.expand(path), ':p')
    client.request(c, 'hotlines/loadProfile', { path = abs }, function(err, summary)
      if client.failed(err, 'cannot load ' .. path) then
        if done then done(err) end
        return
      end
      heat.last_profile = summary
      vim.notify(string.format('hotlines: %s loaded (%s, %d samples)', summary.path, summary.format, summary.samples))
      redraw(c, function()
        if done then done(nil, summary) end
      end)
    end)
  end)
end

---The events of the active profile (for completion), each followed by its JFR types when it has
---several (a type's name shows only its samples: `jdk.ThreadPark` of lock), or {} when none is
---loaded.
---@return string[]
function M.event_names()
  local c = client.get()
  if not c then return {} end
  local r = client.request_sync(c, 'hotlines/events', vim.empty_dict(), 5000)
  local names = {}
  for _, e in ipairs(r and r.events or {}) do
    table.insert(names, e.name)
    if type(e.sources) == 'table' and #e.sources > 1 then
      for _, s in ipairs(e.sources) do
        if type(s) == 'string' then table.insert(names, s) end
      end
    end
  end
  return names
end

---Shows `event` of the profile (`hotlines.selectEvent`).
---@param event string
---@param done fun(err: table|nil)|nil
function M.event(event, done)
  client.with(function(c)
    client.command(c, 'hotlines.selectEvent', { event = event }, function(err)
      if client.failed(err, 'event ' .. event) then
        if done then done(err) end
        return
      end
      redraw(c, done)
    end)
  end)
end

---The thread names of the active profile, heaviest first (for completion and the picker).
---@return string[]
function M.thread_names()
  local c = client.get()
  if not c then return {} end
  local r = client.request_sync(c, 'hotlines/threads', { grouped = false, threads = {} }, 5000)
  local names = {}
  for _, t in ipairs(r and r.threads or {}) do
    table.insert(names, t.name)
  end
  return names
end

---Shows only `threads` (names, ids or patterns); none: pick one from the profile's threads.
---@param threads string[]
---@param done fun(err: table|nil)|nil
function M.threads(threads, done)
  client.with(function(c)
    local function apply(list)
      client.command(c, 'hotlines.selectThreads', { threads = list }, function(err)
        if client.failed(err, 'threads') then
          if done then done(err) end
          return
        end
        vim.notify('hotlines: threads: ' .. (#list == 0 and 'all' or table.concat(list, ', ')))
        redraw(c, done)
      end)
    end
    if threads and #threads > 0 then return apply(threads) end
    local names = M.thread_names()
    table.insert(names, 1, '(all threads)')
    vim.ui.select(names, { prompt = 'Threads' }, function(choice, idx)
      if not choice then return end
      apply(idx == 1 and {} or { choice })
    end)
  end)
end

---The thread states of the shown event's samples, most samples first (for completion and
---the picker); empty when its samples record none.
---@return string[]
function M.state_names()
  local c = client.get()
  if not c then return {} end
  local r = client.request_sync(c, 'hotlines/threads', { grouped = false }, 5000)
  local names = {}
  for _, s in ipairs(r and r.states or {}) do
    if s.name ~= '' then table.insert(names, s.name) end
  end
  return names
end

---Shows only samples in `states` (RUNNABLE, SLEEPING, ...) for the events whose samples
---record one; none: pick one of the shown event's states, or all.
---@param states string[]
---@param done fun(err: table|nil)|nil
function M.states(states, done)
  client.with(function(c)
    local function apply(list)
      client.command(c, 'hotlines.selectStates', { states = list }, function(err)
        if client.failed(err, 'states') then
          if done then done(err) end
          return
        end
        vim.notify('hotlines: thread states: ' .. (#list == 0 and 'all' or table.concat(list, ', ')))
        redraw(c, done)
      end)
    end
    if states and #states > 0 then return apply(states) end
    local names = M.state_names()
    if #names == 0 then
      vim.notify('hotlines: the shown samples record no thread state', vim.log.levels.WARN)
      if done then done(nil) end
      return
    end
    table.insert(names, 1, '(all states)')
    vim.ui.select(names, { prompt = 'Thread states' }, function(choice, idx)
      if not choice then return end
      apply(idx == 1 and {} or { choice })
    end)
  end)
end

---Limits the view to a time window (`"2s"`, `"500ms"`, epoch ms); no bounds clears it.
---@param from string|nil
---@param to string|nil
---@param done fun(err: table|nil)|nil
function M.window(from, to, done)
  client.with(function(c)
    local arg = vim.empty_dict()
    if from and from ~= '' and from ~= '-' then arg.from = from end
    if to and to ~= '' and to ~= '-' then arg.to = to end
    client.command(c, 'hotlines.setWindow', arg, function(err)
      if client.failed(err, 'window') then
        if done then done(err) end
        return
      end
      redraw(c, done)
    end)
  end)
end

---Loads `path` as the baseline (`hotlines.setBaseline`): heat shows the change of each
---line's self share. The profile shown before stays the active one (it is loaded again,
---as the server's active profile is the one loaded last). No path clears the baseline.
---@param path string|nil
---@param done fun(err: table|nil)|nil
function M.baseline(path, done)
  client.with(function(c)
    local function set(arg)
      client.command(c, 'hotlines.setBaseline', arg, function(err)
        if client.failed(err, 'baseline') then
          if done then done(err) end
          return
        end
        redraw(c, done)
      end)
    end
    if not path or path == '' then return set(vim.empty_dict()) end
    local active = client.request_sync(c, 'hotlines/profiles', vim.empty_dict(), 5000)
    local current = heat.last_profile and heat.last_profile.path
    if not current and active and #active.profiles > 0 then current = active.profiles[#active.profiles].path end
    local abs = vim.fn.fnamemodify(vim.fn.expand(path), ':p')
    client.request(c, 'hotlines/loadProfile', { path = abs }, function(err, base)
      if client.failed(err, 'cannot load ' .. path) then
        if done then done(err) end
        return
      end
      if not current or current == base.path then return set({ profileId = base.profileId }) end
      client.request(c, 'hotlines/loadProfile', { path = current }, function(err2, now)
        if client.failed(err2, 'cannot reload ' .. current) then
          if done then done(err2) end
          return
        end
        heat.last_profile = now
        set({ profileId = base.profileId })
      end)
    end)
  end)
end

return M
