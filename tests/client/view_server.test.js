// Real-client test of the loopback view server (hotlines/openView) against local attackers:
// vscode-jsonrpc drives the real `hotlines serve`, raw sockets play a page on another origin,
// a DNS-rebound host name, a slow or idle client and a flood of connections. Checks: Host and
// Origin are enforced, `open` takes a function of the served document (never a path) and
// type-checks its body, and the connection cap, deadline (lowered to 1.5 s with
// HOTLINES_VIEW_TIMEOUT_MS) and byte caps hold. Env: HOTLINES_BINARY, HOTLINES_FIXTURES.
'use strict';
const { after, before, test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const rpc = require('vscode-jsonrpc/node');

const binary = process.env.HOTLINES_BINARY || path.join(__dirname, '../../build/hotlines');
const fixtures = process.env.HOTLINES_FIXTURES || path.join(__dirname, '../fixtures');
const javaShop = path.join(fixtures, 'java-shop');
const kTimeoutMs = 1500;
const kMaxConnections = 64;

let server, conn, stderr = '', view, port, shown = [];

before(async () => {
  server = spawn(binary, ['serve'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, HOTLINES_VIEW_TIMEOUT_MS: String(kTimeoutMs) },
  });
  server.stderr.on('data', (d) => (stderr += d));
  conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));
  conn.onRequest('window/showDocument', (p) => {
    shown.push(p);
    return { success: true };
  });
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid, rootUri: 'file://' + javaShop,
    capabilities: { window: { showDocument: { support: true } } },
  });
  conn.sendNotification('initialized', {});
  await conn.sendRequest('hotlines/loadProfile', { path: path.join(javaShop, 'profiles/ap-cpu.jfr') });
  view = (await conn.sendRequest('hotlines/openView', {})).url;
  port = Number(new URL(view).port);
});
after(async () => {
  await conn.sendRequest('shutdown', null);
  conn.sendNotification('exit', null);
  await new Promise((resolve) => server.on('exit', resolve));
});

// Sends raw bytes to the view server; resolves with what came back once the server closes
// (or `waitMs` passed): { text, status, closed, ms }.
function raw(bytes, { waitMs = 5000 } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now(), chunks = [];
    const s = net.connect(port, '127.0.0.1', () => s.write(bytes));
    const done = (closed) => {
      clearTimeout(timer);
      s.destroy();
      const text = Buffer.concat(chunks).toString();
      const m = /^HTTP\/1\.1 (\d+)/.exec(text);
      resolve({ text, status: m ? Number(m[1]) : 0, closed, ms: Date.now() - t0 });
    };
    const timer = setTimeout(() => done(false), waitMs);
    s.on('data', (d) => chunks.push(d));
    s.on('error', () => {});
    s.on('close', () => done(true));
  });
}

function request(method, target, headers = {}, body = '') {
  const h = { Host: `127.0.0.1:${port}`, ...headers };
  if (body) h['Content-Length'] = Buffer.byteLength(body);
  const lines = Object.entries(h).filter(([, v]) => v !== null).map(([k, v]) => `${k}: ${v}\r\n`);
  return raw(`${method} ${target} HTTP/1.1\r\n${lines.join('')}\r\n${body}`);
}

const viewPath = () => new URL(view).pathname; // /TOKEN/p1/
const postOpen = (body, headers = {}) =>
  request('POST', viewPath() + 'open', { 'Content-Type': 'application/json', ...headers },
    typeof body === 'string' ? body : JSON.stringify(body));
const bodyOf = (r) => r.text.slice(r.text.indexOf('\r\n\r\n') + 4);

async function document() {
  const r = await request('GET', viewPath() + 'document.json');
  assert.equal(r.status, 200);
  return JSON.parse(bodyOf(r));
}

test('the page answers only to its loopback Host, with no referrer and no token in the log', async () => {
  const ok = await request('GET', viewPath());
  assert.equal(ok.status, 200);
  assert.match(ok.text, /\r\nReferrer-Policy: no-referrer\r\n/i);
  assert.equal((await request('GET', viewPath(), { Host: `localhost:${port}` })).status, 200);
  // A page on evil.example whose name was rebound to 127.0.0.1 sends its own Host.
  for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`]) {
    const r = await request('GET', viewPath(), { Host: host });
    assert.equal(r.status, 403, host);
    assert.doesNotMatch(r.text, /<html/i);
  }
  assert.equal((await request('GET', viewPath() + 'document.json', { Host: null })).status, 403);
  const token = viewPath().split('/')[1];
  assert.equal(token.length, 32);
  assert.ok(!stderr.includes(token), 'the token is not logged');
});

test('open takes a function of the served document, from the page\'s own origin only', async () => {
  const doc = await document();
  const fn = doc.functions.findIndex((f) => f.name === 'org.acme.shop.Pricing.discount');
  assert.ok(fn >= 0 && doc.functions[fn].path);
  const before = shown.length;
  // A cross-origin text/plain POST (no preflight) is refused, as is any foreign Origin.
  const cross = await request('POST', viewPath() + 'open',
    { 'Content-Type': 'text/plain', Origin: 'https://evil.example' }, JSON.stringify({ frame: { fn, line: 15 } }));
  assert.equal(cross.status, 403);
  assert.equal((await postOpen({ frame: { fn, line: 15 } }, { Origin: 'https://evil.example' })).status, 403);
  assert.equal((await postOpen({ frame: { fn, line: 15 } }, { Origin: 'null' })).status, 403);
  // Without Origin, text/plain is still not JSON.
  const plain = await request('POST', viewPath() + 'open', { 'Content-Type': 'text/plain' },
    JSON.stringify({ frame: { fn, line: 15 } }));
  assert.equal(plain.status, 415);
  // A path is never opened: the page names a function, the server resolves it.
  for (const p of ['/etc/shadow', path.join(process.env.HOME || '/root', '.ssh/id_rsa')]) {
    const r = await postOpen({ frame: { path: p, line: 1, name: 'x' } });
    assert.equal(r.status, 400, bodyOf(r));
  }
  const outOfRange = await postOpen({ frame: { fn: doc.functions.length, line: 1 } });
  assert.equal(outOfRange.status, 400);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(shown.length, before, 'nothing was opened');

  // The page's own origin: the server opens the source it resolved for that function.
  const ok = await postOpen({ frame: { fn, line: 15 } }, { Origin: `http://127.0.0.1:${port}` });
  assert.equal(ok.status, 200, bodyOf(ok));
  assert.equal(JSON.parse(bodyOf(ok)).message, 'opened Pricing.java:15');
  for (let i = 0; i < 100 && shown.length === before; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(shown.length, before + 1);
  assert.equal(shown[before].uri, 'file://' + path.join(javaShop, 'src/main/java/org/acme/shop/Pricing.java'));
  assert.equal(shown[before].selection.start.line, 14);
});

test('a badly typed open body is a 400 and the server goes on', async () => {
  await document();
  for (const body of [
    { frame: { name: 5 } }, { frame: { fn: 0, why: [1] }, why: [1] }, { frame: 5 }, { frame: [] },
    { frame: { fn: '0' } }, { frame: { fn: 1.5 } }, { frame: { fn: -1 } }, { frame: { fn: 0, line: '3' } },
    { frame: { fn: 0, line: -2 } }, { frame: null }, [], 'null', '{"frame":', 7,
  ]) {
    const r = await postOpen(typeof body === 'string' ? body : JSON.stringify(body));
    assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
  }
  assert.equal((await request('GET', viewPath())).status, 200);
  const profiles = await conn.sendRequest('hotlines/profiles', null);
  assert.equal(profiles.profiles.length, 1);
});

test('requests over the byte caps are answered 413/431 and closed', async () => {
  const big = await request('POST', viewPath() + 'open',
    { 'Content-Type': 'application/json', 'Content-Length': String(2 << 20) });
  assert.equal(big.status, 413);
  assert.ok(big.closed, 'closed after the 413');
  const head = await raw(`GET ${viewPath()} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Pad: ${'a'.repeat(20000)}\r\n\r\n`);
  assert.equal(head.status, 431);
  assert.ok(head.closed);
  // A body sent in full beyond the cap, too.
  const body = 'x'.repeat((1 << 20) + 10);
  const sent = await postOpen(body);
  assert.equal(sent.status, 413);
  assert.ok(sent.closed);
});

test('a connection cap, and a deadline for idle and slow clients', async () => {
  const sockets = [];
  const closedAt = [];
  const t0 = Date.now();
  for (let i = 0; i < kMaxConnections; i++) {
    const s = net.connect(port, '127.0.0.1');
    s.on('error', () => {});
    const n = i;
    s.on('close', () => (closedAt[n] = Date.now() - t0));
    await new Promise((r) => s.once('connect', r));
    // Half of them send a header line now and then, never finishing the request.
    if (i % 2) s.write(`GET ${viewPath()} HTTP/1.1\r\n`);
    sockets.push(s);
  }
  await new Promise((r) => setTimeout(r, 200)); // the server accepts them all
  // One too many: refused at once.
  const extra = await raw(`GET ${viewPath()} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, { waitMs: 1000 });
  assert.ok(extra.closed, 'the connection over the cap is closed');
  assert.equal(extra.status, 503);
  const drip = setInterval(() => sockets.forEach((s, i) => i % 2 && !s.destroyed && s.write('X-Drip: 1\r\n')), 200);
  // The deadline closes every one of them, dripping or not.
  for (let i = 0; i < 100 && closedAt.filter((x) => x !== undefined).length < kMaxConnections; i++)
    await new Promise((r) => setTimeout(r, 50));
  clearInterval(drip);
  assert.equal(closedAt.filter((x) => x !== undefined).length, kMaxConnections, 'all idle connections closed');
  assert.ok(Math.min(...closedAt) >= kTimeoutMs - 300, `closed after the deadline: ${Math.min(...closedAt)} ms`);
  sockets.forEach((s) => s.destroy());
  // And the server serves again.
  assert.equal((await request('GET', viewPath())).status, 200);
});
