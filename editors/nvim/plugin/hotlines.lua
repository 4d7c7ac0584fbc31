-- The :Hotlines* commands. Nothing else runs at startup: each command requires its module
-- on first use (and runs setup() with the defaults if the user has not called it).
if vim.g.loaded_hotlines or vim.fn.has('nvim-0.7') ~= 1 then return end
vim.g.loaded_hotlines = true

---Defines `:name` running `fn(opts)` after setup.
local function command(name, fn, opts)
  opts = opts or {}
  vim.api.nvim_create_user_command(name, function(o)
    require('hotlines').ensure()
    fn(o)
  end, opts)
end

command('HotlinesToggle', function() require('hotlines.heat').toggle() end, { desc = 'hotlines: show or hide heat' })
command('HotlinesRefresh', function() require('hotlines.heat').refresh_all() end, { desc = 'hotlines: redraw heat' })
command('HotlinesLoad', function(o) require('hotlines.view').load(o.args) end, {
  nargs = '?',
  complete = function(lead) return require('hotlines.view').complete_profiles(lead) end,
  desc = 'hotlines: load a profile',
})
command('HotlinesEvent', function(o) require('hotlines.view').event(o.args) end, {
  nargs = 1,
  complete = function() return require('hotlines.view').event_names() end,
  desc = 'hotlines: the event shown',
})
command('HotlinesThreads', function(o) require('hotlines.view').threads(o.fargs) end, {
  nargs = '*',
  complete = function() return require('hotlines.view').thread_names() end,
  desc = 'hotlines: the threads shown (none: pick)',
})
command('HotlinesState', function(o) require('hotlines.view').states(o.fargs) end, {
  nargs = '*',
  complete = function() return require('hotlines.view').state_names() end,
  desc = 'hotlines: the thread states shown (none: pick)',
})
command('HotlinesWindow', function(o) require('hotlines.view').window(o.fargs[1], o.fargs[2]) end, {
  nargs = '*',
  desc = 'hotlines: time window {from} {to} (none: all)',
})
command('HotlinesBaseline', function(o) require('hotlines.view').baseline(o.args) end, {
  nargs = '?',
  complete = function(lead) return require('hotlines.view').complete_profiles(lead) end,
  desc = 'hotlines: diff against a baseline profile (none: clear)',
})
command('HotlinesHot', function() require('hotlines.hotlist').hot_methods() end, { desc = 'hotlines: hot methods' })
command('HotlinesHotLines', function() require('hotlines.hotlist').hot_lines() end, { desc = 'hotlines: hot lines' })
command(
  'HotlinesCallers',
  function() require('hotlines.hotlist').calls('hotlines/callers') end,
  { desc = 'hotlines: callers of the line or method under the cursor' }
)
command(
  'HotlinesCallees',
  function() require('hotlines.hotlist').calls('hotlines/callees') end,
  { desc = 'hotlines: callees of the line or method under the cursor' }
)
command(
  'HotlinesProfileTest',
  function() require('hotlines.run').profile_test() end,
  { desc = 'hotlines: profile the test under the cursor' }
)
command('HotlinesProfileCancel', function() require('hotlines.run').cancel() end, { desc = 'hotlines: stop the run' })
command('HotlinesReport', function() require('hotlines.report').show() end, { desc = 'hotlines: resolution report' })
command(
  'HotlinesFlame',
  function() require('hotlines.flame').open() end,
  { desc = 'hotlines: flame graph in the browser' }
)
