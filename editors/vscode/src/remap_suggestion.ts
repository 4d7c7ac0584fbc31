// After a profile loads: when most of its weight does not resolve to workspace files and the
// server's report suggests a path remap that would resolve files, offer to add it to the
// `hotlines.pathRemaps` setting (the server then re-resolves and the gutters redraw).
import * as vscode from 'vscode';
import * as P from './protocol';
import type { Session } from './session';

export function activate(context: vscode.ExtensionContext, session: Session): void {
  const offered = new Set<string>();
  const check = async (p: P.ProfileSummary) => {
    let r: P.ResolutionReport;
    try {
      r = await session.client.sendRequest(P.resolutionReport, { profileId: p.profileId });
    } catch {
      return;
    }
    const fix = r.failingPrefixes.find((f) => f.suggestedRemap && f.wouldResolve > 0)?.suggestedRemap;
    if (!r.warning || !fix) return;
    const key = `${fix.from}=${fix.to}`;
    if (offered.has(key)) return;
    offered.add(key);
    const add = `Remap ${fix.from} → ${fix.to}`;
    const pick = await vscode.window.showWarningMessage(`hotlines: ${r.warning}`, add);
    if (pick !== add) return;
    const c = vscode.workspace.getConfiguration('hotlines');
    const remaps = c.get<P.Remap[]>('pathRemaps', []);
    await c.update('pathRemaps', [...remaps, fix], vscode.ConfigurationTarget.Workspace);
  };
  context.subscriptions.push(session.onDidLoad((p) => void check(p)));
}
