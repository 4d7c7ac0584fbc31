// The status bar item ("🔥 ap-cpu.jfr · cpu · 87% resolved") and its quick pick: event,
// threads, thread states, time window, baseline, load. Choices go to the server as
// workspace/executeCommand (hotlines.selectEvent, selectThreads, selectStates, setWindow,
// setBaseline) and refresh the annotations.
import * as path from 'path';
import * as vscode from 'vscode';
import * as P from './protocol';
import type { Session } from './session';

async function pickEvent(session: Session): Promise<void> {
  const r = await session.client.sendRequest(P.events, {});
  const shown = session.shownEvent();
  // An event fed by several JFR types is followed by them: a type's name shows only its samples.
  const items = r.events.flatMap((e) => [
    { label: e.name, description: `${e.samples} samples · ${e.unit}${e.name === shown ? ' · shown' : ''}` },
    ...(e.sources && e.sources.length > 1
      ? e.sources.map((s) => ({ label: s, description: `part of ${e.name}${s === shown ? ' · shown' : ''}` }))
      : []),
  ]);
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Event to show' });
  if (!pick) return;
  session.event = pick.label;
  await session.executeServerCommand(P.Commands.selectEvent, { event: pick.label });
}

async function pickThreads(session: Session): Promise<void> {
  const r = await session.client.sendRequest(P.threads, { grouped: true });
  const items = r.threads.map((t) => ({ label: t.name, picked: session.threads.includes(t.name), description: t.threads && t.threads > 1 ? `${t.threads} threads` : '' }));
  const picks = await vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: 'Threads (none picked: all threads)' });
  if (!picks) return;
  session.threads = picks.map((p) => p.label);
  await session.executeServerCommand(P.Commands.selectThreads, { threads: session.threads });
}

// The thread states of the shown event's samples (JDK execution samples, async-profiler wall
// samples); the pick is kept for other events that record states.
export async function pickStates(session: Session): Promise<void> {
  const r = await session.client.sendRequest(P.events, {});
  const shown = r.events.find((e) => e.name === session.shownEvent());
  const states = (shown?.states ?? []).filter((s) => s.name);
  if (!states.length) {
    void vscode.window.showInformationMessage(`hotlines: the ${session.shownEvent()} samples record no thread state`);
    return;
  }
  const total = states.reduce((n, s) => n + s.total.count, 0);
  const items = states.map((s) => ({
    label: s.name,
    picked: session.states.includes(s.name),
    description: `${s.total.count} samples · ${total ? ((100 * s.total.count) / total).toFixed(1) : '0'}%`,
  }));
  const picks = await vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: 'Thread states (none picked: all)' });
  if (!picks) return;
  session.states = picks.map((p) => p.label);
  await session.executeServerCommand(P.Commands.selectStates, { states: session.states });
}

async function pickWindow(session: Session): Promise<void> {
  const v = await vscode.window.showInputBox({
    prompt: 'Time window FROM-TO since the profile start (e.g. 1s-3s, 500ms-); empty: the whole profile',
    value: session.window.from || session.window.to ? `${session.window.from ?? ''}-${session.window.to ?? ''}` : '',
  });
  if (v === undefined) return;
  const [from, to] = v.split('-').map((s) => s.trim());
  const w: { from?: string; to?: string } = {};
  if (from) w.from = from;
  if (to) w.to = to;
  await session.executeServerCommand(P.Commands.setWindow, w);
  session.window = w;
}

export async function pickBaseline(session: Session): Promise<void> {
  await session.refreshProfiles();
  const others = session.profiles.filter((p) => p.profileId !== session.active?.profileId);
  const items: (vscode.QuickPickItem & { id?: string; file?: boolean })[] = [
    ...others.map((p) => ({ label: path.basename(p.path), description: p.profileId, id: p.profileId })),
    { label: '$(file) Load a profile as baseline…', file: true },
    { label: '$(close) No baseline' },
  ];
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Compare the active profile with…' });
  if (!pick) return;
  let id = pick.id;
  if (pick.file) {
    const active = session.active;
    const files = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Baseline' });
    if (!files?.length || !active) return;
    const b = await session.client.sendRequest(P.loadProfile, { path: files[0].fsPath });
    id = b.profileId;
    await session.client.sendRequest(P.loadProfile, { path: active.path }); // active again
  }
  await session.executeServerCommand(P.Commands.setBaseline, id ? { profileId: id } : {});
  session.baseline = id ? session.profiles.find((p) => p.profileId === id) : undefined;
  session.fire();
}

export function activate(context: vscode.ExtensionContext, session: Session): void {
  const item = vscode.window.createStatusBarItem('hotlines.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'hotlines';
  item.command = 'hotlines.selectView';
  const render = async () => {
    const p = session.active;
    if (!p) {
      item.text = '$(flame) hotlines: no profile';
      item.tooltip = 'Load a profile';
      item.command = 'hotlines.openProfile';
      item.show();
      return;
    }
    item.command = 'hotlines.selectView';
    let resolved = '';
    try {
      const r = await session.client.sendRequest(P.resolutionReport, {});
      resolved = ` · ${Math.round(r.resolved.pct)}% resolved`;
    } catch {
      /* no workspace: nothing to say */
    }
    const base = session.baseline ? ` · vs ${path.basename(session.baseline.path)}` : '';
    // The states apply only to an event whose samples record them.
    const recorded = p.events.find((e) => e.name === session.shownEvent())?.states ?? [];
    const states = session.states.length && recorded.length ? ` (${session.states.join(', ')})` : '';
    item.text = `$(flame) ${path.basename(p.path)} · ${session.shownEvent()}${states}${resolved}${base}`;
    item.tooltip = `${p.path}\n${p.samples} samples, ${p.threads} threads · click to change event, threads, states, window or baseline`;
    item.show();
  };
  context.subscriptions.push(
    item,
    session.onDidChange(() => void render()),
    vscode.commands.registerCommand('hotlines.selectView', async () => {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'Event…', run: pickEvent },
          { label: 'Threads…', run: pickThreads },
          { label: 'Thread States…', run: pickStates },
          { label: 'Time Window…', run: pickWindow },
          { label: 'Compare with Baseline…', run: pickBaseline },
          { label: 'Load Profile…', run: async () => void (await vscode.commands.executeCommand('hotlines.openProfile')) },
        ],
        { placeHolder: 'hotlines view' },
      );
      if (pick) await pick.run(session);
    }),
    vscode.commands.registerCommand('hotlines.pickEvent', () => pickEvent(session)),
    vscode.commands.registerCommand('hotlines.pickThreads', () => pickThreads(session)),
    vscode.commands.registerCommand('hotlines.pickStates', () => pickStates(session)),
    vscode.commands.registerCommand('hotlines.pickWindow', () => pickWindow(session)),
    vscode.commands.registerCommand('hotlines.compareWithBaseline', () => pickBaseline(session)),
  );
  void render();
}
