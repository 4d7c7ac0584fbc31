// Entry point of the bundle. Picks the source and host from the page:
//  - a `<script type="application/json" id="hotlines-data">` document (the HTML export):
//    EmbeddedSource + LinkHost (vscode:// or file:// links as exported);
//  - a `<script type="application/json" id="hotlines-config">` (a served page or a webview):
//    {"document": URL} fetches a document to compute from, {"query": URL} asks the server
//    per query, {"channel": "message"} asks the parent over postMessage; "open" is the URL
//    that opens sources (else the parent is messaged).
// Exposes window.hotlines (the App, ready promise) for hosts and tests. Main-thread only.
import { App } from './app';
import { checkDocument } from './document';
import { EmbeddedSource } from './embedded_source';
import { HttpHost, LinkHost, MessageHost, type ViewHost } from './host';
import { httpSend, messageSend, RemoteSource } from './remote_source';
import type { ProfileSource } from './source';
import css from './style.css';

interface Config {
  document?: string;
  query?: string;
  channel?: 'message';
  open?: string;
}

declare global {
  interface Window {
    hotlines?: { app: App; ready: Promise<void> };
  }
}

function json(id: string): unknown {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent ?? 'null') : undefined;
}

async function sourceAndHost(): Promise<[ProfileSource, ViewHost]> {
  const embedded = json('hotlines-data');
  if (embedded !== undefined) {
    const doc = checkDocument(embedded);
    return [new EmbeddedSource(doc), new LinkHost(doc.link.scheme)];
  }
  const config = (json('hotlines-config') ?? { channel: 'message' }) as Config;
  const host: ViewHost = config.open ? new HttpHost(config.open) : new MessageHost();
  if (config.document) {
    const r = await fetch(config.document);
    if (!r.ok) throw new Error(`${config.document}: ${r.status}`);
    return [new EmbeddedSource(checkDocument(await r.json())), host];
  }
  if (config.query) return [new RemoteSource(httpSend(config.query)), host];
  return [new RemoteSource(messageSend()), host];
}

function main(): void {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.appendChild(style);
  const mount = document.createElement('div');
  mount.className = 'hl-mount';
  document.body.appendChild(mount);
  const ready = sourceAndHost().then(
    async ([source, host]) => {
      const app = new App(source, host, mount);
      if (window.hotlines) window.hotlines.app = app;
      await app.start();
    },
    (e: unknown) => {
      mount.textContent = `hotlines view: ${e instanceof Error ? e.message : String(e)}`;
      document.body.dataset.state = 'error';
    },
  );
  window.hotlines = { app: undefined as unknown as App, ready };
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
else main();
