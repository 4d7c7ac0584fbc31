// The numbers the VS Code test compares the DOM with, asked of the real server directly: a
// `hotlines serve` over stdio (vscode-jsonrpc from the extension's node_modules) with the same
// workspace folder and profile.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../editors/vscode/package.json'));
const rpc = require('vscode-jsonrpc/node');

export async function serverSession(binary, root) {
  const child = spawn(binary, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {},
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'ws' }],
  });
  conn.sendNotification('initialized', {});
  return {
    request: (method, params) => conn.sendRequest(method, params),
    notify: (method, params) => conn.sendNotification(method, params),
    async close() {
      await conn.sendRequest('shutdown').catch(() => {});
      conn.sendNotification('exit');
      await new Promise((r) => child.once('exit', r));
      conn.dispose();
    },
  };
}
