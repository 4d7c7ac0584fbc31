// The flame graph webview (editors/web's view, bundled as media/view.js). The data document
// comes from `hotlines flamegraph PROFILE -o doc.json --root <folders>` (the same binary as the
// server), written to the extension's storage and fetched by the page; the page posts
// {type: 'openSource', frame} on double-click, answered here with hotlines/resolveFrame →
// the editor at the line, or a message saying why the frame has no source. The page's theme
// follows VS Code's body classes by itself.
import { execFile } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { openFrame } from './navigate';
import type { Session } from './session';

interface FrameRef {
  id: number;
  name: string;
  line: number;
}

function flameDocument(server: string, profile: string, out: string): Promise<void> {
  const roots = (vscode.workspace.workspaceFolders ?? []).flatMap((f) => ['--root', f.uri.fsPath]);
  const remaps = vscode.workspace
    .getConfiguration('hotlines')
    .get<{ from: string; to: string }[]>('pathRemaps', [])
    .flatMap((r) => ['--remap', `${r.from}=${r.to}`]);
  return new Promise((resolve, reject) => {
    execFile(server, ['flamegraph', profile, '-o', out, '--link', 'none', ...roots, ...remaps], { maxBuffer: 1 << 24 }, (err, _o, stderr) =>
      err ? reject(new Error(stderr.trim() || err.message)) : resolve(),
    );
  });
}

export function pageHtml(webview: vscode.Webview, script: vscode.Uri, documentUrl: vscode.Uri, title: string): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const config = JSON.stringify({ document: webview.asWebviewUri(documentUrl).toString() }).replace(/</g, '\\u003c');
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource} data:; style-src ${webview.cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src ${webview.cspSource};">
<title>${title.replace(/[<&]/g, '')}</title>
<script type="application/json" id="hotlines-config">${config}</script>
</head><body><script nonce="${nonce}" src="${webview.asWebviewUri(script)}"></script></body></html>`;
}

export function activate(context: vscode.ExtensionContext, session: Session, server: string): void {
  let panel: vscode.WebviewPanel | undefined;
  const show = async () => {
    const p = session.active;
    if (!p) {
      void vscode.window.showInformationMessage('hotlines: load a profile first');
      return;
    }
    const dir = vscode.Uri.joinPath(context.globalStorageUri, 'flame');
    fs.mkdirSync(dir.fsPath, { recursive: true });
    const doc = vscode.Uri.joinPath(dir, `${p.profileId}-${Date.now()}.json`);
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'hotlines: flame graph' }, () =>
        flameDocument(server, p.path, doc.fsPath),
      );
    } catch (e) {
      void vscode.window.showErrorMessage(`hotlines: flame graph: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const media = vscode.Uri.joinPath(context.extensionUri, 'media');
    if (!panel) {
      panel = vscode.window.createWebviewPanel('hotlines.flame', 'Flame Graph', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [media, dir],
      });
      panel.onDidDispose(() => (panel = undefined));
      panel.webview.onDidReceiveMessage(async (m: { type?: string; frame?: FrameRef }) => {
        if (m.type !== 'openSource' || !m.frame) return;
        const f = m.frame;
        // The node id names the exact call path in the view; the function name is the fallback.
        let why = f.id ? await openFrame(session, { nodeId: f.id }) : 'no node';
        if (why && !why.includes(': external') && !why.includes(': unresolved')) why = await openFrame(session, { function: f.name });
        void panel?.webview.postMessage({ type: 'openSourceResult', ok: !why, message: why });
      });
    }
    panel.title = `Flame Graph · ${path.basename(p.path)}`;
    panel.webview.html = pageHtml(panel.webview, vscode.Uri.joinPath(media, 'view.js'), doc, path.basename(p.path));
    panel.reveal(vscode.ViewColumn.Beside, true);
  };
  context.subscriptions.push(vscode.commands.registerCommand('hotlines.showFlameGraph', show));
}
