// ViewHost: what the page asks of whoever shows it — open a frame's source. LinkHost (the HTML
// export) turns the frame's resolved path into a `vscode://file/…:LINE` or `file://…#LINE`
// link and follows it; MessageHost (a VS Code webview, an embedding page) posts
// {type: 'openSource', frame} to its parent; HttpHost (a page served by the hotlines server)
// POSTs the frame's function (its index in the served document) and line to the server, which
// resolves the source itself and navigates the editor. Main-thread only.

export interface FrameRef {
  id: number; // stable node id (0 when the view has none, e.g. sandwich nodes)
  fn: number; // the function's index in the document's (the tree's) functions; -1: the root
  name: string;
  kind: string;
  line: number; // 0 when unknown
  file?: string; // recorded or derived (org/acme/shop/Pricing.java)
  status?: string; // resolved, external or unresolved
  path?: string; // resolved absolute path
  why?: string; // why there is no path
}

export interface OpenResult {
  ok: boolean;
  message: string; // the link followed, or why nothing was opened
}

export interface ViewHost {
  openSource(frame: FrameRef): Promise<OpenResult>;
}

// The URL of a frame's source for a link scheme, or null when there is nothing to link to.
export function sourceUrl(frame: FrameRef, scheme: string): string | null {
  if (!frame.path || scheme === 'none') return null;
  const path = encodeURI(frame.path.replace(/\\/g, '/')).replace(/#/g, '%23').replace(/\?/g, '%3F');
  const abs = path.startsWith('/') ? path : '/' + path;
  if (scheme === 'vscode') return `vscode://file${abs}${frame.line > 0 ? `:${frame.line}` : ''}`;
  return `file://${abs}${frame.line > 0 ? `#L${frame.line}` : ''}`;
}

export class LinkHost implements ViewHost {
  constructor(private readonly scheme: string) {}

  async openSource(frame: FrameRef): Promise<OpenResult> {
    if (this.scheme === 'none') return { ok: false, message: 'source links are off (exported with --link none)' };
    const url = sourceUrl(frame, this.scheme);
    if (!url) return { ok: false, message: frame.why || 'no source file for this frame' };
    // A page that embeds the export may take the navigation over (and tests watch it).
    const ev = new CustomEvent('hotlines:navigate', { detail: { url, frame }, cancelable: true });
    if (window.dispatchEvent(ev)) {
      const a = document.createElement('a');
      a.href = url;
      if (this.scheme === 'file') a.target = '_blank';
      a.rel = 'noopener';
      document.body.appendChild(a);
      a.click();
      a.remove();
    }
    return { ok: true, message: url };
  }
}

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare global {
  interface Window {
    acquireVsCodeApi?: () => VsCodeApi;
  }
}

let vscodeApi: VsCodeApi | null = null;
// The webview's messaging API (acquired once), or the parent window.
export function parentChannel(): VsCodeApi {
  if (!vscodeApi) vscodeApi = window.acquireVsCodeApi ? window.acquireVsCodeApi() : { postMessage: (m) => window.parent.postMessage(m, '*') };
  return vscodeApi;
}

export class MessageHost implements ViewHost {
  async openSource(frame: FrameRef): Promise<OpenResult> {
    parentChannel().postMessage({ type: 'openSource', frame });
    return { ok: true, message: `asked the editor to open ${frame.file ?? frame.name}` };
  }
}

export class HttpHost implements ViewHost {
  constructor(private readonly url: string) {}

  async openSource(frame: FrameRef): Promise<OpenResult> {
    if (frame.fn < 0) return { ok: false, message: frame.why ?? 'no source file for this frame' };
    // The function and line only: the server opens the source it resolved for that function.
    const r = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ frame: { fn: frame.fn, line: frame.line } }),
    });
    const body = (await r.json().catch(() => ({}))) as { message?: string };
    return { ok: r.ok, message: body.message ?? (r.ok ? 'opened in the editor' : `the server answered ${r.status}`) };
  }
}
