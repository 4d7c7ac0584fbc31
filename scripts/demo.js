#!/usr/bin/env node
// The demo: a scripted editor session against the real `hotlines serve` (over vscode-jsonrpc,
// the JSON-RPC library VS Code uses): initialize -> load a bundled real profile -> hot methods
// -> annotations of one source file -> shutdown -> exit, printed for a person to read.
// Usage: node scripts/demo.js [path/to/hotlines] [profile] [source file]
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const rpc = require(path.join(__dirname, '../tests/client/node_modules/vscode-jsonrpc/node'));

const root = path.join(__dirname, '../examples/java-shop');
const binary = path.resolve(process.argv[2] || path.join(__dirname, '../build/hotlines'));
const profile = path.resolve(process.argv[3] || path.join(root, 'ap-cpu.jfr'));
const source = path.resolve(process.argv[4] || path.join(root, 'src/main/java/org/acme/shop/Pricing.java'));

const pct = (part, whole) => (whole ? (100 * part) / whole : 0).toFixed(1).padStart(5) + '%';
const bar = (heat) => '█'.repeat(Math.round(heat * 8)).padEnd(8, '·');

async function main() {
  const child = spawn(binary, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin));
  conn.listen();
  const exited = new Promise((resolve) => child.on('exit', resolve));

  const init = await conn.sendRequest('initialize', {
    processId: process.pid, rootUri: 'file://' + root, capabilities: {},
    clientInfo: { name: 'hotlines-demo' },
  });
  conn.sendNotification('initialized', {});
  console.log(`${init.serverInfo.name} ${init.serverInfo.version}: initialized with workspace ${root}\n`);

  const p = await conn.sendRequest('hotlines/loadProfile', { path: profile });
  console.log(`loaded ${path.basename(profile)} (${p.format}, ${p.producer}): ${p.samples} samples, ` +
    `${p.threads} threads, ${(p.durationNs / 1e9).toFixed(1)} s`);
  for (const e of p.events) console.log(`  event ${e.name}: ${e.count} samples, ${e.value} ${e.unit}`);

  const hot = await conn.sendRequest('hotlines/hotMethods', { profileId: p.profileId, limit: 10 });
  console.log(`\nhot methods (${hot.event}, ${hot.total.count} samples)\n   self   total  method`);
  for (const m of hot.methods)
    console.log(`${pct(m.self.value, hot.total.value)} ${pct(m.total.value, hot.total.value)}  ${m.name}`);

  const uri = 'file://' + source;
  conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'java', version: 1, text: fs.readFileSync(source, 'utf8') },
  });
  const ann = await conn.sendRequest('hotlines/fileAnnotations', { textDocument: { uri }, profileId: p.profileId });
  const byLine = new Map(ann.lines.map((l) => [l.line, l]));
  console.log(`\n${path.relative(root, source)} — ${ann.event}, self / total of all samples\n`);
  fs.readFileSync(source, 'utf8').split('\n').forEach((text, i) => {
    const l = byLine.get(i + 1);
    const gutter = l ? `${bar(l.heat)} ${pct(l.self.value, ann.total.value)} ${pct(l.total.value, ann.total.value)}`
                     : ' '.repeat(23);
    console.log(`${gutter} ${String(i + 1).padStart(3)}  ${text}`);
  });

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  const code = await exited;
  conn.dispose();
  console.log(`\nserver exited with code ${code}`);
  process.exit(code);
}

main().catch((e) => {
  console.error('demo failed:', e.message || e);
  process.exit(1);
});
