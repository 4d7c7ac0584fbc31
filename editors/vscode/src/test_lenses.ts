// "Profile" code lenses on JUnit and Go tests (hotlines/testsInFile) and "Profile Current
// Test": hotlines/run with the lens's ready-made params, output streamed to the "hotlines
// runs" channel, a cancellable progress notification (hotlines/cancelRun), and a message when
// hotlines/runFinished arrives (the server loads the profile itself, which refreshes the rest).
import * as vscode from 'vscode';
import * as P from './protocol';
import { withBuildArgs } from './run_params';
import type { Session } from './session';

export function activate(context: vscode.ExtensionContext, session: Session): void {
  const output = vscode.window.createOutputChannel('hotlines runs');
  const finished = new Map<string, (f: P.RunFinished) => void>();
  const early = new Map<string, P.RunFinished>();
  context.subscriptions.push(
    output,
    session.client.onNotification(P.runOutput, (o) => output.append(o.text)),
    session.client.onNotification(P.runFinished, (f) => {
      const done = finished.get(f.runId);
      if (done) done(f);
      else early.set(f.runId, f);
    }),
  );

  const runTest = async (test: P.TestInFile) => {
    output.show(true);
    const params = withBuildArgs(test.run, vscode.workspace.getConfiguration('hotlines').get<string[]>('runs.buildArgs', []));
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `hotlines: profiling ${test.name}`, cancellable: true },
      async (_progress, token) => {
        let r: P.RunResult;
        try {
          r = await session.client.sendRequest(P.run, params);
        } catch (e) {
          void vscode.window.showErrorMessage(`hotlines: ${e instanceof Error ? e.message : String(e)}`);
          return;
        }
        const cancel = token.onCancellationRequested(() => void session.client.sendRequest(P.cancelRun, { runId: r.runId }));
        const f = await new Promise<P.RunFinished>((resolve) => {
          const e = early.get(r.runId);
          if (e) resolve(e);
          else finished.set(r.runId, resolve);
        });
        cancel.dispose();
        finished.delete(r.runId);
        early.delete(r.runId);
        if (f.error) void vscode.window.showErrorMessage(`hotlines: ${test.name}: ${f.error.kind}: ${f.error.message}`);
        else void vscode.window.showInformationMessage(`hotlines: ${test.name} profiled in ${(f.durationMs / 1000).toFixed(1)} s (exit ${f.exitCode})`);
      },
    );
  };

  const testsIn = async (doc: vscode.TextDocument): Promise<P.TestInFile[]> => {
    const r = await session.client.sendRequest(P.testsInFile, { textDocument: { uri: doc.uri.toString() } });
    return r.tests;
  };

  const changed = new vscode.EventEmitter<void>();
  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses: async (doc) => {
      if (!vscode.workspace.getConfiguration('hotlines').get<boolean>('testLenses', true)) return [];
      const tests = await testsIn(doc).catch(() => []);
      return tests.map((t) => {
        const s = t.selectionRange.start;
        return new vscode.CodeLens(new vscode.Range(s.line, 0, s.line, 0), {
          title: '$(flame) Profile',
          tooltip: `Run ${t.name} with the profiler and annotate the result`,
          command: 'hotlines.profileTest',
          arguments: [t],
        });
      });
    },
  };
  context.subscriptions.push(
    changed,
    vscode.languages.registerCodeLensProvider([{ scheme: 'file', pattern: '**/*.java' }, { scheme: 'file', pattern: '**/*_test.go' }], lenses),
    vscode.commands.registerCommand('hotlines.profileTest', (t: P.TestInFile) => runTest(t)),
    vscode.commands.registerCommand('hotlines.profileCurrentTest', async () => {
      const ed = vscode.window.activeTextEditor;
      if (!ed) return;
      const line = ed.selection.active.line;
      const tests = await testsIn(ed.document);
      const t = tests.find((x) => x.range.start.line <= line && line <= x.range.end.line);
      if (!t) {
        void vscode.window.showInformationMessage('hotlines: the cursor is not in a test');
        return;
      }
      await runTest(t);
    }),
  );
}
