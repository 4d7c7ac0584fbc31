// Real-client test of the editor surface: vscode-jsonrpc drives `hotlines serve` like an
// editor does (initialize with the fixture folder as root, open a source file, load a
// profile, ask for code lenses, inlay hints, hover and fileAnnotations) and every number is
// compared with the reference tools: the JDK's own parser (tests/oracles/jfr_aggregate.py)
// for JFR and `go tool pprof -list` for pprof.
// Env: HOTLINES_BINARY (the built server), HOTLINES_FIXTURES (tests/fixtures).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const rpc = require('vscode-jsonrpc/node');

const binary = process.env.HOTLINES_BINARY || path.join(__dirname, '../../build/hotlines');
const fixtures = process.env.HOTLINES_FIXTURES || path.join(__dirname, '../fixtures');
const javaRoot = path.join(fixtures, 'java-shop');
const goRoot = path.join(fixtures, 'go-shop');
const uriOf = (p) => 'file://' + p;

async function session(root) {
  const child = spawn(binary, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const notifications = [];
  conn.onNotification((method, params) => notifications.push({ method, params }));
  conn.onRequest(() => null); // refresh requests
  conn.listen();
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  await conn.sendRequest('initialize', {
    processId: process.pid, rootUri: uriOf(root),
    capabilities: { workspace: { inlayHint: { refreshSupport: true }, codeLens: { refreshSupport: true } } },
  });
  conn.sendNotification('initialized', {});
  const open = (file, languageId) => {
    const uri = uriOf(path.join(root, file));
    conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text: fs.readFileSync(path.join(root, file), 'utf8') },
    });
    return uri;
  };
  const close = async () => {
    await conn.sendRequest('shutdown');
    conn.sendNotification('exit');
    assert.equal(await exited, 0);
    conn.dispose();
  };
  // A failed assertion must not leave the server running (the test would hang until its
  // timeout): every test kills it in `finally`; after a clean close this is a no-op.
  const kill = () => child.exitCode === null && child.kill('SIGKILL');
  return { conn, open, close, kill, notifications };
}

const oracleCache = new Map();
function jfrAggregate(file, event) {
  if (!oracleCache.has(file))
    oracleCache.set(file, JSON.parse(execFileSync('python3', [path.join(__dirname, '../oracles/jfr_aggregate.py'), file],
      { maxBuffer: 1 << 28 }).toString()));
  return oracleCache.get(file)[event];
}
const thousands = (n) => n.toLocaleString('en-US');

// `go tool pprof -list` rows of one source file: line -> {flat, cum} summed over routines.
function pprofList(file, sampleIndex, unit, basename) {
  let out;
  try {
      out = execFileSync('go', ['tool', 'pprof', '-symbolize=none', '-trim_path=/build/go-shop',
      `-source_path=${goRoot}`, '-list', 'shop\\.', `-sample_index=${sampleIndex}`, `-unit=${unit}`, file],
      { env: { ...process.env, GOFLAGS: '', HOME: process.env.HOME || '/tmp' }, stdio: 'pipe' }).toString();
    } catch (e) {
      if (String(e.stderr).includes('no matches found')) return new Map(); // no shop frames
      throw e;
    }
    const rows = new Map();
    let inFile = false;
    for (const line of out.split('\n')) {
      const routine = line.match(/^ROUTINE =+ .* in (.*)$/);
      if (routine) { inFile = path.basename(routine[1]) === basename; continue; }
      const m = line.match(/^\s*(\S+)\s+(\S+)\s+(\d+):/);
      if (!inFile || !m) continue;
      const amount = (s) => (s === '.' ? 0 : Number(s.replace(/[A-Za-z]+$/, '')));
      const r = rows.get(Number(m[3])) || { flat: 0, cum: 0 };
      r.flat += amount(m[1]);
      r.cum += amount(m[2]);
      rows.set(Number(m[3]), r);
    }
    return rows;
  }

  const pct = (part, whole) => (Math.round((1000 * part) / whole) / 10).toFixed(1);

  test('java-shop: code lenses, inlay hints, hover and fileAnnotations equal the JDK parser', async () => {
    const profile = path.join(javaRoot, 'profiles/ap-multi.jfr');
    const { conn, open, close, kill, notifications } = await session(javaRoot);
  try {
    const uri = open('src/main/java/org/acme/shop/Pricing.java', 'java');
    const loaded = await conn.sendRequest('hotlines/loadProfile', { path: 'profiles/ap-multi.jfr' });
    assert.deepEqual(loaded.events.map((e) => e.name).sort(), ['alloc', 'cpu', 'lock']);
    // The notification follows the answer.
    for (let i = 0; i < 100 && !notifications.some((n) => n.method === 'hotlines/profileLoaded'); i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.ok(notifications.some((n) => n.method === 'hotlines/profileLoaded'));

    for (const event of ['cpu', 'alloc', 'lock']) {
      const oracle = jfrAggregate(profile, event);
      const ann = await conn.sendRequest('hotlines/fileAnnotations', { textDocument: { uri }, event });
      assert.equal(ann.total.count, oracle.count, `${event} count`);
      assert.equal(ann.total.value, oracle.weight, `${event} value`);
      const want = new Map();
      for (const [k, v] of Object.entries(oracle.lines_total)) {
        const m = k.match(/^org\/acme\/shop\/Pricing\.java:(\d+)$/);
        if (m) want.set(Number(m[1]), {
          self: oracle.lines_self[k] || 0, total: v,
          selfValue: oracle.lines_self_value[k] || 0, totalValue: oracle.lines_total_value[k],
        });
      }
      assert.ok(want.size > 0, `${event}: the oracle has Pricing.java lines`);
      const got = new Map(ann.lines.map((l) => [l.line, {
        self: l.self.count, total: l.total.count, selfValue: l.self.value, totalValue: l.total.value,
      }]));
      assert.deepEqual(got, want, `${event}: Pricing.java per-line self/total equal the JFR oracle`);
    }

    // The editor's view: cpu (the default event). Hints and lenses show the same numbers.
    const cpu = jfrAggregate(profile, 'cpu');
    const hints = await conn.sendRequest('textDocument/inlayHint', {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 80, character: 0 } },
    });
    const line32 = hints.find((h) => h.position.line === 31);
    assert.equal(line32.label.replace(/^\S+ /, ''), `${pct(cpu.lines_self['org/acme/shop/Pricing.java:32'], cpu.count)}% cpu`);
    const lenses = await conn.sendRequest('textDocument/codeLens', { textDocument: { uri } });
    const cached = lenses.find((l) => l.range.start.line === 27);
    const cachedTotal = cpu.total['org.acme.shop.Pricing.cached'];
    assert.equal(cached.command.title,
      `cpu ${pct(cachedTotal, cpu.count)}% total · ${pct(cpu.self['org.acme.shop.Pricing.cached'] || 0, cpu.count)}% self · ${cachedTotal} samples`);
    const hover = await conn.sendRequest('textDocument/hover', {
      textDocument: { uri }, position: { line: 22, character: 10 },
    });
    // Line 23 in every event of the profile.
    const alloc = jfrAggregate(profile, 'alloc');
    const k23 = 'org/acme/shop/Pricing.java:23';
    assert.match(hover.contents.value, new RegExp(`\\| cpu \\| [^|]+ \\| ${pct(cpu.lines_total[k23], cpu.count)}% \\(${thousands(cpu.lines_total[k23])}\\) \\|`));
    assert.match(hover.contents.value, new RegExp(`\\| alloc \\| [^|]+ \\| ${pct(alloc.lines_total_value[k23], alloc.weight)}% \\(${thousands(alloc.lines_total[k23])}\\) \\|`));
    await close();
  } finally {
    kill();
  }
});

test('go-shop: fileAnnotations and inlay hints equal go tool pprof -list, paths recorded under /build', async () => {
  const { conn, open, close, kill } = await session(goRoot);
  try {
    const uri = open('internal/shop/shop.go', 'go');
    // pprof sample types pair into events: the count measure of `cpu` is pprof's `samples`,
    // its value `cpu` (ns); `alloc` is alloc_objects and alloc_space; `inuse` likewise.
    const types = {
      'cpu.pprof': [['samples', 'samples', 'cpu', 'count'], ['cpu', 'ns', 'cpu', 'value']],
      'mem.pprof': [['alloc_space', 'B', 'alloc', 'value'], ['alloc_objects', 'count', 'alloc', 'count'],
        // No shop.go frame holds memory at the end of the test: both tools list nothing.
        ['inuse_space', 'B', 'inuse', 'value'], ['inuse_objects', 'count', 'inuse', 'count']],
    };
    for (const file of Object.keys(types)) {
      const loaded = await conn.sendRequest('hotlines/loadProfile', { path: path.join('profiles', file) });
      for (const [sampleIndex, unit, event, measure] of types[file]) {
        const list = pprofList(path.join(goRoot, 'profiles', file), sampleIndex, unit, 'shop.go');
        const ann = await conn.sendRequest('hotlines/fileAnnotations',
          { textDocument: { uri }, profileId: loaded.profileId, event });
        const got = new Map(ann.lines.filter((l) => l.total[measure] > 0)
          .map((l) => [l.line, { flat: l.self[measure], cum: l.total[measure] }]));
        const want = new Map([...list].filter(([, r]) => r.cum > 0));
        if (event !== 'inuse') assert.ok(want.size > 0, `${file} ${sampleIndex}: pprof lists shop.go lines`);
        assert.deepEqual(got, want, `${file} ${sampleIndex}: shop.go per-line flat/cum equal go tool pprof -list`);
      }
    }
    // The cpu profile's hot line: shop.go:13 (Discount).
    // Unloading the memory profile makes the cpu profile the active one again.
    const profiles = await conn.sendRequest('hotlines/profiles');
    assert.equal(profiles.profiles.length, 2);
    await conn.sendRequest('workspace/executeCommand',
      { command: 'hotlines.unloadProfile', arguments: [{ profileId: profiles.profiles[1].profileId }] });
    await conn.sendRequest('workspace/executeCommand', { command: 'hotlines.selectEvent', arguments: [{ event: 'cpu' }] });
    const hints = await conn.sendRequest('textDocument/inlayHint', {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 80, character: 0 } },
    });
    const list = pprofList(path.join(goRoot, 'profiles/cpu.pprof'), 'samples', 'samples', 'shop.go');
    const line13 = hints.find((h) => h.position.line === 12);
    assert.equal(line13.label.replace(/^\S+ /, ''), `${pct(list.get(13).flat, 31)}% cpu`);
    await close();
  } finally {
    kill();
  }
});

test('a loaded profile rewritten on disk is reloaded under its id (profileChanged)', async () => {
  const os = require('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotlines-watch-'));
  const file = path.join(dir, 'run.jfr');
  fs.copyFileSync(path.join(javaRoot, 'profiles/ap-cpu.jfr'), file);
  const { conn, open, close, kill, notifications } = await session(javaRoot);
  try {
    const uri = open('src/main/java/org/acme/shop/Pricing.java', 'java');
    const loaded = await conn.sendRequest('hotlines/loadProfile', { path: file });
    assert.deepEqual(loaded.events.map((e) => e.name), ['cpu']);
    // A profiler replaces the file: written elsewhere, renamed over it.
    fs.copyFileSync(path.join(javaRoot, 'profiles/ap-multi.jfr'), file + '.part');
    fs.renameSync(file + '.part', file);
    // The server settles file events for 300 ms, then reloads on a worker (slow under ASan on a
    // loaded machine: allow 60 s).
    let changed;
    for (let i = 0; i < 3000 && !changed; i++) {
      await new Promise((r) => setTimeout(r, 20));
      changed = notifications.find((n) => n.method === 'hotlines/profileChanged');
    }
    assert.ok(changed, 'profileChanged within 60 s');
    assert.equal(changed.params.profileId, loaded.profileId);
    assert.deepEqual(changed.params.events.map((e) => e.name).sort(), ['alloc', 'cpu', 'lock']);
    const ann = await conn.sendRequest('hotlines/fileAnnotations', { textDocument: { uri }, event: 'cpu' });
    assert.equal(ann.total.count, 672); // ap-multi's cpu samples
    await close();
  } finally {
    kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a cancelled hover is answered RequestCancelled (-32800), whichever stage saw the cancel', async () => {
  const { conn, open, close, kill } = await session(javaRoot);
  try {
    const uri = open('src/main/java/org/acme/shop/Pricing.java', 'java');
    await conn.sendRequest('hotlines/loadProfile', { path: 'profiles/ap-multi.jfr' });
    // Each round asks for a new view (selectEvent drops the cached heat), so the heat is
    // computed on a worker that may see the cancel, or the hover's own work does.
    let cancelled = 0;
    for (let round = 0; round < 10; round++) {
      await conn.sendRequest('workspace/executeCommand', {
        command: 'hotlines.selectEvent', arguments: [{ event: round % 2 ? 'cpu' : 'alloc' }],
      });
      const source = new rpc.CancellationTokenSource();
      const pending = conn.sendRequest('textDocument/hover', {
        textDocument: { uri }, position: { line: 22, character: 10 },
      }, source.token);
      source.cancel();
      try {
        const hover = await pending; // the answer won the race
        assert.match(hover.contents.value, /\*\*hotlines\*\*/);
      } catch (e) {
        assert.equal(e.code, -32800, `a cancelled hover: ${e.code} ${e.message}`);
        assert.equal(e.message, 'request cancelled');
        cancelled++;
      }
    }
    assert.ok(cancelled > 0, 'at least one of 10 cancels arrived before the answer');
    await close();
  } finally {
    kill();
  }
});

test('hotlines/flameDocument: the CLI export\'s document with workspace sources, the session view and baseline', async () => {
  const os = require('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotlines-doc-'));
  const { conn, close, kill } = await session(javaRoot);
  try {
    const profile = path.join(javaRoot, 'profiles/ap-cpu.jfr');
    const loaded = await conn.sendRequest('hotlines/loadProfile', { path: profile });
    const doc = await conn.sendRequest('hotlines/flameDocument', {});
    // The same builder as `hotlines flamegraph -o doc.json`: equal tree, rows and sources.
    const out = path.join(dir, 'doc.json');
    execFileSync(binary, ['flamegraph', profile, '-o', out, '--link', 'none', '--root', javaRoot]);
    const cli = JSON.parse(fs.readFileSync(out, 'utf8'));
    for (const k of ['format', 'events', 'threads', 'nodes', 'rows', 'timeline', 'initial'])
      assert.deepEqual(doc[k], cli[k], k);
    assert.equal(doc.title, 'ap-cpu.jfr');
    assert.equal(doc.events[0].total_count, jfrAggregate(profile, 'cpu').count);
    const discount = doc.functions.find((f) => f.name === 'org.acme.shop.Pricing.discount');
    assert.equal(discount.status, 'resolved', JSON.stringify(discount));
    assert.equal(discount.path, path.join(javaRoot, 'src/main/java/org/acme/shop/Pricing.java'));
    assert.equal(doc.functions.find((f) => f.name === 'java.lang.Thread.run').status, 'external');

    // The session's threads are the initial selection; a baseline set in the session is the
    // document's baseline.
    await conn.sendRequest('workspace/executeCommand', { command: 'hotlines.selectThreads', arguments: [{ threads: ['DestroyJavaVM'] }] });
    const base = await conn.sendRequest('hotlines/loadProfile', { path: path.join(javaRoot, 'profiles/ap-multi.jfr') });
    await conn.sendRequest('workspace/executeCommand', { command: 'hotlines.setBaseline', arguments: [{ profileId: base.profileId }] });
    const diff = await conn.sendRequest('hotlines/flameDocument', { profileId: loaded.profileId });
    assert.deepEqual(diff.initial.threads.map((i) => diff.threads[i].name), ['DestroyJavaVM']);
    assert.equal(diff.baseline.title, 'ap-multi.jfr');
    assert.equal(diff.baseline.event, 'cpu');
    const noBase = await conn.sendRequest('hotlines/flameDocument', { profileId: loaded.profileId, baseline: '' });
    assert.equal(noBase.baseline, undefined);
    await assert.rejects(conn.sendRequest('hotlines/flameDocument', { baseline: 'p99' }), /p99/);
    await assert.rejects(conn.sendRequest('hotlines/flameDocument', { event: 'nope' }), /nope/);
    await close();
  } finally {
    kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
