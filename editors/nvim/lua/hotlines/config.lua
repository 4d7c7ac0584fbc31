-- Defaults of the hotlines Neovim plugin and the merged configuration every module reads.
-- `setup(opts)` in init.lua calls `config.set(opts)`; modules read `config.get()`.

---@class HotlinesHeatConfig
---@field enabled boolean show heat when a buffer attaches (`:HotlinesToggle` flips it)
---@field signs boolean a glyph in the sign column for lines whose self share reaches min_percent
---@field glyphs string[] the 5 sign glyphs, coolest first (1-2 cells each)
---@field line_background boolean a background on hot lines in a 10-step gradient
---@field virtual_text boolean the share at the end of the line
---@field text "percent"|"count"|"value" what the end-of-line text shows
---@field min_percent number lines below this self and total share get nothing
---@field colors string[] the 5 sign colours, coolest first
---@field gradient string[] the 10 line backgrounds, coolest first
---@field slower string[] diff colours for lines slower than the baseline (5, least first)
---@field faster string[] diff colours for lines faster than the baseline (5, least first)
---@field debounce_ms integer wait after an edit before asking the server again

---@class HotlinesConfig
---@field cmd string[] the server command
---@field filetypes string[] buffers of these filetypes start or attach a client
---@field root_markers string[] the nearest folder up holding one of these is the workspace root
---@field settings table initializationOptions: the server's `hotlines` settings (profiles, event, measure, threads, …)
---@field heat HotlinesHeatConfig
---@field hot_limit integer entries of :HotlinesHot and :HotlinesHotLines
---@field profile_extensions string[] what :HotlinesLoad completes
---@field run_env table<string,string> env added to profiled runs (e.g. GOFLAGS, JAVA_HOME)
---@field run_timeout_ms integer timeoutMs of profiled runs (0: none)
---@field run_output "split"|"vsplit"|"none" where :HotlinesProfileTest shows the run output
---@field open_cmd string[] opens the flame graph page (its URL is appended)

local M = {}

---@type HotlinesConfig
M.defaults = {
  cmd = { 'hotlines', 'serve' },
  filetypes = { 'java', 'kotlin', 'scala', 'go', 'c', 'cpp', 'rust', 'python',
    'javascript', 'typescript' },
  root_markers = {
    'pom.xml',
    'build.gradle',
    'build.gradle.kts',
    'settings.gradle',
    'settings.gradle.kts',
    'go.mod',
    'Cargo.toml',
    'CMakeLists.txt',
    'pyproject.toml',
    'setup.py',
    '.git',
  },
  settings = {},
  heat = {
    enabled = true,
    signs = true,
    glyphs = { '▁', '▃', '▄', '▆', '█' },
    line_background = false,
    virtual_text = true,
    text = 'percent',
    min_percent = 1,
    colors = { '#8a8a5c', '#c9b458', '#e5a54b', '#e57a3c', '#e0453a' },
    gradient = {
      '#2b2a22',
      '#33301f',
      '#3b341d',
      '#43371b',
      '#4b3919',
      '#533a17',
      '#5b3915',
      '#633613',
      '#6b3111',
      '#73290f',
    },
    slower = { '#6b3b3b', '#8f4444', '#b34d4d', '#d65656', '#fa5f5f' },
    faster = { '#3b5b3b', '#447044', '#4d864d', '#569b56', '#5fb05f' },
    debounce_ms = 200,
  },
  hot_limit = 50,
  profile_extensions = { '.jfr', '.jfr.gz', '.pb.gz', '.pb', '.pprof', '.otlp', '.otlp.gz', '.collapsed', '.prof' },
  run_env = {},
  run_timeout_ms = 0,
  run_output = 'split',
  open_cmd = { 'xdg-open' },
}

---@type HotlinesConfig
local current = vim.deepcopy(M.defaults)

---@param base table
---@param over table
---@return table
local islist = vim.islist or vim.tbl_islist

local function merge(base, over)
  for k, v in pairs(over) do
    local is_map = type(v) == 'table' and not islist(v)
    if is_map and type(base[k]) == 'table' and not islist(base[k]) then
      base[k] = merge(base[k], v)
    else
      base[k] = v
    end
  end
  return base
end

---Merges `opts` over the defaults (tables deeply, lists replaced).
---@param opts table|nil
function M.set(opts) current = merge(vim.deepcopy(M.defaults), opts or {}) end

---@return HotlinesConfig
function M.get() return current end

return M
