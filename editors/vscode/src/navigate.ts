// Opening a frame's source: hotlines/resolveFrame, then the editor at the line; a frame with
// no workspace file says why (external: JDK/library/native, unresolved: the resolver's reason).
import * as vscode from 'vscode';
import * as P from './protocol';
import type { Session } from './session';

// Where a source opens: the column already showing it, else the column of a visible text
// editor, else beside the active view (a flame graph alone on the screen stays visible).
function sourceColumn(uri: string): vscode.ViewColumn {
  const editors = vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme === 'file' && e.viewColumn);
  const same = editors.find((e) => e.document.uri.toString() === uri);
  return same?.viewColumn ?? editors[0]?.viewColumn ?? vscode.ViewColumn.Beside;
}

export async function openLocation(uri: string, line: number): Promise<void> {
  const pos = new vscode.Position(Math.max(0, line - 1), 0);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  await vscode.window.showTextDocument(doc, {
    selection: new vscode.Range(pos, pos),
    viewColumn: sourceColumn(doc.uri.toString()),
    preserveFocus: false,
  });
}

export function unresolvedMessage(r: P.ResolvedFrame): string {
  return `${r.function}: ${r.status} — ${r.reason || r.rule}`;
}

// Returns a message when nothing was opened ('' when it was).
export async function openFrame(session: Session, params: P.ResolveFrameParams): Promise<string> {
  let r: P.ResolvedFrame;
  try {
    r = await session.client.sendRequest(P.resolveFrame, params);
  } catch (e) {
    const m = `hotlines: cannot resolve ${params.function ?? params.nodeId}: ${e instanceof Error ? e.message : String(e)}`;
    void vscode.window.showWarningMessage(m);
    return m;
  }
  if (r.status === 'resolved' && r.location) {
    await openLocation(r.location.uri, r.location.range.start.line + 1);
    return '';
  }
  const m = unresolvedMessage(r);
  void vscode.window.showInformationMessage(`hotlines: ${m}`);
  return m;
}

export function activate(context: vscode.ExtensionContext, session: Session): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hotlines.openFunction', (name: string) => openFrame(session, { function: name })),
    vscode.commands.registerCommand('hotlines.openLine', (uri: string, line: number) => openLocation(uri, line)),
  );
}
