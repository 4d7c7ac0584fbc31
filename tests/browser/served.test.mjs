// The view served by the language server itself (hotlines/openView), for editors without a
// webview: this test is the editor — it speaks LSP to the real `hotlines serve`, answers the
// server's window/showDocument requests — and headless chromium is the user's browser. A
// double-click on Pricing.discount in the served page must make the server ask the editor to
// show Pricing.java at line 15: a jump from a flame frame to source in any LSP editor.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { binary, javaShop, launch, newPage, screenshot } from './harness.mjs';

let browser, lsp;

// A minimal LSP client: framed JSON-RPC over the server's stdio.
function startServer() {
  const child = spawn(binary, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map(), shown = [];
  let buffer = Buffer.alloc(0), nextId = 1;
  const write = (msg) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...msg }));
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
      if (buffer.length < end + 4 + length) return;
      const msg = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
      buffer = buffer.subarray(end + 4 + length);
      if (msg.method === 'window/showDocument') {
        shown.push(msg.params);
        write({ id: msg.id, result: { success: true } });
      } else if (msg.method && msg.id !== undefined) {
        write({ id: msg.id, result: null });
      } else if (msg.id !== undefined && pending.has(msg.id)) {
        const { resolve, reject } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(msg.error.message));
        else resolve(msg.result);
      }
    }
  });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      write({ id, method, params });
    });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { request, notify: (method, params) => write({ method, params }), shown, exited };
}

async function until(predicate, what) {
  for (let i = 0; i < 500; i++) {
    if (predicate()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`timed out waiting for ${what}`);
}

before(async () => {
  browser = await launch();
  lsp = startServer();
  await lsp.request('initialize', {
    rootUri: 'file://' + javaShop,
    capabilities: { window: { showDocument: { support: true } } },
  });
  lsp.notify('initialized', {});
  await lsp.request('hotlines/loadProfile', { path: 'profiles/ap-cpu.jfr' });
});
after(async () => {
  await browser?.close();
  await lsp.request('shutdown', null);
  lsp.notify('exit', null);
  assert.equal(await lsp.exited, 0);
});

test('openView serves the flame graph on loopback; a click jumps the editor to the source line', async () => {
  const opened = await lsp.request('hotlines/openView', {});
  assert.match(opened.url, /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/p1\/$/);
  assert.equal(opened.showDocument, true);
  await until(() => lsp.shown.length === 1, 'the showDocument of the view');
  assert.deepEqual(lsp.shown[0], { uri: opened.url, external: true });

  // Without the token, nothing.
  const origin = new URL(opened.url).origin;
  assert.equal((await fetch(origin + '/p1/document.json')).status, 404);
  assert.equal((await fetch(opened.url.replace(/[0-9a-f]{32}/, '0'.repeat(32)))).status, 404);
  assert.equal((await fetch(opened.url + 'document.json', { method: 'POST' })).status, 405);

  const { page, context, errors } = await newPage(browser);
  await page.goto(opened.url);
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  // The root's widest child is the one the engine puts first (java.lang.Thread.run, 1840).
  const boxes = await page.evaluate(() =>
    window.hotlines.app.frames().filter((b) => b.name === 'org.acme.shop.Pricing.discount'));
  boxes.sort((a, b) => b.width - a.width);
  assert.ok(boxes.length > 0, 'Pricing.discount is drawn');
  const b = boxes[0];
  await page.mouse.dblclick(b.x + b.width / 2, b.y + b.height / 2);
  await until(() => lsp.shown.length === 2, 'the showDocument of the source');
  const source = lsp.shown[1];
  assert.equal(source.uri, 'file://' + path.join(javaShop, 'src/main/java/org/acme/shop/Pricing.java'));
  assert.equal(source.selection.start.line, 14); // line 15
  assert.equal(source.takeFocus, true);
  await screenshot(page, 'served-view');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a frame without source answers why instead of opening anything', async () => {
  const before = lsp.shown.length;
  const { url } = await lsp.request('hotlines/openView', {});
  const doc = await (await fetch(url + 'document.json')).json();
  const fn = doc.functions.findIndex((f) => !f.path && f.why);
  assert.ok(fn >= 0, 'some function has no workspace source');
  const answer = await (await fetch(url + 'open', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ frame: { fn, line: 0 } }),
  })).json();
  assert.equal(answer.message, `${doc.functions[fn].name}: ${doc.functions[fn].why}`);
  await until(() => lsp.shown.length === before + 1, 'the view showDocument');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(lsp.shown.length, before + 1); // only the view itself was shown again
});
