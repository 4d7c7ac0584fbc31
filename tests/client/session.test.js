// Real-client test: vscode-jsonrpc (the JSON-RPC library VS Code uses) drives the real
// `hotlines serve` through initialize -> loadProfile -> hotMethods -> shutdown -> exit.
// Env: HOTLINES_BINARY (the built server), HOTLINES_FIXTURES (tests/fixtures).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const rpc = require('vscode-jsonrpc/node');

const binary = process.env.HOTLINES_BINARY || path.join(__dirname, '../../build/hotlines');
const fixtures = process.env.HOTLINES_FIXTURES || path.join(__dirname, '../fixtures');
const fixture = (name) => path.join(fixtures, 'java-shop/profiles', name);

function start() {
  const child = spawn(binary, ['serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin));
  const progress = [];
  conn.onNotification('$/progress', (p) => progress.push(p));
  conn.listen();
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, conn, exited, progress, stderr: () => stderr };
}

test('initialize, load, hot methods, shutdown, exit', async () => {
  const { conn, exited, progress } = start();
  const init = await conn.sendRequest('initialize', {
    processId: process.pid, rootUri: null,
    capabilities: { window: { workDoneProgress: true } },
    clientInfo: { name: 'vscode-jsonrpc-test' },
  });
  assert.equal(init.serverInfo.name, 'hotlines');
  assert.ok(init.capabilities.executeCommandProvider.commands.includes('hotlines.loadProfile'));
  conn.sendNotification('initialized', {});

  const loaded = await conn.sendRequest('hotlines/loadProfile', {
    path: fixture('ap-cpu-lines-threads.collapsed'), workDoneToken: 'load-1',
  });
  assert.equal(loaded.format, 'collapsed');
  assert.equal(loaded.samples, 357);
  assert.equal(loaded.threads, 9);
  assert.deepEqual(loaded.events, [{ name: 'samples', unit: 'samples', count: 2530, value: 2530, states: [] }]);
  const kinds = progress.filter((p) => p.token === 'load-1').map((p) => p.value.kind);
  assert.equal(kinds[0], 'begin');
  assert.equal(kinds[kinds.length - 1], 'end');

  const hot = await conn.sendRequest('hotlines/hotMethods', { profileId: loaded.profileId, limit: 3 });
  assert.equal(hot.total.count, 2530);
  assert.deepEqual(hot.methods.map((m) => [m.name, m.self.count, m.total.count]), [
    ['libmSin', 1208, 1216],
    ['java.lang.Integer.getChars', 241, 252],
    ['org.acme.shop.Pricing.cached', 182, 1299],
  ]);

  // A failing load is an error with a reason; the loaded profile stays.
  await assert.rejects(conn.sendRequest('hotlines/loadProfile', { path: '/nonexistent.jfr' }),
    (e) => e.code === -32803 && /No such file/.test(e.message));
  const list = await conn.sendRequest('hotlines/profiles');
  assert.equal(list.profiles.length, 1);

  // Through workspace/executeCommand as well.
  const viaCommand = await conn.sendRequest('workspace/executeCommand', {
    command: 'hotlines.loadProfile', arguments: [{ path: fixture('ap-cpu.collapsed') }],
  });
  assert.equal(viaCommand.events[0].count, 452);

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  assert.equal(await exited, 0);
  conn.dispose();
});

test('a cancelled request is answered with RequestCancelled', async () => {
  const { conn, exited } = start();
  await conn.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
  const source = new rpc.CancellationTokenSource();
  const pending = conn.sendRequest('hotlines/loadProfile',
    { path: fixture('ap-cpu-lines-threads.collapsed') }, source.token);
  source.cancel();
  // Either the cancel won the race (-32800) or the load finished first: both are answers.
  try {
    const r = await pending;
    assert.equal(r.samples, 357);
  } catch (e) {
    assert.equal(e.code, -32800);
  }
  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  assert.equal(await exited, 0);
  conn.dispose();
});
