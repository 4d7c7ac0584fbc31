// Real-browser tests of the flame graph export (`hotlines flamegraph`): Debian's chromium
// loads the page exported from the java-shop async-profiler cpu recording; every number the
// page shows is checked against the query engine's own answer (`hotlines tree/hot/callers
// --json`), and user actions go through real mouse and keyboard events. Screenshots land in
// HOTLINES_ARTIFACTS.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { fixture, hotlines, hotlinesJson, javaShop, launch, newPage, screenshot, tempDir } from './harness.mjs';

const cpu = fixture('ap-cpu.jfr');
let browser, dir;
const pages = {};

function exportView(name, profile, ...flags) {
  const out = path.join(dir, `${name}.html`);
  hotlines('flamegraph', profile, '-o', out, ...flags);
  return out;
}

before(async () => {
  dir = tempDir('view');
  pages.cpu = exportView('cpu', cpu, '--root', javaShop);
  pages.cpuFile = exportView('cpu-file', cpu, '--root', javaShop, '--link', 'file');
  // A workspace with the package but without Pricing.java: Pricing's frames are unresolved.
  const partial = tempDir('partial-root');
  fs.mkdirSync(path.join(partial, 'src/main/java/org/acme/shop'), { recursive: true });
  fs.copyFileSync(path.join(javaShop, 'src/main/java/org/acme/shop/Main.java'), path.join(partial, 'src/main/java/org/acme/shop/Main.java'));
  pages.unresolved = exportView('unresolved', cpu, '--root', partial);
  pages.multi = exportView('multi', fixture('ap-multi.jfr'), '--root', javaShop, '--baseline', cpu);
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function open(file, options = {}) {
  const { context, page, errors } = await newPage(browser, options);
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state));
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready', errors.join('\n'));
  return { context, page, errors, requests };
}

// The drawn frames (boxes in viewport pixels) with each node's parent and stable id.
function frames(page) {
  return page.evaluate(() => {
    const app = window.hotlines.app, t = app.currentTree();
    return app.frames().map((b) => ({ ...b, parent: t.parent[b.node], id: t.id[b.node] }));
  });
}
async function widest(page, name) {
  const boxes = (await frames(page)).filter((b) => b.name === name).sort((a, b) => b.width - a.width);
  assert.ok(boxes.length > 0, `no frame named ${name} is drawn`);
  return boxes[0];
}
const center = (b) => [b.x + b.width / 2, b.y + b.height / 2];
const status = (page) => page.evaluate(() => ({ ...document.querySelector('[data-role=status]').dataset }));
async function searchFor(page, text) {
  await page.fill('[data-role=search]', text);
  return page.evaluate(() => ({ ...document.querySelector('[data-role=match]').dataset, text: document.querySelector('[data-role=match]').textContent }));
}

test('the export is one self-contained file: no request beyond the page itself', async () => {
  const html = fs.readFileSync(pages.cpu, 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.speedscope)/i);
  const { page, requests } = await open(pages.cpu);
  await page.waitForTimeout(200);
  assert.deepEqual(requests, [pathToFileURL(pages.cpu).href]);
  await screenshot(page, 'view-initial');
  await page.context().close();
});

test('the widest frame under the root is the engine heaviest root, with its numbers', async () => {
  const engine = hotlinesJson('tree', cpu, '--depth', '1', '--min-pct', '0');
  const expected = engine.nodes[0];
  const { page } = await open(pages.cpu);
  const roots = (await frames(page)).filter((b) => b.parent === 0).sort((a, b) => b.width - a.width);
  assert.equal(roots[0].name, expected.name);
  assert.equal(roots[0].id, expected.id);
  assert.ok(roots[0].width > roots[1].width, 'the widest root is strictly the widest');
  // Hovering it shows the engine's total and percent.
  await page.mouse.move(...center(roots[0]));
  const tip = await page.textContent('[data-role=tooltip]');
  assert.ok(tip.includes(expected.name), tip);
  assert.ok(tip.includes(`${expected.total.toLocaleString('en-US')} samples (${expected.total_pct.toFixed(2)}%)`), tip);
  await screenshot(page, 'view-hover-widest');
  assert.equal((await status(page)).total, String(engine.view.total));
  await page.context().close();
});

test('every node of the page equals the engine flame graph node with the same id', async () => {
  const engine = hotlinesJson('tree', cpu, '--depth', '0', '--min-pct', '0');
  const { page } = await open(pages.cpu);
  const nodes = await page.evaluate(() => {
    const t = window.hotlines.app.currentTree(), out = [];
    for (let i = 1; i < t.size; i++) if (t.totalValue[i] > 0) out.push([t.id[i], t.selfValue[i], t.totalValue[i], t.line[i], t.kindName(i)]);
    return out;
  });
  assert.equal(nodes.length, engine.nodes.length);
  const byId = new Map(engine.nodes.map((n) => [n.id, n]));
  for (const [id, self, total, line, kind] of nodes) {
    const e = byId.get(id);
    assert.ok(e, `node ${id} is not in the engine's tree`);
    assert.deepEqual([self, total, line, kind], [e.self, e.total, e.line, e.kind], e.name);
  }
  await page.context().close();
});

test('search for discount: the matched share equals the engine total% of Pricing.discount', async () => {
  const hot = hotlinesJson('hot', cpu, '-m', 'discount', '--top', '5');
  assert.equal(hot.functions.length, 1);
  const [discount] = hot.functions;
  assert.equal(discount.name, 'org.acme.shop.Pricing.discount');
  const { page } = await open(pages.cpu);
  const m = await searchFor(page, 'discount');
  assert.equal(Number(m.matched), discount.total);
  assert.ok(Math.abs(Number(m.pct) - discount.total_pct) < 1e-9, `${m.pct} vs ${discount.total_pct}`);
  assert.ok(m.text.includes(`${discount.total_pct.toFixed(2)}%`), m.text);
  await screenshot(page, 'view-search-discount');
  // A search that matches nothing shows 0%, clearing it removes the share.
  assert.equal(Number((await searchFor(page, 'no-such-frame-xyz')).pct), 0);
  assert.equal((await searchFor(page, '')).pct, undefined);
  await page.context().close();
});

test('double-clicking Pricing.discount navigates to vscode://file/…/Pricing.java:15', async () => {
  const { page } = await open(pages.cpu);
  const box = await widest(page, 'org.acme.shop.Pricing.discount');
  const nav = page.waitForEvent('request', (r) => r.url().startsWith('vscode:'));
  await page.mouse.dblclick(...center(box));
  const url = (await nav).url();
  assert.equal(url, `vscode://file${path.join(javaShop, 'src/main/java/org/acme/shop/Pricing.java')}:15`);
  assert.equal(await page.textContent('[data-role=where]'), 'org/acme/shop/Pricing.java:15');
  await screenshot(page, 'view-open-source');
  await page.context().close();
});

test('with --link file the frame opens file://…/Pricing.java#L15', async () => {
  const { page, context } = await open(pages.cpuFile);
  const box = await widest(page, 'org.acme.shop.Pricing.discount');
  const popup = context.waitForEvent('page');
  await page.keyboard.down('Control');
  await page.mouse.click(...center(box));
  await page.keyboard.up('Control');
  const opened = await popup;
  assert.equal(opened.url(), `${pathToFileURL(path.join(javaShop, 'src/main/java/org/acme/shop/Pricing.java')).href}#L15`);
  await context.close();
});

test('an unresolved frame says why and opens nothing; external code says so', async () => {
  const { page, requests } = await open(pages.unresolved);
  const box = await widest(page, 'org.acme.shop.Pricing.discount');
  await page.mouse.click(...center(box));
  assert.equal(await page.textContent('[data-role=where]'), 'unresolved: no Pricing.{java,kt,scala,groovy} declares org.acme.shop.Pricing');
  assert.equal(await page.isDisabled('[data-role=open-source]'), true);
  const after = await widest(page, 'org.acme.shop.Pricing.discount');
  await page.mouse.dblclick(...center(after));
  await page.waitForTimeout(100);
  assert.match(await page.textContent('[data-role=message]'), /^cannot open org\.acme\.shop\.Pricing\.discount: no Pricing\./);
  assert.equal(requests.filter((u) => !u.startsWith('file:')).length, 0);
  await screenshot(page, 'view-unresolved');
  // Main.main resolves in that workspace; the JDK's Thread.run is external.
  await page.keyboard.press('Escape');
  await page.mouse.move(...center(await widest(page, 'java.lang.Thread.run')));
  assert.match(await page.textContent('[data-role=tooltip]'), /sourceexternal: JDK or library class/);
  await page.mouse.click(...center(await widest(page, 'org.acme.shop.Main.main')));
  assert.match(await page.textContent('[data-role=where]'), /^org\/acme\/shop\/Main\.java:\d+$/);
  await page.context().close();
});

test('click zooms, breadcrumbs lead back, reset and Esc restore, icicle puts the root on top', async () => {
  const { page } = await open(pages.cpu);
  const lambda = await widest(page, 'org.acme.shop.Main.lambda$main$0');
  await page.mouse.click(...center(lambda));
  const zoomed = await widest(page, 'org.acme.shop.Main.lambda$main$0');
  const canvasWidth = await page.evaluate(() => document.querySelector('.hl-flame canvas').getBoundingClientRect().width);
  assert.equal(zoomed.width, canvasWidth);
  const crumbs = await page.$$eval('[data-role=crumbs] button', (bs) => bs.map((b) => b.title));
  assert.deepEqual(crumbs, ['all', 'java.lang.Thread.run', 'org.acme.shop.Main$$Lambda.run', 'org.acme.shop.Main.lambda$main$0']);
  await screenshot(page, 'view-zoomed');
  await page.click('[data-role=crumbs] button[title="java.lang.Thread.run"]');
  assert.equal((await widest(page, 'java.lang.Thread.run')).width, canvasWidth);
  await page.click('[data-role=reset]');
  assert.ok((await widest(page, 'java.lang.Thread.run')).width < canvasWidth);
  await page.mouse.click(...center(await widest(page, 'java.lang.Thread.run')));
  await page.keyboard.press('Escape');
  assert.deepEqual(await page.$$eval('[data-role=crumbs] button', (bs) => bs.map((b) => b.title)), ['all']);
  await page.selectOption('[data-role=mode]', 'icicle');
  const root = await widest(page, 'all'), child = await widest(page, 'java.lang.Thread.run');
  assert.ok(root.y < child.y, 'icicle: the root is above its children');
  await screenshot(page, 'view-icicle');
  await page.context().close();
});

test('brushing the timeline filters the graph to the window the engine computes', async () => {
  const { page } = await open(pages.cpu);
  const before = await status(page);
  const [x0, x1] = await page.evaluate(() => [window.hotlines.app.bucketX(20) + 1, window.hotlines.app.bucketX(60) + 1]);
  const y = await page.evaluate(() => {
    const r = document.querySelector('.hl-timeline canvas').getBoundingClientRect();
    return r.top + 25;
  });
  const renders = await page.evaluate(() => window.hotlines.app.renders);
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, y, { steps: 4 });
  await page.mouse.move(x1, y, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((r) => window.hotlines.app.renders > r && document.body.dataset.state === 'ready', renders);
  const w = await page.evaluate(() => ({ ...document.querySelector('.hl-timeline').dataset }));
  const bucket = await page.evaluate(() => JSON.parse(document.getElementById('hotlines-data').textContent).timeline.bucket_ns);
  assert.equal(Number(w.fromNs), 20 * bucket);
  assert.equal(Number(w.toNs), 61 * bucket);
  const engine = hotlinesJson('hot', cpu, '--from', `${w.fromNs}ns`, '--to', `${w.toNs}ns`, '-m', 'Pricing.discount');
  const after = await status(page);
  assert.equal(Number(after.total), engine.view.total);
  assert.ok(engine.view.total < Number(before.total) && engine.view.total > 0);
  const m = await searchFor(page, 'discount');
  assert.equal(Number(m.matched), engine.functions[0].total);
  assert.ok(Math.abs(Number(m.pct) - engine.functions[0].total_pct) < 1e-9);
  await screenshot(page, 'view-brushed');
  // "whole profile" clears the window.
  await page.click('[data-role=clear-window]');
  await page.waitForFunction((t) => document.querySelector('[data-role=status]').dataset.total === t, before.total);
  await page.context().close();
});

test('the thread picker shows one thread as the engine filters it', async () => {
  const { page } = await open(pages.cpu);
  await page.click('[data-role=threads] summary');
  const label = page.locator('[data-role=threads] label', { hasText: 'worker-0' });
  const tid = /\((\d+)\)/.exec(await label.textContent())[1];
  await label.locator('input').check();
  await page.waitForFunction(() => document.querySelector('[data-role=threads] summary').textContent === 'thread: worker-0');
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  const engine = hotlinesJson('hot', cpu, '-t', tid);
  assert.equal(Number((await status(page)).total), engine.view.total);
  assert.equal(engine.view.total, 625);
  await screenshot(page, 'view-thread-worker-0');
  await page.context().close();
});

test('the event picker and weight switch show the engine totals of each event', async () => {
  const multi = fixture('ap-multi.jfr');
  const { page } = await open(pages.multi);
  const events = await page.$$eval('[data-role=event] option', (os) => os.map((o) => o.textContent.split(' ')[0]));
  assert.deepEqual(events, hotlinesJson('events', multi).events.map((e) => e.name));
  await page.selectOption('[data-role=event]', { index: events.indexOf('alloc') });
  await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.querySelector('[data-role=status]').textContent.startsWith('alloc'));
  assert.equal(Number((await status(page)).total), hotlinesJson('hot', multi, '-e', 'alloc').view.total);
  await page.selectOption('[data-role=measure]', 'count');
  await page.waitForFunction(() => document.querySelector('[data-role=status]').textContent.includes('samples'));
  assert.equal(Number((await status(page)).total), hotlinesJson('hot', multi, '-e', 'alloc', '--count').view.total);
  const m = await searchFor(page, 'Pricing.labels');
  const labels = hotlinesJson('hot', multi, '-e', 'alloc', '--count', '-m', 'Pricing.labels');
  assert.equal(Number(m.matched), labels.functions[0].total);
  await screenshot(page, 'view-alloc-count');
  await page.context().close();
});

test('sandwich: Pricing.discount with its callers above and callees below, engine totals', async () => {
  const { page } = await open(pages.cpu);
  await page.mouse.click(...center(await widest(page, 'org.acme.shop.Pricing.discount')));
  await page.click('[data-role=sandwich]');
  await page.waitForFunction(() => document.querySelector('[data-role=sandwich-title]').dataset.total !== undefined);
  const callers = hotlinesJson('callers', cpu, '-m', 'Pricing.discount', '--depth', '2', '--min-pct', '0');
  assert.equal(Number(await page.getAttribute('[data-role=sandwich-title]', 'data-total')), callers.anchor_total);
  const drawn = await page.evaluate(() => {
    const s = window.hotlines.app.sandwichFrames();
    return { callers: s.callers.map((b) => [b.name, b.y, b.width]), callees: s.callees.map((b) => [b.name, b.y, b.width]) };
  });
  // The callers pane: the function at the bottom, its direct callers right above it.
  const [fnName, fnY, fnWidth] = drawn.callers[0];
  assert.equal(fnName, 'org.acme.shop.Pricing.discount');
  const direct = drawn.callers.filter((c) => c[1] < fnY && c[1] > fnY - 30).map((c) => [c[0], Math.round((c[2] / fnWidth) * callers.anchor_total)]);
  const expected = callers.nodes.filter((n) => n.depth === 1).map((n) => [n.name, n.total]);
  assert.deepEqual(direct.sort(), expected.sort());
  // The callees pane: the function on top, callees below.
  assert.equal(drawn.callees[0][0], 'org.acme.shop.Pricing.discount');
  assert.ok(drawn.callees.slice(1).every((c) => c[1] > drawn.callees[0][1]));
  await screenshot(page, 'view-sandwich');
  await page.context().close();
});

test('diff mode colours by change against the baseline and shows its share', async () => {
  const base = hotlinesJson('tree', cpu, '--depth', '1', '--min-pct', '0');
  const { page } = await open(pages.multi);
  await page.selectOption('[data-role=color]', 'diff');
  const root = (await frames(page)).filter((b) => b.parent === 0).sort((a, b) => b.width - a.width)[0];
  const baseNode = base.nodes.find((n) => n.id === root.id);
  assert.ok(baseNode, `${root.name} is in the baseline`);
  await page.mouse.move(...center(root));
  const tip = await page.textContent('[data-role=tooltip]');
  assert.ok(tip.includes(`baseline${baseNode.total_pct.toFixed(2)}% →`), tip);
  await screenshot(page, 'view-diff');
  await page.context().close();
});

test('colours: JIT frames green, interpreted yellow; by package, one colour per package', async () => {
  const { page } = await open(pages.cpu);
  // A frame's colour, read at its top-left corner (labels start further in).
  const colour = async (name) => {
    const b = await widest(page, name);
    return page.evaluate(([x, y]) => {
      const c = document.querySelector('.hl-flame canvas'), r = c.getBoundingClientRect(), dpr = devicePixelRatio;
      return [...c.getContext('2d').getImageData(Math.round((x - r.left + 1) * dpr), Math.round((y - r.top + 1) * dpr), 1, 1).data.slice(0, 3)];
    }, [b.x, b.y]);
  };
  const [r1, g1, b1] = await colour('org.acme.shop.Pricing.discount'); // jit
  assert.ok(g1 > r1 + 40 && g1 > b1 + 40, `JIT frame is green: ${[r1, g1, b1]}`);
  const [r2, g2, b2] = await colour('java.lang.Thread.run'); // interpreted
  assert.ok(r2 > b2 + 60 && g2 > b2 + 60, `interpreted frame is yellow: ${[r2, g2, b2]}`);
  await page.selectOption('[data-role=color]', 'package');
  await page.waitForTimeout(50);
  const shop1 = await colour('org.acme.shop.Pricing.cached');
  const shop2 = await colour('org.acme.shop.Main.lambda$main$0');
  const lang = await colour('java.lang.Thread.run');
  assert.deepEqual(shop1, shop2);
  assert.notDeepEqual(shop1, lang);
  await screenshot(page, 'view-package-colours');
  await page.context().close();
});

test('themes: prefers-color-scheme and VS Code theme variables colour the canvas', async () => {
  const pixel = (page) =>
    page.evaluate(() => {
      const c = document.querySelector('.hl-flame canvas');
      return [...c.getContext('2d').getImageData(2, 2, 1, 1).data.slice(0, 3)];
    });
  const dark = await open(pages.cpu, { colorScheme: 'dark' });
  const d = await pixel(dark.page);
  assert.ok(d[0] + d[1] + d[2] < 150, `dark background ${d}`);
  await screenshot(dark.page, 'view-dark');
  // A VS Code webview sets body classes and --vscode-* variables.
  await dark.page.evaluate(() => {
    document.body.style.setProperty('--vscode-editor-background', 'rgb(10, 60, 20)');
    document.body.classList.add('vscode-dark');
  });
  await dark.page.waitForTimeout(100);
  assert.deepEqual(await pixel(dark.page), [10, 60, 20]);
  await dark.page.context().close();
  const light = await open(pages.cpu, { colorScheme: 'light' });
  const l = await pixel(light.page);
  assert.ok(l[0] + l[1] + l[2] > 600, `light background ${l}`);
  await light.page.context().close();
});
