// "Attach to JVM…": the running JVMs (hotlines/listJvms, i.e. `jcmd -l`) in a quick pick, how
// long to record, then an attach-jvm run (JFR.start, JFR.dump, JFR.stop) through the Runs
// view. The JVM keeps running; its recording loads like any profile.
import * as vscode from 'vscode';
import * as P from './protocol';
import { attachParams } from './run_params';
import type { Runs } from './runs';
import type { Session } from './session';

async function attach(session: Session, runs: Runs): Promise<void> {
  let jvms: P.JvmInfo[];
  try {
    jvms = (await session.client.sendRequest(P.listJvms, {})).jvms;
  } catch (e) {
    void vscode.window.showErrorMessage(`hotlines: cannot list JVMs: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if (!jvms.length) {
    void vscode.window.showInformationMessage('hotlines: no running JVM found (jcmd -l lists none)');
    return;
  }
  const pick = await vscode.window.showQuickPick(
    jvms.map((j) => ({ label: j.mainClass || `pid ${j.pid}`, description: `pid ${j.pid}${j.args ? ` · ${j.args}` : ''}`, jvm: j })),
    { placeHolder: 'JVM to record' },
  );
  if (!pick) return;
  const seconds = await vscode.window.showInputBox({
    title: `Record ${pick.label} (pid ${pick.jvm.pid})`,
    prompt: 'Seconds to record',
    value: '10',
    validateInput: (v) => (attachParams(pick.jvm.pid, v) ? undefined : 'a number of seconds, at most 3600'),
  });
  const params = seconds === undefined ? undefined : attachParams(pick.jvm.pid, seconds);
  if (!params) return;
  await runs.start(`${pick.label.slice(pick.label.lastIndexOf('.') + 1)} (pid ${pick.jvm.pid})`, params);
}

export function activate(context: vscode.ExtensionContext, session: Session, runs: Runs): void {
  context.subscriptions.push(vscode.commands.registerCommand('hotlines.attachJvm', () => attach(session, runs)));
}
