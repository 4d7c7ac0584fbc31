// Profile files open in hotlines: a read-only custom editor for *.jfr, *.jfr.gz, *.pb.gz,
// *.pprof, *.otlp and *.otlp.gz (the default editor for them) and *.collapsed, *.html and *.txt
// (async-profiler's flame graph, tree and text output; on request only, "Open With…", so that
// ordinary pages and text files keep their editors). Opening
// one — a double-click in the explorer, a file dropped on the editor area, "Open File…" —
// loads it into the server (with progress, the same as "Load Profile…") and shows its flame
// graph, redrawn when the file is rewritten. Closing the editor keeps the profile loaded.
import * as path from 'path';
import * as vscode from 'vscode';
import { answerOpenSource, showFlame, webviewOptions } from './flame_view';
import { loadProfile } from './load_profile';
import type { Session } from './session';

// Binary profiles open here by default; text ones (collapsed, HTML, text) only through "Open
// With…".
const VIEW_TYPES = ['hotlines.profile', 'hotlines.profile.text'];

class Provider implements vscode.CustomReadonlyEditorProvider {
  constructor(private readonly context: vscode.ExtensionContext, private readonly session: Session) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => {} };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = webviewOptions(this.context);
    panel.webview.html = `<!DOCTYPE html><html><body><p>Loading ${path.basename(document.uri.fsPath).replace(/[<&]/g, '')}…</p></body></html>`;
    const profile = await loadProfile(this.session, document.uri);
    if (!profile) {
      panel.webview.html = `<!DOCTYPE html><html><body><p>hotlines could not load this file (see the notification).</p></body></html>`;
      return;
    }
    const show = async () => {
      try {
        await showFlame(this.context, this.session, panel.webview, profile);
      } catch (e) {
        void vscode.window.showErrorMessage(`hotlines: flame graph: ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    const subscriptions = [
      answerOpenSource(this.session, panel.webview, () => profile.profileId),
      // The file rewritten (a new run into the same path): the graph follows.
      this.session.onDidReload((p) => {
        if (p.profileId === profile.profileId) void show();
      }),
    ];
    panel.onDidDispose(() => subscriptions.forEach((d) => d.dispose()));
    await show();
  }
}

export function activate(context: vscode.ExtensionContext, session: Session): void {
  const provider = new Provider(context, session);
  for (const viewType of VIEW_TYPES)
    context.subscriptions.push(
      vscode.window.registerCustomEditorProvider(viewType, provider, {
        webviewOptions: { retainContextWhenHidden: true },
        supportsMultipleEditorsPerDocument: true,
      }),
    );
}
