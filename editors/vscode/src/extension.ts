// Activation: finds the server, starts the language client, then activates one feature per
// file (gutter heat, status bar, views, flame graph, profile editor, runs, test lenses, main
// classes, JVM attach, remap suggestions). The server does the work; these files draw.
import * as vscode from 'vscode';
import { createClient, serverPath } from './client';
import * as attachJvm from './attach_jvm';
import * as flameView from './flame_view';
import * as gutter from './gutter';
import * as javaMain from './java_main';
import * as loadProfile from './load_profile';
import * as navigate from './navigate';
import * as profileEditor from './profile_editor';
import * as remapSuggestion from './remap_suggestion';
import * as runs from './runs';
import { Session } from './session';
import * as showCallers from './show_callers';
import * as statusBar from './status_bar';
import * as testLenses from './test_lenses';
import * as treeViews from './tree_views';

let session: Session | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const server = serverPath(context.extensionPath);
  if (!server) {
    void vscode.window.showErrorMessage('hotlines: no server found: set hotlines.serverPath, or put hotlines on PATH');
    return;
  }
  const client = createClient(context, server);
  session = new Session(client, context);
  context.subscriptions.push(session);
  session.attach(); // notification handlers before start, so none is missed
  remapSuggestion.activate(context, session);
  const runList = runs.activate(context, session);
  testLenses.activate(context, session, runList);
  javaMain.activate(context, session, runList);
  attachJvm.activate(context, session, runList);
  await client.start();
  await session.refreshProfiles();
  loadProfile.activate(context, session);
  navigate.activate(context, session);
  showCallers.activate(context, session);
  statusBar.activate(context, session);
  treeViews.activate(context, session);
  gutter.activate(context, session);
  flameView.activate(context, session);
  profileEditor.activate(context, session);
  context.subscriptions.push(
    vscode.commands.registerCommand('hotlines.restartServer', async () => {
      await client.restart();
    }),
  );
}

export async function deactivate(): Promise<void> {
  await session?.client.stop();
}
