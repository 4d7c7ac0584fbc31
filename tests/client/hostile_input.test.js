// Hostile input to the real `hotlines serve` (issue 18): raw bytes over stdio, no client
// library, since these messages are what a well-behaved library never sends. Each case sends
// what used to crash or wedge the server, checks the answer, and then checks that the server
// still answers and still holds the profile it had loaded.
// Env: HOTLINES_BINARY (the built server).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const binary = process.env.HOTLINES_BINARY || path.join(__dirname, '../../build/hotlines');

// A server on raw framed stdio: send() frames a value, sendRaw() writes bytes as they are,
// next() waits for the next message that `pick` accepts (others are kept for later).
function rawServer(args = []) {
  const child = spawn(binary, ['serve', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let buf = Buffer.alloc(0);
  const inbox = [];
  let wake = null;
  child.stdout.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) break;
      const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, end).toString())[1]);
      if (buf.length < end + 4 + len) break;
      inbox.push(JSON.parse(buf.subarray(end + 4, end + 4 + len).toString('utf8')));
      buf = buf.subarray(end + 4 + len);
    }
    if (wake) wake();
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const sendRaw = (bytes) => child.stdin.write(bytes);
  const frame = (body) => Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
  const send = (msg) => sendRaw(frame(Buffer.from(JSON.stringify(msg))));
  async function next(pick, ms = 20000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = inbox.findIndex(pick);
      if (i >= 0) return inbox.splice(i, 1)[0];
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`server died: ${child.exitCode ?? child.signalCode}`);
      if (Date.now() > deadline) throw new Error('timed out waiting for a message');
      await new Promise((r) => { wake = r; setTimeout(r, 200); });
    }
  }
  let nextId = 1000;
  async function request(method, params) {
    const id = nextId++;
    send({ jsonrpc: '2.0', id, method, params });
    return next((m) => m.id === id);
  }
  const kill = () => child.exitCode === null && child.kill('SIGKILL');
  return { child, send, sendRaw, frame, next, request, exited, kill };
}

async function initialized(s) {
  const init = await s.request('initialize', { processId: null, rootUri: null, capabilities: {} });
  assert.ok(init.result, JSON.stringify(init));
  s.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
}

async function closes(s) {
  assert.deepEqual((await s.request('shutdown')).result, null);
  s.send({ jsonrpc: '2.0', method: 'exit' });
  assert.deepEqual(await s.exited, { code: 0, signal: null });
}

const deep = (n) => '['.repeat(n) + ']'.repeat(n);

test('deeply nested JSON is refused before anything recurses on it', async () => {
  const s = rawServer();
  try {
    // Before initialize, then as a request, a notification and a response after it.
    s.sendRaw(s.frame(Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":${deep(100000)}}`)));
    let e = await s.next((m) => m.error);
    assert.equal(e.error.code, -32600);
    assert.equal(e.error.message, 'invalid request: nested deeper than 512 levels');
    await initialized(s);
    for (const body of [
      `{"jsonrpc":"2.0","id":2,"method":"hotlines/profiles","params":${deep(100000)}}`,
      `{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":${deep(100000)}}}`,
      `{"jsonrpc":"2.0","id":"hotlines-1","result":${deep(100000)}}`,
    ]) {
      s.sendRaw(s.frame(Buffer.from(body)));
      e = await s.next((m) => m.error);
      assert.equal(e.error.code, -32600);
    }
    // 512 levels are still a message (here: params that are not what profiles takes).
    const ok = await s.request('hotlines/profiles', JSON.parse(`{"a":${deep(510)}}`));
    assert.deepEqual(ok.result, { profiles: [] });
    await closes(s);
  } finally {
    s.kill();
  }
});

test('client responses with ill-typed error fields are ignored, not fatal', async () => {
  const s = rawServer();
  try {
    await initialized(s);
    for (const error of [
      { code: -32601, message: null },
      { code: 'x', message: 'y' },
      { code: null },
      { code: -32601, message: 5, data: [1] },
      { code: 1e300, message: 'huge' },
    ])
      s.send({ jsonrpc: '2.0', id: 'hotlines-1', error });
    s.send({ jsonrpc: '2.0', id: 7, error: 'not an object' });
    const ok = await s.request('hotlines/profiles');
    assert.deepEqual(ok.result, { profiles: [] });
    await closes(s);
  } finally {
    s.kill();
  }
});

test('a bad header loses no later message: the reader resynchronises', async () => {
  const s = rawServer();
  try {
    await initialized(s);
    // Each bad header is reported once; its body, read as headers before, is skipped, and
    // the next message is answered.
    for (const [header, why] of [['Content-Length: -5', "invalid Content-Length '-5'"],
      ['X-No-Length: 1', 'missing Content-Length header']]) {
      s.sendRaw(`${header}\r\n\r\n{"jsonrpc":"2.0","id":50,"method":"hotlines/profiles"}`);
      const ok = await s.request('hotlines/profiles');
      assert.deepEqual(ok.result, { profiles: [] });
      const bad = await s.next((m) => m.error);
      assert.equal(bad.error.message, 'framing error: ' + why);
    }
    await closes(s);
  } finally {
    s.kill();
  }
});

// GETs a URL of the view server; resolves {status, body}.
function get(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    }).on('error', reject);
  });
}

test('frame names that are not UTF-8 are served with U+FFFD, everywhere', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotlines-hostile-'));
  const file = path.join(dir, 'bytes.collapsed');
  fs.writeFileSync(file, Buffer.from('a\xff\xfe;b\xc0\xaf;\xed\xa0\x80 1\n', 'latin1'));
  const s = rawServer();
  try {
    await initialized(s);
    const loaded = await s.request('hotlines/loadProfile', { path: file });
    assert.equal(loaded.result.samples, 1, JSON.stringify(loaded));
    const id = loaded.result.profileId;
    const doc = await s.request('hotlines/flameDocument', { profileId: id });
    const names = JSON.stringify(doc.result);
    assert.ok(names.includes('a\ufffd\ufffd'), names.slice(0, 400));
    assert.ok(names.includes('b\ufffd\ufffd'), names.slice(0, 400));
    const hot = await s.request('hotlines/hotMethods', { profileId: id });
    assert.ok(JSON.stringify(hot).includes('a\ufffd\ufffd'), JSON.stringify(hot).slice(0, 400));

    const view = await s.request('hotlines/openView', { profileId: id });
    const url = view.result.url;
    const page = await get(url + '?event=%ff');
    assert.equal(page.status, 200);
    assert.ok(page.body.includes('document.json?event=\ufffd'), page.body.slice(0, 200));
    const served = await get(url + 'document.json');
    assert.equal(served.status, 200);
    assert.ok(served.body.includes('a\ufffd\ufffd'));

    assert.equal((await s.request('hotlines/profiles')).result.profiles.length, 1);
    await closes(s);
  } finally {
    s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
