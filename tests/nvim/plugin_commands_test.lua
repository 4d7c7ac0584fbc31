-- The plugin's commands on java-shop against the real server: completion of :HotlinesLoad
-- and :HotlinesEvent, :HotlinesLoad, :HotlinesEvent, :HotlinesBaseline (diff heat from
-- the server's `delta`), :HotlinesHot / :HotlinesHotLines / :HotlinesCallers quickfix lists
-- in the server's order, :HotlinesReport, :HotlinesFlame and :checkhealth hotlines.
local dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local t = dofile(dir .. '/lib/plugin_harness.lua')

local function qf_title_wait(prefix)
  return t.wait(20000, function() return vim.fn.getqflist({ title = 1 }).title:find(prefix, 1, true) == 1 end)
end

local function pct(w, total) return string.format('%.1f%%', 100 * w.value / total.value) end

t.run(function()
  local opened_file = vim.fn.tempname()
  t.setup({
    settings = { profiles = { 'profiles/ap-cpu.jfr' } },
    -- Written aside, then renamed: the test must never read a half-written file.
    open_cmd = { 'sh', '-c', 'printf "%s\\n" "$1" > "$0.part" && mv "$0.part" "$0"', opened_file },
  })
  vim.cmd('cd ' .. t.java_shop)
  local buf = t.open(t.pricing)
  local heat = require('hotlines.heat')
  local uri = vim.uri_from_bufnr(buf)

  -- :HotlinesLoad completes profile files only (not the .jfc settings beside them).
  local files = vim.fn.getcompletion('HotlinesLoad profiles/', 'cmdline')
  t.check(
    vim.tbl_contains(files, 'profiles/ap-cpu.jfr')
      and vim.tbl_contains(files, 'profiles/ap-cpu.jfr.gz')
      and vim.tbl_contains(files, 'profiles/ap-cpu.collapsed')
      and not vim.tbl_contains(files, 'profiles/README-settings-alloc-lock.jfc'),
    ':HotlinesLoad completes profiles (got ' .. table.concat(files, ' ') .. ')'
  )

  -- :HotlinesLoad without a path offers the profile files under the root (cancelled here).
  local offered
  local select = vim.ui.select
  vim.ui.select = function(items, _, choose)
    offered = items
    choose(nil)
  end
  vim.cmd('HotlinesLoad')
  vim.ui.select = select
  t.check(
    offered
      and vim.tbl_contains(offered, t.java_shop .. '/profiles/ap-cpu.jfr')
      and not vim.tbl_contains(offered, t.java_shop .. '/profiles/README-settings-alloc-lock.jfc'),
    ":HotlinesLoad without a path offers the root's profiles (" .. #(offered or {}) .. ')'
  )

  -- :HotlinesLoad a profile with three events; :HotlinesEvent completes them from the server.
  local seq = heat.seq
  vim.cmd('HotlinesLoad profiles/ap-multi.jfr')
  t.check(t.wait_redraw(buf, seq, 20000), ':HotlinesLoad redraws')
  local ann = t.marks_match_server(buf, 'ap-multi.jfr')
  t.check(ann.total.count == 672, "the heat is ap-multi's cpu (672 samples, got " .. ann.total.count .. ')')
  local events = {}
  for _, e in ipairs(t.server(buf, 'hotlines/events').events) do
    table.insert(events, e.name)
  end
  local completed = vim.fn.getcompletion('HotlinesEvent ', 'cmdline')
  t.check(
    #events == 3 and vim.deep_equal(completed, events),
    ":HotlinesEvent completes the server's events (" .. table.concat(completed, ' ') .. ')'
  )
  seq = heat.seq
  vim.cmd('HotlinesEvent alloc')
  t.check(t.wait_redraw(buf, seq), ':HotlinesEvent redraws')
  ann = t.marks_match_server(buf, 'event alloc')
  -- Line 23 allocates through the JDK's string building: its weight is all total.
  t.check(
    ann.event == 'alloc' and t.marks(buf)[23] ~= nil and t.marks(buf)[23].text:find(' alloc total$') ~= nil,
    "alloc heat is on labels' line 23 (got " .. vim.inspect(t.marks(buf)[23]) .. ')'
  )
  seq = heat.seq
  vim.cmd('HotlinesEvent cpu')
  t.check(t.wait_redraw(buf, seq), 'back to cpu')

  -- :HotlinesBaseline ap-cpu.jfr: ap-multi stays the profile shown, marks show the change.
  seq = heat.seq
  vim.cmd('HotlinesBaseline profiles/ap-cpu.jfr')
  t.check(
    t.wait(20000, function()
      local st = heat.buffers[buf]
      return st.seq > seq and st.drawn_seq == st.seq and st.result.lines[1].delta ~= nil
    end),
    ':HotlinesBaseline redraws with deltas'
  )
  ann = t.server(buf, 'hotlines/fileAnnotations', { textDocument = { uri = uri } })
  t.check(ann.total.count == 672, 'ap-multi is still the profile shown (' .. ann.total.count .. ' samples)')
  local line15
  for _, l in ipairs(ann.lines) do
    if l.line == 15 then line15 = l end
  end
  t.check(
    line15 and line15.baseline and line15.baseline.self.count == 105,
    "the server's baseline of line 15 is ap-cpu's 105 samples"
  )
  local want = string.format('%s%.1f%% cpu vs baseline', line15.delta > 0 and '+' or '', line15.delta)
  t.check(
    want == '+0.5% cpu vs baseline' and t.marks(buf)[15] and t.marks(buf)[15].text == want,
    'line 15 reads "' .. want .. '" (got ' .. vim.inspect(t.marks(buf)[15]) .. ')'
  )
  local m15
  for _, m in ipairs(heat.marks_for(heat.buffers[buf].result)) do
    if m.line == 15 then m15 = m end
  end
  t.check(m15 and m15.sign_hl:find('^HotlinesSlower') ~= nil, 'a line that got slower is drawn HotlinesSlower*')
  seq = heat.seq
  vim.cmd('HotlinesBaseline')
  t.check(t.wait_redraw(buf, seq), ':HotlinesBaseline without a path redraws')
  t.marks_match_server(buf, 'baseline cleared')

  -- OTLP as async-profiler's jfrconv wrote it from ap-multi.jfr: completed, loaded and drawn
  -- like the JFR (the same 672 cpu samples, line 15 hot).
  files = vim.fn.getcompletion('HotlinesLoad profiles/async-profiler-outputs/', 'cmdline')
  t.check(
    vim.tbl_contains(files, 'profiles/async-profiler-outputs/ap-multi-cpu-lines.otlp'),
    ':HotlinesLoad completes .otlp files (got ' .. table.concat(files, ' ') .. ')'
  )
  seq = heat.seq
  vim.cmd('HotlinesLoad profiles/async-profiler-outputs/ap-multi-cpu-lines.otlp')
  t.check(t.wait_redraw(buf, seq, 20000), ':HotlinesLoad of an .otlp file redraws')
  ann = t.marks_match_server(buf, 'ap-multi-cpu-lines.otlp')
  t.check(ann.total.count == 672, 'the OTLP heat is 672 cpu samples (got ' .. ann.total.count .. ')')
  t.check(t.marks(buf)[15] ~= nil, 'line 15 is marked from the OTLP profile')

  -- Back to ap-cpu.jfr for the lists (loading it again makes it the active profile).
  seq = heat.seq
  vim.cmd('HotlinesLoad profiles/ap-cpu.jfr')
  t.check(t.wait_redraw(buf, seq, 20000), 'ap-cpu.jfr again')

  -- :HotlinesHot: the server's hot methods that resolve, in its order, at resolveFrame's line.
  vim.cmd('HotlinesHot')
  t.check(qf_title_wait('hotlines: hot methods (cpu)'), ':HotlinesHot fills the quickfix list')
  local hot = t.server(buf, 'hotlines/hotMethods', { limit = 50 })
  local expect = {}
  for _, m in ipairs(hot.methods) do
    local f = t.server(buf, 'hotlines/resolveFrame', { ['function'] = m.name })
    if f.status == 'resolved' then
      table.insert(expect, {
        file = vim.uri_to_fname(f.location.uri),
        lnum = f.location.range.start.line + 1,
        text = m.name .. '  self ' .. pct(m.self, hot.total) .. ' · total ' .. pct(m.total, hot.total),
      })
    end
  end
  local qf = vim.fn.getqflist()
  local same = #qf == #expect and #qf >= 3
  for i, e in ipairs(expect) do
    local q = qf[i]
    if not q or vim.api.nvim_buf_get_name(q.bufnr) ~= e.file or q.lnum ~= e.lnum or q.text ~= e.text then
      same = false
    end
  end
  t.check(
    same,
    ":HotlinesHot entries equal the server's hot methods and locations ("
      .. #qf
      .. ' entries, first: '
      .. (qf[1] and qf[1].text or '-')
      .. ')'
  )
  t.check(
    qf[1] and qf[1].text:find('^org%.acme%.shop%.Pricing%.cached ') ~= nil and qf[1].lnum == 32,
    'the hottest method by self is Pricing.cached at line 32 (got '
      .. (qf[1] and (qf[1].text .. ':' .. qf[1].lnum) or '-')
      .. ')'
  )

  -- :HotlinesHotLines: lines of the workspace files by self, the server's numbers.
  vim.cmd('HotlinesHotLines')
  t.check(qf_title_wait('hotlines: hot lines (cpu)'), ':HotlinesHotLines fills the quickfix list')
  qf = vim.fn.getqflist()
  local rows = {}
  for _, f in ipairs({ t.pricing, t.java_shop .. '/src/main/java/org/acme/shop/Main.java' }) do
    local a = t.server(buf, 'hotlines/fileAnnotations', { textDocument = { uri = vim.uri_from_fname(f) } })
    for _, l in ipairs(a.lines) do
      if 100 * l.self.value / a.total.value >= 1 then
        table.insert(rows, { file = f, line = l.line, self = l.self.value })
      end
    end
  end
  table.sort(rows, function(a, b)
    if a.self ~= b.self then return a.self > b.self end
    return a.file < b.file or (a.file == b.file and a.line < b.line)
  end)
  same = #qf == #rows and #rows >= 2
  for i, r in ipairs(rows) do
    if not qf[i] or vim.api.nvim_buf_get_name(qf[i].bufnr) ~= r.file or qf[i].lnum ~= r.line then same = false end
  end
  t.check(
    same,
    ":HotlinesHotLines lists the server's lines of Pricing.java and Main.java by self (" .. #qf .. ' entries)'
  )
  t.check(
    qf[1] and qf[1].lnum == 32 and qf[1].text:find('^self 7%.2%% · total') ~= nil,
    'the hottest line is Pricing.java:32 with self 7.2% (got '
      .. (qf[1] and (qf[1].lnum .. ' ' .. qf[1].text) or '-')
      .. ')'
  )

  -- :HotlinesCallers on line 15: the callers the server computes, Main.main:23 first.
  vim.cmd('cclose')
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { 15, 0 })
  vim.cmd('HotlinesCallers')
  t.check(qf_title_wait('hotlines: callers of Pricing.java:15'), ':HotlinesCallers fills the quickfix list')
  qf = vim.fn.getqflist()
  local tree = t.server(buf, 'hotlines/callers', { uri = uri, line = 15, lines = true, maxDepth = 2 })
  local depth1 = {}
  for _, n in ipairs(tree.nodes) do
    if n.depth == 1 then table.insert(depth1, n) end
  end
  t.check(
    #qf == #depth1
      and #qf > 0
      and qf[1].text == pct(depth1[1].total, tree.total) .. ' ' .. depth1[1].name .. ':' .. depth1[1].line,
    ":HotlinesCallers lists the server's callers (first: " .. (qf[1] and qf[1].text or '-') .. ')'
  )
  t.check(
    qf[1]
      and qf[1].text == '21.9% org.acme.shop.Main.main:23'
      and qf[1].valid == 1
      and vim.api.nvim_buf_get_name(qf[1].bufnr):find('Main%.java$') ~= nil,
    'the first caller is Main.main:23, jumping to Main.java (got ' .. (qf[1] and qf[1].text or '-') .. ')'
  )

  -- The test under the cursor, from the server's testsInFile of PricingTest.java.
  local test_file = t.java_shop .. '/src/test/java/org/acme/shop/PricingTest.java'
  local tests = t.server(buf, 'hotlines/testsInFile', { textDocument = { uri = vim.uri_from_fname(test_file) } }).tests
  local run = require('hotlines.run')
  local lines = vim.fn.readfile(test_file)
  local at = {}
  for i, l in ipairs(lines) do
    if l:find('sum %+= p%.discount') then at.discount = i - 1 end
    if l:find('p%.labels%(') then at.labels = i - 1 end
  end
  local a, b = run.test_at(tests, at.discount), run.test_at(tests, at.labels)
  t.check(
    #tests == 2
      and a
      and a.name == 'org.acme.shop.PricingTest#discountIsFinite'
      and a.run.method == 'discountIsFinite'
      and b
      and b.name == 'org.acme.shop.PricingTest#labelsAreUnique'
      and run.test_at(tests, 0) == nil,
    'the test under the cursor: discountIsFinite, labelsAreUnique, none on line 1'
  )

  -- :HotlinesReport: the resolution report with the server's share.
  vim.api.nvim_set_current_buf(buf)
  vim.cmd('HotlinesReport')
  local report = t.server(buf, 'hotlines/resolutionReport')
  local rbuf
  t.check(
    t.wait(10000, function()
      rbuf = vim.fn.bufnr('hotlines://report')
      return rbuf ~= -1 and #vim.api.nvim_buf_get_lines(rbuf, 0, -1, false) > 3
    end),
    ':HotlinesReport opens hotlines://report'
  )
  local text = table.concat(vim.api.nvim_buf_get_lines(rbuf, 0, -1, false), '\n')
  local resolved = string.format('resolved   %.1f%% in %d functions', report.resolved.pct, report.resolved.functions)
  t.check(text:find(resolved, 1, true) ~= nil, 'the report says "' .. resolved .. '"')

  -- :HotlinesFlame: the server serves the view and asks (window/showDocument, external) to
  -- open it; open_cmd records the URL. Posting a frame to the page's `open` route (what a
  -- double-click does) makes the server send showDocument of the source: it opens here.
  vim.api.nvim_set_current_buf(buf)
  vim.cmd('HotlinesFlame')
  t.check(t.wait(20000, function() return vim.fn.filereadable(opened_file) == 1 end), ':HotlinesFlame opens the page')
  local url = vim.fn.filereadable(opened_file) == 1 and vim.fn.readfile(opened_file)[1] or ''
  t.check(url:match('^http://127%.0%.0%.1:%d+/%x+/p%d+/$') ~= nil, 'the page is served on loopback: ' .. url)
  local frame = t.server(buf, 'hotlines/resolveFrame', { ['function'] = 'org.acme.shop.Main.main' })
  local main_java = vim.uri_to_fname(frame.location.uri)
  -- As the page does: fetch the served document, then post the frame's function (its index
  -- in the document's functions) and line; the server resolves the path itself.
  local answer = vim.fn.system({
    'python3',
    '-c',
    [[
import json, sys, urllib.request
url, name, line = sys.argv[1], sys.argv[2], int(sys.argv[3])
doc = json.load(urllib.request.urlopen(url + 'document.json'))
fn = next(i for i, f in enumerate(doc['functions']) if f['name'] == name)
body = json.dumps({'frame': {'fn': fn, 'line': line}}).encode()
r = urllib.request.urlopen(urllib.request.Request(url + 'open', data=body, method='POST',
                                                  headers={'Content-Type': 'application/json'}))
print(r.read().decode())]],
    url,
    frame['function'],
    tostring(frame.line),
  })
  t.check(
    answer:find('opened Main.java:' .. frame.line, 1, true) ~= nil,
    "the page's open route answers: " .. vim.trim(answer)
  )
  t.check(
    t.wait(10000, function() return vim.api.nvim_buf_get_name(0) == main_java end),
    "the frame's source opens here"
  )
  t.check(
    vim.api.nvim_win_get_cursor(0)[1] == frame.line,
    "at the frame's line " .. frame.line .. ' (cursor ' .. vim.api.nvim_win_get_cursor(0)[1] .. ')'
  )

  -- :checkhealth hotlines: binary, server, profile, resolution all OK.
  vim.api.nvim_set_current_buf(buf)
  vim.cmd('checkhealth hotlines')
  local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  t.check(
    health:find('server: ' .. t.binary, 1, true) ~= nil and health:find('hotlines 0%.') ~= nil,
    ':checkhealth reports the binary and its version'
  )
  t.check(health:find('server running for ' .. t.java_shop, 1, true) ~= nil, ':checkhealth reports the running server')
  t.check(health:find('ap%-cpu%.jfr %(jfr, 2530 samples%)') ~= nil, ':checkhealth lists the loaded profile')
  t.check(
    health:find(string.format('%d functions resolve', report.resolved.functions), 1, true) ~= nil,
    ':checkhealth reports the resolved functions'
  )
  -- Every command has a tag in doc/hotlines.txt.
  local doc = table.concat(vim.fn.readfile(vim.api.nvim_get_runtime_file('doc/hotlines.txt', false)[1]), '\n')
  local names = vim.tbl_filter(function(n) return n:find('^Hotlines') end, vim.tbl_keys(vim.api.nvim_get_commands({})))
  local untagged = vim.tbl_filter(function(n) return not doc:find('*:' .. n .. '*', 1, true) end, names)
  t.check(
    #names >= 15 and #untagged == 0,
    #names .. ' commands, all documented with tags (missing: ' .. table.concat(untagged, ' ') .. ')'
  )
  t.check(health:find('ERROR') == nil, ':checkhealth has no error\n' .. health)
end)
