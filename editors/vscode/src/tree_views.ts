// The "hotlines" activity-bar container: Profiles (loaded, events and sample counts), Hot
// Methods (self/total, click → source through hotlines/resolveFrame) and Hot Lines (the
// hottest (file, line) pairs by self, from a line-level hotlines/flameGraph). All refresh when
// the session changes. Profile files dropped on the Profiles view load.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { formatWeight } from '../../web/src/format';
import { formatPercent, measureOf } from './heat';
import { hotLines } from './hot_lines';
import { loadProfile } from './load_profile';
import * as P from './protocol';
import type { Session } from './session';

class Item extends vscode.TreeItem {
  profile?: P.ProfileSummary;
  children?: Item[];
}

abstract class Provider implements vscode.TreeDataProvider<Item> {
  protected readonly emitter = new vscode.EventEmitter<Item | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  constructor(protected readonly session: Session) {}
  refresh(): void {
    this.emitter.fire(undefined);
  }
  getTreeItem(item: Item): vscode.TreeItem {
    return item;
  }
  async getChildren(item?: Item): Promise<Item[]> {
    if (item) return item.children ?? [];
    if (!this.session.active) return [];
    try {
      return await this.roots();
    } catch (e) {
      return [new Item(`error: ${e instanceof Error ? e.message : String(e)}`)];
    }
  }
  protected abstract roots(): Promise<Item[]>;
}

class ProfilesProvider extends Provider {
  protected async roots(): Promise<Item[]> {
    await this.session.refreshProfiles();
    return this.session.profiles.map((p) => {
      const active = p.profileId === this.session.active?.profileId;
      const it = new Item(path.basename(p.path), vscode.TreeItemCollapsibleState.Collapsed);
      it.description = `${p.profileId}${active ? ' · active' : ''} · ${p.samples} samples`;
      it.tooltip = `${p.path}\n${p.format}${p.producer ? ` · ${p.producer}` : ''} · ${p.threads} threads`;
      it.contextValue = 'profile';
      it.profile = p;
      it.children = p.events.map((e) => {
        const c = new Item(e.name);
        c.description = `${e.count} · ${formatWeight(e.value, e.unit)}${e.name === p.defaultEvent ? ' · default' : ''}`;
        return c;
      });
      return it;
    });
  }
}

class HotMethodsProvider extends Provider {
  protected async roots(): Promise<Item[]> {
    const r = await this.session.client.sendRequest(P.hotMethods, { limit: 50 });
    const m = this.session.measure();
    const whole = measureOf(r.total, m);
    return r.methods.map((h) => {
      const it = new Item(h.name);
      it.description = `${formatPercent(measureOf(h.self, m), whole)} self · ${formatPercent(measureOf(h.total, m), whole)} total`;
      it.tooltip = `${h.name}\n${r.event}: self ${h.self.count} · total ${h.total.count} samples`;
      it.command = { command: 'hotlines.openFunction', title: 'Open Source', arguments: [h.name] };
      return it;
    });
  }
}

class HotLinesProvider extends Provider {
  protected async roots(): Promise<Item[]> {
    const m = this.session.measure();
    const tree = await this.session.client.sendRequest(P.flameGraph, { lines: true, minPercent: 0, maxNodes: 20000 });
    const whole = measureOf(tree.total, m);
    return hotLines(tree, m, 50).map((h) => {
      const it = new Item(`${path.basename(h.file)}:${h.line}`);
      it.description = `${formatPercent(h.self, whole)} self · ${h.name}`;
      it.tooltip = `${h.file}:${h.line}${h.uri ? '' : ' (not in the workspace)'}`;
      if (h.uri) it.command = { command: 'hotlines.openLine', title: 'Open', arguments: [h.uri, h.line] };
      return it;
    });
  }
}

// One file of a drop: its URI and name, and its bytes when the drop carries them.
interface Dropped {
  uri?: vscode.Uri;
  name: string;
  bytes?: () => Thenable<Uint8Array>; // the file's content, when the drop carries it
}

// Profile files dropped on the Profiles view (from the explorer or another application) load.
// A URI of this machine loads in place; one of another file system (a browser-hosted VS Code
// hands over `vscode-local:` URIs, a dropped desktop file may come with its bytes only) is
// copied to the extension's storage first.
class DropProfiles implements vscode.TreeDragAndDropController<Item> {
  readonly dropMimeTypes = ['text/uri-list', 'files'];
  readonly dragMimeTypes: string[] = [];
  constructor(private readonly session: Session, private readonly storage: vscode.Uri) {}

  async handleDrop(_target: Item | undefined, data: vscode.DataTransfer): Promise<void> {
    const dropped: Dropped[] = [];
    const list = await data.get('text/uri-list')?.asString();
    for (const line of (list ?? '').split(/\r?\n/)) {
      const t = line.trim();
      if (!t || t.startsWith('#')) continue;
      const uri = vscode.Uri.parse(t);
      dropped.push({ uri, name: path.posix.basename(uri.path) });
    }
    if (!dropped.length)
      data.forEach((item) => {
        const f = item.asFile();
        if (f) dropped.push({ uri: f.uri, name: f.name, bytes: () => f.data() });
      });
    for (const d of dropped) {
      const uri = await this.local(d);
      if (uri) await loadProfile(this.session, uri);
      else void vscode.window.showErrorMessage(`hotlines: cannot read the dropped file ${d.name}`);
    }
  }

  private async local(d: Dropped): Promise<vscode.Uri | undefined> {
    if (d.uri?.scheme === 'file') return d.uri;
    if (d.uri?.scheme === 'vscode-remote') return vscode.Uri.file(d.uri.path);
    let bytes: Uint8Array | undefined;
    try {
      bytes = d.bytes ? await d.bytes() : d.uri ? await vscode.workspace.fs.readFile(d.uri) : undefined;
    } catch {
      // vscode-local: not readable from here; the browser may run on this machine
      if (d.uri && fs.existsSync(d.uri.path)) return vscode.Uri.file(d.uri.path);
    }
    if (!bytes) return undefined;
    const dir = vscode.Uri.joinPath(this.storage, 'dropped');
    await vscode.workspace.fs.createDirectory(dir);
    const copy = vscode.Uri.joinPath(dir, path.basename(d.name) || 'dropped-profile');
    await vscode.workspace.fs.writeFile(copy, bytes);
    return copy;
  }
}

export function activate(context: vscode.ExtensionContext, session: Session): void {
  const providers: [string, Provider][] = [
    ['hotlines.profiles', new ProfilesProvider(session)],
    ['hotlines.hotMethods', new HotMethodsProvider(session)],
    ['hotlines.hotLines', new HotLinesProvider(session)],
  ];
  const [[, profiles], ...rest] = providers;
  context.subscriptions.push(
    vscode.window.createTreeView('hotlines.profiles', { treeDataProvider: profiles, dragAndDropController: new DropProfiles(session, context.globalStorageUri) }),
  );
  for (const [id, p] of rest) context.subscriptions.push(vscode.window.registerTreeDataProvider(id, p));
  context.subscriptions.push(session.onDidChange(() => providers.forEach(([, p]) => p.refresh())));
}
