// Real-client test of files that used to take the server down: a FIFO or /dev/zero as a
// profile, a gzip bomb, a profile truncated and rewritten while the server reloads it
// (watchProfiles), a FIFO named like a Go test asked for code lenses and tests. The server
// must answer each with an error or a result, keep its loaded profile and keep answering.
// Env: HOTLINES_BINARY (the built server), HOTLINES_FIXTURES (tests/fixtures).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const rpc = require('vscode-jsonrpc/node');

const binary = process.env.HOTLINES_BINARY || path.join(__dirname, '../../build/hotlines');
const fixtures = process.env.HOTLINES_FIXTURES || path.join(__dirname, '../fixtures');
const fixture = (name) => path.join(fixtures, 'java-shop/profiles', name);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function session(root, options) {
  const child = spawn(binary, ['serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const notifications = [];
  conn.onNotification((method, params) => notifications.push({ method, params }));
  conn.onRequest(() => null);
  conn.onError(() => {});
  conn.listen();
  let exitSignal = null;
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    exitSignal = signal;
    resolve(code);
  }));
  await conn.sendRequest('initialize', {
    processId: process.pid, rootUri: 'file://' + root, capabilities: {},
    initializationOptions: options || {},
  });
  conn.sendNotification('initialized', {});
  // A request that must be answered within `ms` (a server stuck on its loop thread is not).
  const ask = (method, params, ms = 15000) => {
    let timer;
    const late = new Promise((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${method}: no answer in ${ms} ms` +
        (child.exitCode !== null || exitSignal ? ` (server died: ${exitSignal || child.exitCode})` : ''))), ms);
    });
    return Promise.race([conn.sendRequest(method, params), late]).finally(() => clearTimeout(timer));
  };
  const close = async () => {
    await ask('shutdown');
    conn.sendNotification('exit');
    assert.equal(await exited, 0);
    conn.dispose();
  };
  const kill = () => child.exitCode === null && !exitSignal && child.kill('SIGKILL');
  return { conn, ask, close, kill, notifications, stderr: () => stderr, alive: () => child.exitCode === null && !exitSignal };
}

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hotlines-hostile-'));
}

test('a FIFO or /dev/zero as a profile path is a quick error; the server keeps its profile', async () => {
  const dir = tempDir();
  const fifo = path.join(dir, 'profile.jfr');
  execFileSync('mkfifo', [fifo]);
  const s = await session(dir);
  try {
    const loaded = await s.ask('hotlines/loadProfile', { path: fixture('ap-cpu.collapsed') });
    const t0 = Date.now();
    await assert.rejects(s.ask('hotlines/loadProfile', { path: fifo }, 10000),
      (e) => e.code === -32803 && e.message.includes(`cannot read ${fifo}: not a regular file (a FIFO or pipe)`));
    await assert.rejects(s.ask('hotlines/loadProfile', { path: '/dev/zero' }, 10000),
      (e) => e.code === -32803 && e.message.includes('cannot read /dev/zero: not a regular file (a character device)'));
    assert.ok(Date.now() - t0 < 10000);
    const list = await s.ask('hotlines/profiles');
    assert.deepEqual(list.profiles.map((p) => p.profileId), [loaded.profileId]);
    await s.close();
  } finally {
    s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a gzip bomb past hotlines.limits.profileMiB is an error naming the limit and the setting', async () => {
  const dir = tempDir();
  const bomb = path.join(dir, 'bomb.pb.gz');
  fs.writeFileSync(bomb, zlib.gzipSync(Buffer.alloc(8 << 20), { level: 9 }));
  const s = await session(dir, { limits: { profileMiB: 1 } });
  try {
    await assert.rejects(s.ask('hotlines/loadProfile', { path: bomb }),
      (e) => e.code === -32803 && e.message.includes(
        `${bomb}: gzip: inflated size exceeds the limit of 1 MiB (raise it with the setting hotlines.limits.profileMiB)`));
    // Raised through didChangeConfiguration, the same file inflates (and is no profile).
    s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { hotlines: { limits: { profileMiB: 64 } } } });
    await assert.rejects(s.ask('hotlines/loadProfile', { path: bomb }),
      (e) => e.code === -32803 && /unrecognized binary data/.test(e.message));
    await s.close();
  } finally {
    s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a profile truncated and rewritten while it reloads never takes the server down', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'live.collapsed');
  // Big enough that a reload is still reading when the next truncation comes.
  const lines = [];
  for (let i = 0; i < 400000; i++) lines.push(`main;Worker.run;Compute.step${i % 5000};Leaf.l${i % 13} 1`);
  const full = lines.join('\n') + '\n';
  fs.writeFileSync(file, full);
  const s = await session(dir);
  try {
    const loaded = await s.ask('hotlines/loadProfile', { path: file }, 60000);
    assert.equal(loaded.events[0].count, 400000);
    // A profiler rewriting its output in place: truncate, write part, write all, at varying
    // pauses around the server's 300 ms settle time, so reloads read a file being cut.
    for (let round = 0; round < 12 && s.alive(); round++) {
      const fd = fs.openSync(file, 'r+');
      fs.ftruncateSync(fd, 0);
      fs.writeSync(fd, full.slice(0, full.length / 2));
      fs.closeSync(fd);
      fs.writeFileSync(file, full);
      await sleep(300 + (round % 4) * 60);
      fs.truncateSync(file, 0);
      await sleep(20 + (round % 3) * 40);
      fs.writeFileSync(file, full);
    }
    await sleep(1500); // the last reload runs
    assert.ok(s.alive(), 'the server is alive\n' + s.stderr().slice(-2000));
    const list = await s.ask('hotlines/profiles', undefined, 60000);
    assert.equal(list.profiles.length, 1);
    assert.equal(list.profiles[0].profileId, loaded.profileId);
    // The file was complete when the last reload settled: the profile ends up complete.
    let total;
    for (let i = 0; i < 100 && total !== 400000; i++) {
      if (i) await sleep(200);
      try {
        total = (await s.ask('hotlines/hotMethods', { profileId: loaded.profileId, limit: 1 }, 60000)).total.count;
      } catch (e) { // a reload finished while the query ran: ask again
        if (!/reloaded/.test(e.message)) throw e;
      }
    }
    assert.equal(total, 400000);
    await s.close();
  } finally {
    s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a FIFO named shop_test.go asked for code lenses and tests does not block the server', async () => {
  const dir = tempDir();
  const fifo = path.join(dir, 'shop_test.go');
  execFileSync('mkfifo', [fifo]);
  const s = await session(dir, { runLenses: true });
  try {
    const uri = 'file://' + fifo;
    await assert.rejects(s.ask('hotlines/testsInFile', { textDocument: { uri } }, 10000),
      (e) => e.message.includes(`cannot read ${fifo}: not a regular file (a FIFO or pipe)`));
    const lenses = await s.ask('textDocument/codeLens', { textDocument: { uri } }, 10000);
    assert.deepEqual(lenses, []);
    // Another request is answered: the loop thread is free.
    const loaded = await s.ask('hotlines/loadProfile', { path: fixture('ap-cpu.collapsed') }, 10000);
    assert.equal(loaded.events[0].count, 452);
    await s.close();
  } finally {
    s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
