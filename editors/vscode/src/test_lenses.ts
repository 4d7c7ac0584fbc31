// "Profile" code lenses on JUnit, Go, JS/TS and GoogleTest tests, JUnit test classes and Java main methods
// (hotlines/testsInFile), and "Profile Current Test" (the innermost test or class at the
// cursor). A lens runs its ready-made hotlines/run params through the Runs view (runs.ts)
// with the hotlines.runs.buildArgs setting added; a main's lens asks for program arguments
// first (java_main.ts).
import * as vscode from 'vscode';
import { profileMain } from './java_main';
import * as P from './protocol';
import { withBuildArgs } from './run_params';
import { buildArgs, type Runs, testsIn } from './runs';
import type { Session } from './session';

// "org.acme.shop.PricingTest#discountIsFinite" → "PricingTest#discountIsFinite".
function shortName(t: P.TestInFile): string {
  const hash = t.name.indexOf('#');
  const cls = hash >= 0 ? t.name.slice(0, hash) : t.name;
  return cls.slice(cls.lastIndexOf('.') + 1) + (hash >= 0 ? t.name.slice(hash) : '');
}

// The test or test class whose range holds `line` most tightly.
function innermost(tests: P.TestInFile[], line: number): P.TestInFile | undefined {
  const size = (t: P.TestInFile) => t.range.end.line - t.range.start.line;
  return tests.filter((x) => x.range.start.line <= line && line <= x.range.end.line).sort((a, b) => size(a) - size(b))[0];
}

export function activate(context: vscode.ExtensionContext, session: Session, runs: Runs): void {
  const runTest = (t: P.TestInFile) => runs.start(shortName(t), withBuildArgs(t.run, buildArgs()));

  const changed = new vscode.EventEmitter<void>();
  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: changed.event,
    provideCodeLenses: async (doc) => {
      if (!vscode.workspace.getConfiguration('hotlines').get<boolean>('testLenses', true)) return [];
      const r = await testsIn(session, doc.uri).catch(() => undefined);
      if (!r) return [];
      const lens = (t: P.TestInFile, command: string, tooltip: string) => {
        const s = t.selectionRange.start;
        return new vscode.CodeLens(new vscode.Range(s.line, 0, s.line, 0), { title: '$(flame) Profile', tooltip, command, arguments: [t] });
      };
      return [
        ...r.tests.map((t) => lens(t, 'hotlines.profileTest', `Run ${t.name} with the profiler and annotate the result`)),
        ...(r.classes ?? []).map((c) => lens(c, 'hotlines.profileTest', `Run every test of ${c.name} with the profiler and annotate the result`)),
        ...(r.mains ?? []).map((m) => lens(m, 'hotlines.profileMain', `Run ${m.name} with the profiler and annotate the result`)),
      ];
    },
  };
  context.subscriptions.push(
    changed,
    vscode.languages.registerCodeLensProvider([
        { scheme: 'file', pattern: '**/*.java' },
        { scheme: 'file', pattern: '**/*_test.go' },
        { scheme: 'file', pattern: '**/*.{test,spec}.{js,mjs,cjs,ts,mts,cts}' },
        { scheme: 'file', pattern: '**/*.{cc,cpp,cxx,c++}' },
      ], lenses),
    vscode.commands.registerCommand('hotlines.profileTest', (t: P.TestInFile) => runTest(t)),
    vscode.commands.registerCommand('hotlines.profileMain', (m: P.TestInFile) => profileMain(session, runs, m)),
    vscode.commands.registerCommand('hotlines.profileCurrentTest', async () => {
      const ed = vscode.window.activeTextEditor;
      if (!ed) return;
      const line = ed.selection.active.line;
      const r = await testsIn(session, ed.document.uri);
      const t = innermost([...r.tests, ...(r.classes ?? [])], line);
      if (!t) {
        void vscode.window.showInformationMessage('hotlines: the cursor is not in a test');
        return;
      }
      await runTest(t);
    }),
  );
}
