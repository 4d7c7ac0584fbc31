// "Load Profile…": a file picker, or the file the explorer's context menu was opened on.
// The server loads it with progress (cancellable); its profileLoaded notification refreshes
// everything else. Also "Unload Profile".
import * as vscode from 'vscode';
import * as P from './protocol';
import type { Session } from './session';

export async function loadProfile(session: Session, uri?: vscode.Uri): Promise<P.ProfileSummary | undefined> {
  if (!uri) {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Load Profile',
      filters: { Profiles: ['jfr', 'gz', 'pprof', 'pb', 'otlp', 'collapsed', 'html', 'txt', 'cpuprofile', 'heapprofile'], 'All files': ['*'] },
    });
    if (!picked || !picked.length) return undefined;
    uri = picked[0];
  }
  const target = uri;
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `hotlines: loading ${vscode.workspace.asRelativePath(target)}`, cancellable: true },
      async (_progress, token) => {
        const p = await session.client.sendRequest(P.loadProfile, { path: target.fsPath }, token);
        for (const w of p.warnings ?? []) void vscode.window.showWarningMessage(`hotlines: ${w.message}`);
        return p;
      },
    );
  } catch (e) {
    void vscode.window.showErrorMessage(`hotlines: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

export function activate(context: vscode.ExtensionContext, session: Session): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hotlines.openProfile', (uri?: vscode.Uri) => loadProfile(session, uri)),
    vscode.commands.registerCommand('hotlines.closeProfile', async (item?: { profile?: P.ProfileSummary }) => {
      const p = item?.profile ?? session.active;
      if (!p) return;
      await session.client.sendRequest(P.unloadProfile, { profileId: p.profileId });
      await session.refreshProfiles();
      session.fire();
    }),
  );
}
