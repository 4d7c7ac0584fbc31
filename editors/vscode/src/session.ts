// Shared state of the extension: the language client, the profiles the server has loaded,
// and an event fired when anything shown may have changed (a profile loaded or reloaded, the
// session view changed). Features subscribe to `onDidChange` and re-query. Extension-host
// thread only.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import * as P from './protocol';

export class Session implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  // A profile loaded or reloaded (the client keeps one handler per notification: this is it).
  private readonly loaded = new vscode.EventEmitter<P.ProfileSummary>();
  readonly onDidLoad = this.loaded.event;
  // A loaded profile's file was rewritten and loaded again (same id).
  private readonly reloaded = new vscode.EventEmitter<P.ProfileSummary>();
  readonly onDidReload = this.reloaded.event;
  profiles: P.ProfileSummary[] = [];
  active: P.ProfileSummary | undefined; // the one loaded last
  event = ''; // the session view's event as selected here ('' = the profile's default)
  threads: string[] = [];
  states: string[] = []; // thread states; they apply to events whose samples record one
  window: { from?: string; to?: string } = {};
  baseline: P.ProfileSummary | undefined;
  private pending: NodeJS.Timeout | undefined; // a change event about to fire

  constructor(readonly client: LanguageClient, readonly context: vscode.ExtensionContext) {}

  attach(): void {
    const onProfile = (p: P.ProfileSummary, fresh: boolean) => {
      const i = this.profiles.findIndex((q) => q.profileId === p.profileId);
      if (i >= 0) this.profiles[i] = p;
      else this.profiles.push(p);
      this.active = p;
      this.loaded.fire(p);
      this.fire();
      if (fresh) void this.keepViewIfItShowsSomething(p);
      else this.reloaded.fire(p);
    };
    this.context.subscriptions.push(
      this.client.onNotification(P.profileLoaded, (p) => onProfile(p, true)),
      this.client.onNotification(P.profileChanged, (p) => onProfile(p, false)),
      // The server re-resolved a profile, or its view changed: everything shown asks again.
      this.client.onNotification(P.annotationsChanged, () => this.fire()),
    );
  }

  // Threads and the time window stay selected for a new profile (a run of the same program
  // again) unless they select nothing in it; then they are cleared, with a message.
  private async keepViewIfItShowsSomething(p: P.ProfileSummary): Promise<void> {
    if (!this.threads.length && !this.window.from && !this.window.to) return;
    let shown: number;
    try {
      shown = (await this.client.sendRequest(P.threads, { profileId: p.profileId })).total;
    } catch {
      return;
    }
    if (shown > 0 || this.active?.profileId !== p.profileId) return;
    this.threads = [];
    this.window = {};
    await this.client.sendRequest('workspace/executeCommand', { command: P.Commands.selectThreads, arguments: [{ threads: [] }] });
    await this.client.sendRequest('workspace/executeCommand', { command: P.Commands.setWindow, arguments: [{}] });
    this.fire();
    void vscode.window.showInformationMessage(`hotlines: the selected threads or time window match nothing in ${p.path.split('/').pop()}: showing every thread and the whole profile`);
  }

  // The event shown: the one selected when the active profile has it, else its default.
  shownEvent(): string {
    const p = this.active;
    if (!p) return this.event;
    return p.events.some((e) => e.name === this.event) ? this.event : p.defaultEvent;
  }

  measure(): 'count' | 'value' {
    return vscode.workspace.getConfiguration('hotlines').get<'count' | 'value'>('measure', 'value');
  }

  async refreshProfiles(): Promise<void> {
    const r = await this.client.sendRequest(P.profiles);
    this.profiles = r.profiles;
    if (this.active) this.active = this.profiles.find((p) => p.profileId === this.active?.profileId);
    if (!this.active && this.profiles.length) this.active = this.profiles[this.profiles.length - 1];
  }

  async executeServerCommand(command: string, arg?: object): Promise<unknown> {
    const r = await this.client.sendRequest('workspace/executeCommand', {
      command,
      arguments: arg === undefined ? [] : [arg],
    });
    this.fire();
    return r;
  }

  // Changes asked for together — a profile's profileLoaded and the annotationsChanged right
  // behind it, a view command's answer and its annotationsChanged — redraw once.
  fire(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.changed.fire();
    }, 20);
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    this.changed.dispose();
    this.loaded.dispose();
    this.reloaded.dispose();
  }
}
