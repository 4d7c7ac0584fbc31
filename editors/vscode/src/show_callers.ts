// `hotlines.showCallers`, the command the server's code lenses carry ({profileId, function}):
// the method's callers (hotlines/callers, first level) in a quick pick; picking one opens its
// source.
import * as vscode from 'vscode';
import { formatPercent, measureOf } from './heat';
import { openFrame } from './navigate';
import * as P from './protocol';
import type { Session } from './session';

export function activate(context: vscode.ExtensionContext, session: Session): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('hotlines.showCallers', async (arg?: { profileId?: string; function?: string }) => {
      if (!arg?.function) return;
      const r = await session.client.sendRequest(P.callers, { profileId: arg.profileId, function: arg.function, maxDepth: 2 });
      const m = session.measure();
      const whole = measureOf(r.total, m);
      const items = r.nodes
        .filter((n) => n.depth === 1)
        .map((n) => ({ label: n.name, description: `${formatPercent(measureOf(n.total, m), whole)}${n.line ? ` · line ${n.line}` : ''}`, node: n }));
      const pick = await vscode.window.showQuickPick(items, { placeHolder: `Callers of ${arg.function} (${r.event})` });
      if (pick) await openFrame(session, { profileId: arg.profileId, function: pick.node.name });
    }),
  );
}
