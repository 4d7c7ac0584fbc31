// The extension in a real VS Code (code-server 4.100.3 + Debian chromium via playwright-core,
// installed by tests/vscode/harness.sh): install the packaged .vsix, open a temp copy of
// java-shop, load profiles/ap-cpu.jfr from the explorer's context menu, open Pricing.java and
// compare the gutter icons and after-line text in the DOM with the server's own
// hotlines/fileAnnotations; click the Hot Methods view's entry → the editor lands on the line
// hotlines/resolveFrame names; double-click `discount` in the flame graph webview → Pricing.java
// at line 15; pick the DestroyJavaVM thread in the status bar's quick pick → line 15 becomes
// the hottest (13.4%), then back to all threads; click the "Profile" lens on go-shop's
// TestWorkload (go-shop copied into the workspace; needs `go`) → the run's profile loads and
// shop.go's icons are the server's. Screenshots go to $HOTLINES_ARTIFACTS.
// Env: HOTLINES_BINARY, HOTLINES_SHARED_DIR, HARNESS (the harness BASE), VSIX, HOTLINES_ARTIFACTS.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { serverSession } from './server_truth.mjs';

const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`set ${k}`);
  return v;
};
const binary = env('HOTLINES_BINARY');
const base = env('HARNESS');
const vsix = env('VSIX');
const artifacts = env('HOTLINES_ARTIFACTS');
const { chromium } = createRequire(path.join(base, 'package.json'))('playwright-core');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hotlines-vscode-'));
const folder = path.join(work, 'java-shop');
const pricing = path.join(folder, 'src/main/java/org/acme/shop/Pricing.java');
let codeServer, ctx, page, truth;

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function shot(name) {
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
}

async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10000 });
  await page.keyboard.press('Enter');
}

// Quick Open: `query` (a name, or a relative path when names are ambiguous), first result.
async function quickOpen(query) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(query);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(query) }).first().waitFor({ timeout: 20000 });
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
}

async function cursorLine() {
  const t = await page.locator('[id="status.editor.selection"]').innerText();
  return Number(/Ln (\d+)/.exec(t)?.[1]);
}

// Gutter icons and after-line text of the visible editor, by 1-based line number.
async function editorDecorations() {
  return page.evaluate(() => {
    const ed = document.querySelector('.editor-instance .monaco-editor');
    if (!ed) return { icons: {}, texts: {}, lines: 0 };
    const lineAt = new Map();
    for (const el of ed.querySelectorAll('.margin-view-overlays > div')) {
      const n = el.querySelector('.line-numbers');
      if (n) lineAt.set(parseFloat(el.style.top), Number(n.textContent.trim()));
    }
    const icons = {};
    for (const el of ed.querySelectorAll('.cgmr')) {
      const top = parseFloat(el.style.top || el.parentElement.style.top);
      const m = /heat-(\d)\.svg/.exec(getComputedStyle(el).backgroundImage);
      if (m && lineAt.has(top)) (icons[lineAt.get(top)] ??= []).push(Number(m[1]));
    }
    const texts = {};
    for (const el of ed.querySelectorAll('.view-lines > .view-line')) {
      const top = parseFloat(el.style.top);
      for (const span of el.querySelectorAll('span[class*="ced-"]')) {
        const c = getComputedStyle(span, '::after').content;
        if (c && c !== 'none' && lineAt.has(top)) texts[lineAt.get(top)] = JSON.parse(c);
      }
    }
    return { icons, texts, lines: lineAt.size };
  });
}

before(async () => {
  fs.cpSync(path.join(env('HOTLINES_SHARED_DIR'), 'fixtures/java-shop'), folder, { recursive: true });
  fs.cpSync(path.join(env('HOTLINES_SHARED_DIR'), 'fixtures/go-shop'), path.join(folder, 'go-shop'), { recursive: true });
  // Profiled Maven runs resolve from Debian's repository only (as tests/runs does).
  fs.writeFileSync(path.join(work, 'settings.xml'), `<settings><localRepository>${path.join(work, 'm2')}</localRepository><mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror></mirrors></settings>\n`);
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.vscode/settings.json'), JSON.stringify({ 'hotlines.runs.buildArgs': ['-s', path.join(work, 'settings.xml')] }));
  const cs = path.join(base, 'cs.sh');
  execFileSync(cs, ['--install-extension', vsix, '--force'], { stdio: 'inherit' });
  fs.mkdirSync(path.join(base, 'ud/User'), { recursive: true });
  fs.writeFileSync(path.join(base, 'ud/User/settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false, 'update.mode': 'none',
    'security.workspace.trust.enabled': false, 'editor.minimap.enabled': false, 'editor.inlayHints.enabled': 'off',
    'hotlines.serverPath': binary,
  }, null, 2));
  const port = await freePort();
  codeServer = spawn(cs, ['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry',
    '--disable-update-check', '--disable-workspace-trust', folder], { stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  for (let i = 0; i < 60; i++) {
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  truth = await serverSession(binary, folder);
  await truth.request('hotlines/loadProfile', { path: path.join(folder, 'profiles/ap-cpu.jfr') });
  const udd = fs.mkdtempSync(path.join(work, 'chrome-'));
  ctx = await chromium.launchPersistentContext(udd, {
    viewport: { width: 1400, height: 1000 }, executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
  await page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 90000 });
  // The extension is up when its status bar item shows.
  await page.locator('[id="hotlines.hotlines.status"], .statusbar-item', { hasText: 'hotlines' }).first().waitFor({ timeout: 60000 });
});

after(async () => {
  if (page && process.exitCode) await shot('failure').catch(() => {});
  await ctx?.close().catch(() => {});
  await truth?.close().catch(() => {});
  if (codeServer) {
    try {
      process.kill(-codeServer.pid, 'SIGTERM');
    } catch {}
  }
  fs.rmSync(work, { recursive: true, force: true });
});

test('load ap-cpu.jfr from the explorer context menu', async () => {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'profiles' }).first().click();
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^ap-cpu\.jfr$/ }).first();
  await row.waitFor();
  await row.click({ button: 'right' });
  const item = page.locator('.monaco-menu .action-item', { hasText: 'Load Profile' }).first();
  await item.waitFor();
  await page.waitForTimeout(800); // the menu ignores clicks while it opens
  await item.click();
  await page.locator('.statusbar-item', { hasText: 'ap-cpu.jfr' }).first().waitFor({ timeout: 60000 });
  const status = await page.locator('.statusbar-item', { hasText: 'ap-cpu.jfr' }).first().innerText();
  assert.match(status, /ap-cpu\.jfr · cpu/);
});

test('Pricing.java: gutter icons and after-line text are the server\'s', async () => {
  await quickOpen('Pricing.java');
  await page.locator('.tabs-container .tab.active', { hasText: 'Pricing.java' }).waitFor({ timeout: 20000 });
  await page.locator('.editor-instance .monaco-editor .view-line').first().waitFor({ timeout: 20000 });
  const ann = await truth.request('hotlines/fileAnnotations', { textDocument: { uri: pathToFileURL(pricing).href } });
  assert.ok(ann.lines.length > 3, 'the server annotates Pricing.java');
  const hottest = ann.lines.filter((l) => l.heat === 1);
  assert.equal(hottest.length, 1);
  let dom;
  for (let i = 0; i < 40; i++) {
    dom = await editorDecorations();
    if (Object.keys(dom.icons).length && Object.keys(dom.texts).length) break;
    await page.waitForTimeout(500);
  }
  await shot('pricing-gutter');
  // Every line the server gives self weight (heat > 0) and that is on screen carries one icon,
  // of the level its heat maps to; the hottest line has the top icon and nothing else does.
  const shown = ann.lines.filter((l) => l.heat > 0 && l.line <= dom.lines);
  assert.ok(shown.length > 0);
  for (const l of shown) {
    assert.deepEqual(dom.icons[l.line], [Math.min(4, Math.floor(l.heat * 5))], `icon on line ${l.line} (heat ${l.heat})`);
  }
  assert.deepEqual(Object.keys(dom.icons).map(Number).sort((a, b) => a - b), shown.map((l) => l.line));
  assert.deepEqual(dom.icons[hottest[0].line], [4]);
  assert.deepEqual(Object.entries(dom.icons).filter(([, v]) => v[0] === 4).map(([k]) => Number(k)), [hottest[0].line]);
  // After-line text: the self share of the file's total, as the server counts it.
  const pct = (w) => `${((w.value / ann.total.value) * 100).toFixed(1)}%`;
  const top = hottest[0];
  assert.equal(dom.texts[top.line], `${pct(top.self)} ${ann.event}`);
  let totalOnly = 0;
  for (const l of ann.lines) {
    if (l.line > dom.lines) continue;
    if ((l.self.value / ann.total.value) * 100 >= 1) assert.equal(dom.texts[l.line], `${pct(l.self)} ${ann.event}`, `text on line ${l.line}`);
    else if ((l.total.value / ann.total.value) * 100 >= 1) {
      assert.equal(dom.texts[l.line], `↳ ${pct(l.total)} ${ann.event} total`, `text on line ${l.line}`);
      totalOnly++;
    } else assert.equal(dom.texts[l.line], undefined, `no text on line ${l.line}`);
  }
  assert.ok(totalOnly > 0, 'some line only passes time to callees');
  // The fixture's known shape over all threads: line 32 (discount inlined into cached) is
  // hotter than line 15; both are annotated.
  const byLine = Object.fromEntries(ann.lines.map((l) => [l.line, l]));
  assert.ok(byLine[32].self.value > byLine[15].self.value);
  assert.equal(dom.texts[15], `${pct(byLine[15].self)} cpu`);
});

test('Hot Methods: clicking the hottest resolvable method lands on its line', async () => {
  const hot = await truth.request('hotlines/hotMethods', { limit: 50 });
  let target, where;
  for (const m of hot.methods) {
    const r = await truth.request('hotlines/resolveFrame', { function: m.name });
    if (r.status === 'resolved') {
      target = m.name;
      where = r;
      break;
    }
  }
  assert.ok(target, 'a hot method resolves to a workspace file');
  await runCommand('View: Close All Editors');
  await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached' });
  await page.locator('.activitybar .action-item a[aria-label^="hotlines"]').first().click();
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Hot Methods' }) });
  const row = pane.locator('.monaco-list-row', { hasText: target }).first();
  await row.waitFor({ timeout: 30000 });
  await row.click();
  const file = path.basename(new URL(where.location.uri).pathname);
  await page.locator('.tabs-container .tab.active', { hasText: file }).waitFor({ timeout: 20000 });
  await page.waitForTimeout(500);
  assert.equal(await cursorLine(), where.location.range.start.line + 1);
  await shot('hot-methods-click');
});

test('flame graph: double-click on discount opens Pricing.java at line 15', async () => {
  // No editor open: the active tab can only be the one the click opens.
  await runCommand('View: Close All Editors');
  await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached' });
  await runCommand('hotlines: Show Flame Graph');
  let frame;
  for (let i = 0; i < 60 && !frame; i++) {
    for (const f of page.frames()) {
      const ok = await f.evaluate(() => !!(window.hotlines && document.body.dataset.state === 'ready')).catch(() => false);
      if (ok) frame = f;
    }
    if (!frame) await page.waitForTimeout(500);
  }
  assert.ok(frame, 'the flame graph webview is ready');
  await shot('flame-graph');
  const boxes = await frame.evaluate(() => window.hotlines.app.frames().filter((f) => f.name.endsWith('Pricing.discount')));
  assert.ok(boxes.length > 0, 'discount is drawn');
  const box = boxes.sort((a, b) => b.width - a.width)[0];
  await frame.locator('body').dblclick({ position: { x: box.x + box.width / 2, y: box.y + box.height / 2 } });
  await page.locator('.tabs-container .tab.active', { hasText: 'Pricing.java' }).waitFor({ timeout: 20000 });
  await page.waitForTimeout(500);
  assert.equal(await cursorLine(), 15);
  await shot('flame-click-discount');
});

test('threads picked in the status bar: DestroyJavaVM makes line 15 the hottest', async () => {
  await truth.request('workspace/executeCommand', { command: 'hotlines.selectThreads', arguments: [{ threads: ['DestroyJavaVM'] }] });
  const ann = await truth.request('hotlines/fileAnnotations', { textDocument: { uri: pathToFileURL(pricing).href } });
  const top = ann.lines.find((l) => l.heat === 1);
  assert.equal(top.line, 15, 'the server: line 15 is the main thread\'s hottest');
  await runCommand('View: Close All Editors');
  await quickOpen('Pricing.java');
  await page.locator('.tabs-container .tab.active', { hasText: 'Pricing.java' }).waitFor({ timeout: 20000 });
  await page.locator('.statusbar-item', { hasText: 'ap-cpu.jfr' }).first().click();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Threads…' }).first().click();
  const input = page.locator('.quick-input-widget input.input');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'DestroyJavaVM' }).first().waitFor();
  await input.fill('DestroyJavaVM');
  await page.waitForTimeout(300);
  assert.equal(await page.locator('.quick-input-list .monaco-list-row').count(), 1, 'the filter leaves one thread');
  await page.locator('.quick-input-header [role=checkbox]').click(); // toggles the visible (filtered) thread
  await page.keyboard.press('Enter');
  const pct = `${((top.self.value / ann.total.value) * 100).toFixed(1)}% ${ann.event}`;
  let dom;
  for (let i = 0; i < 40; i++) {
    dom = await editorDecorations();
    if (dom.icons[15]?.[0] === 4 && dom.texts[15] === pct) break;
    await page.waitForTimeout(500);
  }
  await shot('threads-main');
  assert.deepEqual(dom.icons[15], [4]);
  assert.equal(dom.texts[15], pct);
  assert.equal(pct, '13.4% cpu');
  for (const l of ann.lines) if (l.line !== 15 && l.line <= dom.lines) assert.notDeepEqual(dom.icons[l.line], [4]);
  assert.equal(dom.icons[32], undefined, 'line 32 has no main-thread samples');
  // Back to all threads: the same pick, the one checked thread unchecked.
  await page.locator('.statusbar-item', { hasText: 'ap-cpu.jfr' }).first().click();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Threads…' }).first().click();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'DestroyJavaVM' }).first().waitFor();
  await input.fill('DestroyJavaVM');
  await page.waitForTimeout(300);
  await page.locator('.quick-input-header [role=checkbox]').click();
  await page.keyboard.press('Enter');
  await truth.request('workspace/executeCommand', { command: 'hotlines.selectThreads', arguments: [{ threads: [] }] });
  for (let i = 0; i < 40; i++) {
    dom = await editorDecorations();
    if (dom.icons[32]?.[0] === 4) break;
    await page.waitForTimeout(500);
  }
  assert.deepEqual(dom.icons[32], [4], 'all threads again: line 32 is the hottest');
});

test('"Profile" lens on go-shop TestWorkload: the run\'s profile loads and annotates shop.go', async () => {
  await runCommand('View: Close All Editors');
  await quickOpen('shop_test.go');
  await page.locator('.tabs-container .tab.active', { hasText: 'shop_test.go' }).waitFor({ timeout: 20000 });
  const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Profile' }).first();
  await lens.waitFor({ timeout: 30000 });
  await lens.click();
  await page.locator('.statusbar-item', { hasText: /TestWorkload.*\.pprof/ }).first().waitFor({ timeout: 120000 });
  await shot('go-run');
  await quickOpen('go-shop/internal/shop/shop.go');
  await page.locator('.tabs-container .tab.active', { hasText: /^shop\.go/ }).waitFor({ timeout: 20000 });
  const runs = fs.readdirSync(path.join(folder, '.hotlines')).filter((f) => f.startsWith('TestWorkload') && f.endsWith('.pprof'));
  assert.equal(runs.length, 1, 'the run wrote one profile');
  await truth.request('hotlines/loadProfile', { path: path.join(folder, '.hotlines', runs[0]) });
  const ann = await truth.request('hotlines/fileAnnotations', { textDocument: { uri: pathToFileURL(path.join(folder, 'go-shop/internal/shop/shop.go')).href } });
  const shown = ann.lines.filter((l) => l.heat > 0);
  assert.ok(shown.length > 0, 'the server annotates shop.go');
  let dom;
  for (let i = 0; i < 40; i++) {
    dom = await editorDecorations();
    if (Object.keys(dom.icons).length) break;
    await page.waitForTimeout(500);
  }
  await shot('go-run-annotated');
  // heat is relative to the profile's hottest line (in math.sin here), so compare levels.
  const visible = shown.filter((l) => l.line <= dom.lines);
  assert.ok(visible.length > 0);
  for (const l of visible) assert.deepEqual(dom.icons[l.line], [Math.min(4, Math.floor(l.heat * 5))], `icon on shop.go:${l.line}`);
  assert.deepEqual(Object.keys(dom.icons).map(Number).sort((a, b) => a - b), visible.map((l) => l.line));
});

test('"Profile Current Test" in PricingTest.discountIsFinite: a Maven run (offline, Debian\'s repository) annotates Pricing.java', { skip: !fs.existsSync('/usr/share/maven-repo/org/apache/maven/plugins/maven-surefire-plugin') && 'no Debian Maven repository' }, async () => {
  const testFile = path.join(folder, 'src/test/java/org/acme/shop/PricingTest.java');
  const tests = await truth.request('hotlines/testsInFile', { textDocument: { uri: pathToFileURL(testFile).href } });
  const t = tests.tests.find((x) => x.name === 'org.acme.shop.PricingTest#discountIsFinite');
  assert.ok(t, 'the server finds the test');
  // Maven resolves from /usr/share/maven-repo only (as tests/runs does), via the setting
  // written in before().
  await runCommand('View: Close All Editors');
  await quickOpen('PricingTest.java');
  await page.locator('.tabs-container .tab.active', { hasText: 'PricingTest.java' }).waitFor({ timeout: 20000 });
  await page.locator('.editor-instance .monaco-editor .view-line').first().waitFor();
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type(`${t.selectionRange.start.line + 2}`);
  await page.keyboard.press('Enter');
  await page.locator('[id="status.editor.selection"]', { hasText: `Ln ${t.selectionRange.start.line + 2},` }).waitFor();
  await page.waitForTimeout(1000); // the settings file is read
  await runCommand('hotlines: Profile Current Test');
  const failed = page.locator('.notifications-toasts', { hasText: 'discountIsFinite:' }).first();
  await Promise.race([
    page.locator('.statusbar-item', { hasText: /discountIsFinite.*\.jfr/ }).first().waitFor({ timeout: 240000 }),
    failed.waitFor({ timeout: 240000 }).then(async () => assert.fail(`the run failed: ${await failed.innerText()}`)),
  ]);
  await shot('java-run');
  const runs = fs.readdirSync(path.join(folder, '.hotlines')).filter((f) => f.includes('discountIsFinite') && f.endsWith('.jfr'));
  assert.equal(runs.length, 1, 'the run wrote one profile');
  await truth.request('hotlines/loadProfile', { path: path.join(folder, '.hotlines', runs[0]) });
  const ann = await truth.request('hotlines/fileAnnotations', { textDocument: { uri: pathToFileURL(pricing).href } });
  const shown = ann.lines.filter((l) => l.heat > 0);
  assert.ok(shown.length > 0, 'the server annotates Pricing.java');
  await quickOpen('src/main/java/org/acme/shop/Pricing.java');
  await page.locator('.tabs-container .tab.active', { hasText: /^Pricing\.java/ }).waitFor({ timeout: 20000 });
  let dom;
  for (let i = 0; i < 40; i++) {
    dom = await editorDecorations();
    if (Object.keys(dom.icons).length) break;
    await page.waitForTimeout(500);
  }
  await shot('java-run-annotated');
  const visible = shown.filter((l) => l.line <= dom.lines);
  for (const l of visible) assert.deepEqual(dom.icons[l.line], [Math.min(4, Math.floor(l.heat * 5))], `icon on Pricing.java:${l.line}`);
  assert.deepEqual(Object.keys(dom.icons).map(Number).sort((a, b) => a - b), visible.map((l) => l.line));
  assert.ok(dom.icons[15], 'the hot CPU line carries an icon');
});
