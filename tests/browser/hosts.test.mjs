// The view driven by a host instead of an embedded document (editors/web/README.md, "Hosts"):
// a page with `hotlines-config` whose queries go over HTTP. The "server" here is this test,
// answering through playwright's request routing: `document` mode serves the data document,
// `query` mode answers info/flame/timeline/baseline from it (the wire format a real host
// implements), `open` records the frames the page asks to open ({fn, line}: a function of the document). Numbers are checked against
// the engine (`hotlines hot/tree --json`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixture, hotlines, hotlinesJson, javaShop, launch, newPage, screenshot, tempDir } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = fs.readFileSync(path.join(here, '../../editors/web/dist/view.js'), 'utf8');
const cpu = fixture('ap-cpu.jfr');
const origin = 'http://hotlines.test';
let browser, doc;

before(async () => {
  const out = path.join(tempDir('hosts'), 'cpu.json');
  hotlines('flamegraph', cpu, '-o', out, '--root', javaShop);
  doc = JSON.parse(fs.readFileSync(out, 'utf8'));
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// A host's answers computed from the document: node 0 is the root, document node i is i + 1.
function flame(q) {
  const n = doc.nodes.parent.length + 1, rows = doc.rows;
  const z = () => new Array(n).fill(0);
  const sc = z(), sv = z();
  let ac = 0, av = 0;
  for (let r = 0; r < rows.event.length; r++) {
    if (rows.event[r] !== q.event) continue;
    if (q.threads && !q.threads.includes(rows.thread[r])) continue;
    if (q.window && (rows.bucket[r] < q.window[0] || rows.bucket[r] >= q.window[1])) continue;
    const c = rows.count[r], v = (rows.value ?? rows.count)[r];
    ac += c;
    av += v;
    sc[rows.node[r] + 1] += c;
    sv[rows.node[r] + 1] += v;
  }
  const parent = [-1, ...doc.nodes.parent.map((p) => p + 1)];
  const tc = [...sc], tv = [...sv];
  for (let i = n - 1; i > 0; i--) {
    tc[parent[i]] += tc[i];
    tv[parent[i]] += tv[i];
  }
  tc[0] = ac;
  tv[0] = av;
  return {
    unit: doc.events[q.event].unit,
    measure: q.measure,
    kinds: doc.kinds,
    functions: doc.functions,
    nodes: {
      parent,
      fn: [-1, ...doc.nodes.fn],
      kind: [0, ...doc.nodes.kind],
      line: [0, ...doc.nodes.line],
      id: [0, ...doc.nodes.id],
      self_count: sc,
      total_count: tc,
      self_value: sv,
      total_value: tv,
    },
  };
}
function timeline(q) {
  const nb = doc.timeline.buckets, rows = doc.rows, per = new Map(), all = new Array(nb).fill(0);
  for (let r = 0; r < rows.event.length; r++) {
    if (rows.event[r] !== q.event || (q.threads && !q.threads.includes(rows.thread[r]))) continue;
    const t = rows.thread[r];
    if (!per.has(t)) per.set(t, new Array(nb).fill(0));
    per.get(t)[rows.bucket[r]] += rows.count[r];
    all[rows.bucket[r]] += rows.count[r];
  }
  const threads = [...per].map(([thread, weights]) => ({ thread, weights, total: weights.reduce((a, b) => a + b, 0) }));
  threads.sort((a, b) => b.total - a.total);
  return { buckets: nb, bucket_ns: doc.timeline.bucket_ns, all, threads };
}
const answer = {
  info: () => ({
    title: doc.title,
    format: doc.profile.format,
    producer: doc.profile.producer,
    events: doc.events,
    threads: doc.threads,
    initial: doc.initial,
    timeline: doc.timeline,
    link: doc.link,
    baseline: null,
  }),
  flame,
  timeline,
  baseline: () => null,
};

// A page served by the "host" with the given config; returns the page, the queries it made
// and the frames it asked to open.
async function serve(config) {
  const { context, page, errors } = await newPage(browser);
  const queries = [], opened = [];
  await context.route(`${origin}/**`, async (route) => {
    const req = route.request(), url = new URL(req.url());
    const json = (body) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) });
    if (url.pathname === '/view.html')
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><meta charset="utf-8"><body><script type="application/json" id="hotlines-config">${JSON.stringify(config)}</script><script src="/view.js"></script>`,
      });
    if (url.pathname === '/view.js') return route.fulfill({ contentType: 'text/javascript', body: bundle });
    if (url.pathname === '/document.json') return json(doc);
    if (url.pathname === '/query') {
      const { method, params } = req.postDataJSON();
      queries.push({ method, params });
      return json(answer[method](params));
    }
    if (url.pathname === '/open') {
      opened.push(req.postDataJSON().frame);
      return json({ message: 'opened in the editor' });
    }
    return route.fulfill({ status: 404, body: '' });
  });
  await page.goto(`${origin}/view.html`);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state));
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'ready', errors.join('\n'));
  return { page, context, queries, opened };
}

async function widest(page, name) {
  const boxes = await page.evaluate((n) => window.hotlines.app.frames().filter((b) => b.name === n), name);
  boxes.sort((a, b) => b.width - a.width);
  assert.ok(boxes.length > 0, `no frame named ${name}`);
  return boxes[0];
}
const center = (b) => [b.x + b.width / 2, b.y + b.height / 2];

for (const mode of ['query', 'document']) {
  test(`a ${mode} host drives the view: totals, search, window, open source`, async () => {
    const config = mode === 'query' ? { query: '/query', open: '/open' } : { document: '/document.json', open: '/open' };
    const { page, context, queries, opened } = await serve(config);
    const engine = hotlinesJson('tree', cpu, '--depth', '1', '--min-pct', '0');
    assert.equal(Number(await page.getAttribute('[data-role=status]', 'data-total')), engine.view.total);
    const roots = await page.evaluate(() => {
      const app = window.hotlines.app, t = app.currentTree();
      return app.frames().filter((b) => t.parent[b.node] === 0).sort((a, b) => b.width - a.width).map((b) => b.name);
    });
    assert.equal(roots[0], engine.nodes[0].name);
    // Search share equals the engine's total%.
    await page.fill('[data-role=search]', 'discount');
    const hot = hotlinesJson('hot', cpu, '-m', 'Pricing.discount');
    assert.equal(Number(await page.getAttribute('[data-role=match]', 'data-matched')), hot.functions[0].total);
    // A window: the query carries it, the totals are the engine's for it.
    const renders = await page.evaluate(() => window.hotlines.app.renders);
    await page.evaluate(() => window.hotlines.app.setWindow([10, 40]));
    await page.waitForFunction((r) => window.hotlines.app.renders > r, renders);
    const b = doc.timeline.bucket_ns;
    const windowed = hotlinesJson('hot', cpu, '--from', `${10 * b}ns`, '--to', `${40 * b}ns`);
    assert.equal(Number(await page.getAttribute('[data-role=status]', 'data-total')), windowed.view.total);
    if (mode === 'query') {
      assert.deepEqual(queries.map((q) => q.method).slice(0, 3), ['info', 'baseline', 'flame']);
      assert.deepEqual(queries.at(-1), { method: 'flame', params: { event: 0, measure: 'value', threads: null, window: [10, 40] } });
    } else {
      assert.deepEqual(queries, []);
    }
    // Open source goes to the host as the frame's function (its index in the document's
    // functions, whose resolved path the host looks up itself) and line 15; no path.
    await page.evaluate(() => window.hotlines.app.setWindow(null));
    await page.mouse.dblclick(...center(await widest(page, 'org.acme.shop.Pricing.discount')));
    await page.waitForFunction(() => /opening/.test(document.querySelector('[data-role=message]')?.textContent ?? ''));
    assert.equal(opened.length, 1);
    assert.deepEqual(Object.keys(opened[0]).sort(), ['fn', 'line']);
    const fn = doc.functions[opened[0].fn];
    assert.equal(fn.name, 'org.acme.shop.Pricing.discount');
    assert.equal(fn.path, path.join(javaShop, 'src/main/java/org/acme/shop/Pricing.java'));
    assert.equal(opened[0].line, 15);
    await screenshot(page, `hosts-${mode}`);
    await context.close();
  });
}
