// Profiled runs and the Runs view. Every run the extension starts ("Profile" lenses, "Profile
// Current Test", "Profile Java Main Class…", "Attach to JVM…") goes through `Runs.start`:
// hotlines/run, its output streamed to the "hotlines runs" channel and kept per run, a
// cancellable progress notification (hotlines/cancelRun), and a record in the Runs view with
// its status. The server loads the run's profile itself (profileLoaded refreshes the rest).
// The view: click a run → its output as a read-only document; context menu: Cancel, Run
// Again, Load Profile. The last 30 finished runs are kept in the workspace state.
import * as path from 'path';
import * as vscode from 'vscode';
import * as P from './protocol';
import { type RunRecord, runDescription, runDuration, runStatus, runTooltip, trimHistory } from './run_history';
import type { Session } from './session';

const HISTORY_KEY = 'hotlines.runs.history';
const MAX_HISTORY = 30;
const OUTPUT_SCHEME = 'hotlines-run';
const ICONS = { running: 'sync~spin', profiled: 'pass', failed: 'error', cancelled: 'circle-slash' } as const;

export class Runs implements vscode.TreeDataProvider<RunRecord>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private records: RunRecord[];
  private readonly finished = new Map<string, (f: P.RunFinished) => void>();
  private readonly early = new Map<string, P.RunFinished>();
  private readonly earlyOutput = new Map<string, string>();
  private readonly treeChanged = new vscode.EventEmitter<RunRecord | undefined>();
  readonly onDidChangeTreeData = this.treeChanged.event;
  private readonly docChanged = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.docChanged.event;
  readonly output = vscode.window.createOutputChannel('hotlines runs');
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly session: Session, private readonly state: vscode.Memento) {
    this.records = state.get<RunRecord[]>(HISTORY_KEY, []).filter((r) => r.finished);
  }

  attach(): vscode.Disposable[] {
    return [
      this.session.client.onNotification(P.runOutput, (o) => {
        this.output.append(o.text);
        const r = this.records.find((x) => x.runId === o.runId && !x.finished); // ids restart with the server
        if (r) {
          r.output += o.text;
          this.docChanged.fire(outputUri(r));
        } else this.earlyOutput.set(o.runId, (this.earlyOutput.get(o.runId) ?? '') + o.text);
      }),
      this.session.client.onNotification(P.runFinished, (f) => {
        const done = this.finished.get(f.runId);
        if (done) done(f);
        else this.early.set(f.runId, f);
      }),
    ];
  }

  all(): readonly RunRecord[] {
    return this.records;
  }

  // Runs `params`; resolves with the finished record (or undefined when the server refused).
  async start(label: string, params: P.RunParams): Promise<RunRecord | undefined> {
    this.output.show(true);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `hotlines: profiling ${label}`, cancellable: true },
      async (_progress, token) => {
        let res: P.RunResult;
        try {
          res = await this.session.client.sendRequest(P.run, params);
        } catch (e) {
          void vscode.window.showErrorMessage(`hotlines: ${label}: ${e instanceof Error ? e.message : String(e)}`);
          return undefined;
        }
        const record: RunRecord = { runId: res.runId, label, params, startedAt: Date.now(), profilePath: res.profilePath, output: this.earlyOutput.get(res.runId) ?? '' };
        this.earlyOutput.delete(res.runId);
        this.records.unshift(record);
        this.changed();
        const cancel = token.onCancellationRequested(() => void this.cancel(record));
        const f = await new Promise<P.RunFinished>((resolve) => {
          const e = this.early.get(res.runId);
          if (e) resolve(e);
          else this.finished.set(res.runId, resolve);
        });
        cancel.dispose();
        this.finished.delete(res.runId);
        this.early.delete(res.runId);
        record.finished = f;
        this.changed();
        if (f.error) {
          if (f.error.kind !== 'cancelled') {
            const show = 'Show Output';
            void vscode.window.showErrorMessage(`hotlines: ${label}: ${f.error.kind}: ${f.error.message}`, show).then((p) => {
              if (p === show) void this.showOutput(record);
            });
          }
        } else {
          void vscode.window.showInformationMessage(`hotlines: ${label} profiled in ${runDuration(f.durationMs)} (exit ${f.exitCode})`);
        }
        return record;
      },
    );
  }

  async cancel(r: RunRecord): Promise<void> {
    if (!r.finished) await this.session.client.sendRequest(P.cancelRun, { runId: r.runId });
  }

  async showOutput(r: RunRecord): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(outputUri(r));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const r = this.records.find((x) => key(x) === path.basename(uri.path, '.log'));
    if (!r) return 'hotlines: this run is no longer in the history';
    const head = `# ${r.label} — ${runDescription(r, Date.now())}\n# profile: ${r.profilePath}\n\n`;
    return head + r.output;
  }

  getTreeItem(r: RunRecord): vscode.TreeItem {
    const it = new vscode.TreeItem(r.label);
    const status = runStatus(r);
    it.id = key(r);
    it.description = runDescription(r, Date.now());
    it.tooltip = runTooltip(r);
    it.iconPath = new vscode.ThemeIcon(ICONS[status]);
    it.contextValue = `run-${status}`;
    it.command = { command: 'hotlines.runs.showOutput', title: 'Show Output', arguments: [r] };
    return it;
  }

  getChildren(r?: RunRecord): RunRecord[] {
    return r ? [] : this.records;
  }

  private changed(): void {
    this.records = trimHistory(this.records, MAX_HISTORY);
    // Kept without their output: the profiles stay on disk, the logs do not.
    void this.state.update(HISTORY_KEY, this.records.filter((r) => r.finished).map((r) => ({ ...r, output: '' })));
    this.treeChanged.fire(undefined);
    const running = this.records.some((r) => !r.finished);
    if (running && !this.ticker) this.ticker = setInterval(() => this.treeChanged.fire(undefined), 1000);
    if (!running && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.treeChanged.dispose();
    this.docChanged.dispose();
    this.output.dispose();
  }
}

// Run ids restart with the server: a record is its id and start time.
function key(r: RunRecord): string {
  return `${r.runId}-${r.startedAt}`;
}

// The hotlines.runs.buildArgs setting (added to java-test and java-main runs).
export function buildArgs(): string[] {
  return vscode.workspace.getConfiguration('hotlines').get<string[]>('runs.buildArgs', []);
}

// The tests and main methods in a file, with ready-made run params.
export async function testsIn(session: Session, uri: vscode.Uri): Promise<P.TestsInFile> {
  return session.client.sendRequest(P.testsInFile, { textDocument: { uri: uri.toString() } });
}

function outputUri(r: RunRecord): vscode.Uri {
  return vscode.Uri.from({ scheme: OUTPUT_SCHEME, path: `/${key(r)}.log` });
}

export function activate(context: vscode.ExtensionContext, session: Session): Runs {
  const runs = new Runs(session, context.workspaceState);
  context.subscriptions.push(
    runs,
    ...runs.attach(),
    vscode.window.registerTreeDataProvider('hotlines.runs', runs),
    vscode.workspace.registerTextDocumentContentProvider(OUTPUT_SCHEME, runs),
    vscode.commands.registerCommand('hotlines.runs.showOutput', (r: RunRecord) => runs.showOutput(r)),
    vscode.commands.registerCommand('hotlines.runs.cancel', (r?: RunRecord) => {
      const target = r ?? runs.all().find((x) => !x.finished);
      return target ? runs.cancel(target) : undefined;
    }),
    vscode.commands.registerCommand('hotlines.runs.rerun', (r: RunRecord) => runs.start(r.label, r.params)),
    vscode.commands.registerCommand('hotlines.runs.loadProfile', (r: RunRecord) =>
      vscode.commands.executeCommand('hotlines.openProfile', vscode.Uri.file(r.profilePath)),
    ),
  );
  return runs;
}
