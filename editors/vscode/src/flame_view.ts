// The flame graph webview (editors/web's view, bundled as media/view.js), in a panel beside
// the editor ("Show Flame Graph") and as the editor of profile files (profile_editor.ts). The
// data document comes from hotlines/flameDocument (the session's view and baseline, sources
// from the workspace resolution), written to the extension's storage and fetched by the page;
// the page posts {type: 'openSource', frame} on double-click, answered here with
// hotlines/resolveFrame → the editor at the line, or a message saying why the frame has no
// source. The page's theme follows VS Code's body classes by itself. The panel follows the
// session: a change of profile or view redraws it with a new document.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { openFrame } from './navigate';
import * as P from './protocol';
import type { Session } from './session';

interface FrameRef {
  id: number;
  name: string;
  line: number;
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

function storage(context: vscode.ExtensionContext): vscode.Uri {
  return vscode.Uri.joinPath(context.globalStorageUri, 'flame');
}

export function webviewOptions(context: vscode.ExtensionContext): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'media'), storage(context)] };
}

// Writes the profile's document where the webview can fetch it (older ones of the profile go).
async function writeDocument(context: vscode.ExtensionContext, session: Session, profileId: string): Promise<vscode.Uri> {
  const doc = await session.client.sendRequest(P.flameDocument, { profileId });
  const dir = storage(context).fsPath;
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(dir)) if (f.startsWith(`${profileId}-`)) fs.rmSync(path.join(dir, f), { force: true });
  const file = vscode.Uri.joinPath(storage(context), `${profileId}-${Date.now()}.json`);
  fs.writeFileSync(file.fsPath, JSON.stringify(doc));
  return file;
}

// Writes `profile`'s document (with progress in the status bar) for pages to fetch.
function flameDocument(context: vscode.ExtensionContext, session: Session, profile: P.ProfileSummary): Thenable<vscode.Uri> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'hotlines: flame graph' }, () =>
    writeDocument(context, session, profile.profileId),
  );
}

function setPage(context: vscode.ExtensionContext, webview: vscode.Webview, doc: vscode.Uri, profile: P.ProfileSummary): void {
  webview.html = pageHtml(webview, vscode.Uri.joinPath(context.extensionUri, 'media', 'view.js'), doc, path.basename(profile.path));
}

// Shows `profile`'s flame graph in `webview`.
export async function showFlame(context: vscode.ExtensionContext, session: Session, webview: vscode.Webview, profile: P.ProfileSummary): Promise<void> {
  setPage(context, webview, await flameDocument(context, session, profile), profile);
}

export function answerOpenSource(session: Session, webview: vscode.Webview, profileId: () => string | undefined): vscode.Disposable {
  return webview.onDidReceiveMessage(async (m: { type?: string; frame?: FrameRef }) => {
    if (m.type !== 'openSource' || !m.frame) return;
    const f = m.frame;
    const id = profileId();
    // The node id names the exact call path in the view; the function name is the fallback.
    let why = f.id ? await openFrame(session, { profileId: id, nodeId: f.id }) : 'no node';
    if (why && !why.includes(': external') && !why.includes(': unresolved')) why = await openFrame(session, { profileId: id, function: f.name });
    void webview.postMessage({ type: 'openSourceResult', ok: !why, message: why });
  });
}

// What the panel's graph depends on besides the file: it is redrawn when this changes.
function viewKey(session: Session, p: P.ProfileSummary): string {
  const hide = vscode.workspace.getConfiguration('hotlines').get<unknown>('hide', []);
  return JSON.stringify([p.profileId, session.shownEvent(), session.measure(), session.threads, session.baseline?.profileId, hide]);
}

export function activate(context: vscode.ExtensionContext, session: Session): void {
  let panel: vscode.WebviewPanel | undefined;
  let shown: P.ProfileSummary | undefined;
  let shownKey = '';
  let generation = 0; // the latest draw wins when changes come faster than documents
  const draw = async (p: P.ProfileSummary): Promise<boolean> => {
    if (!panel) return false;
    const mine = ++generation;
    const key = viewKey(session, p);
    try {
      const doc = await flameDocument(context, session, p);
      if (!panel || mine !== generation) return false;
      shown = p;
      shownKey = key;
      panel.title = `Flame Graph · ${path.basename(p.path)}`;
      setPage(context, panel.webview, doc, p);
      return true;
    } catch (e) {
      if (mine === generation) void vscode.window.showErrorMessage(`hotlines: flame graph: ${e instanceof Error ? e.message : String(e)}`);
      return false;
    }
  };
  const show = async () => {
    const p = session.active;
    if (!p) {
      void vscode.window.showInformationMessage('hotlines: load a profile first');
      return;
    }
    if (!panel) {
      panel = vscode.window.createWebviewPanel('hotlines.flame', 'Flame Graph', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        ...webviewOptions(context),
        retainContextWhenHidden: true,
      });
      const answering = answerOpenSource(session, panel.webview, () => shown?.profileId);
      panel.onDidDispose(() => {
        answering.dispose();
        panel = undefined;
        shown = undefined;
        shownKey = '';
      });
    }
    if (await draw(p)) panel?.reveal(undefined, true);
  };
  // An open panel follows the session: the profile loaded last, its event, measure, threads,
  // baseline and hidden frames, and a rewrite of its file. (The page's own thread and window
  // pickers are reset by a redraw; nothing else redraws it.)
  const follow = () => {
    const p = session.active;
    if (panel && p && viewKey(session, p) !== shownKey) void draw(p);
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('hotlines.showFlameGraph', show),
    session.onDidChange(follow),
    session.onDidReload((p) => {
      if (panel && p.profileId === shown?.profileId) void draw(p);
    }),
  );
}
